from django.contrib import admin

from cardroom.admin import ReadOnlyAdmin
from players.models import Player


@admin.register(Player)
class PlayerAdmin(ReadOnlyAdmin):
    list_display = ["card_number", "last_name", "first_name", "nickname", "date_of_birth", "exclusion_status"]
    search_fields = ["card_number", "last_name_key", "first_name_key", "nickname_key"]
