from django.contrib import admin

from loyalty.models import Lot, Movement


@admin.register(Lot)
class LotAdmin(admin.ModelAdmin):
    """Read-only: points change only through the loyalty services (LOY-1)."""

    list_display = ["player", "earned_at", "points", "points_left", "value_cents", "value_left_cents"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Movement)
class MovementAdmin(LotAdmin):
    list_display = ["player", "at", "kind", "points", "value_cents", "balance_after"]
