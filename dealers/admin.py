from django.contrib import admin

from dealers.models import Dealer


@admin.register(Dealer)
class DealerAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "active"]
    search_fields = ["name"]
