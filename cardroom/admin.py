"""The admin site is for administrators managing staff accounts; domain records are shown
read-only here (every change of them goes through the services and their audit trail)."""

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin

from cardroom.models import AuditRecord, Venue


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(AuditRecord)
class AuditRecordAdmin(ReadOnlyAdmin):
    list_display = ["at", "actor_name", "action", "object_type", "object_repr"]
    list_filter = ["action", "object_type"]
    search_fields = ["actor_name", "object_repr", "object_id"]


@admin.register(Venue)
class VenueAdmin(ReadOnlyAdmin):
    list_display = [
        "name",
        "time_zone",
        "smallest_chip_cents",
        "gaming_day_start_hour",
        "aml_threshold_cents",
    ]


class StaffUserAdmin(UserAdmin):
    """Administrators manage staff and their roles (ROL-1), but only a superuser makes another
    superuser or hands out single permissions: an administrator cannot raise his own rights."""

    def get_readonly_fields(self, request, obj=None):
        readonly = list(super().get_readonly_fields(request, obj))
        if not request.user.is_superuser:
            readonly += ["is_superuser", "user_permissions"]
        return readonly


admin.site.unregister(get_user_model())
admin.site.register(get_user_model(), StaffUserAdmin)
