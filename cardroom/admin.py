"""The admin site is for administrators managing staff accounts; domain records are shown
read-only here (every change of them goes through the services and their audit trail)."""

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext_lazy as _

from cardroom.errors import DomainError
from cardroom.models import AuditRecord, Venue, VenueRole
from cardroom.roles import Role
from cardroom.services import staff_groups_sync, staff_roles_set


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
        "slug",
        "host_names",
        "time_zone",
        "smallest_chip_cents",
        "gaming_day_start_hour",
        "aml_threshold_cents",
    ]


class VenueRoleForm(forms.ModelForm):
    role = forms.ChoiceField(label=_("role"), choices=[(role.value, _(role.value)) for role in Role])

    class Meta:
        model = VenueRole
        fields = ["venue", "role"]


class VenueRoleInline(admin.TabularInline):
    """A staff member's roles, one row per venue and role (VEN-1): a cashier in one venue may be
    a floor manager in another. Whoever may change staff accounts may change their roles; the
    rows are written by cardroom.services.staff_roles_set, which audits each change."""

    model = VenueRole
    form = VenueRoleForm
    extra = 1
    verbose_name = _("role in a venue")
    verbose_name_plural = _("roles in venues")

    def _may_change_staff(self, request) -> bool:
        return request.user.has_perm("auth.change_user")

    def has_view_permission(self, request, obj=None):
        return request.user.has_perm("auth.view_user")

    def has_add_permission(self, request, obj=None):
        return self._may_change_staff(request)

    def has_change_permission(self, request, obj=None):
        return self._may_change_staff(request)

    def has_delete_permission(self, request, obj=None):
        return self._may_change_staff(request)


class StaffUserAdmin(UserAdmin):
    """Administrators manage staff and their roles per venue (ROL-1, VEN-1), but only a
    superuser makes another superuser or hands out single permissions: an administrator cannot
    raise his own rights. The role groups follow the roles per venue (their union), so they are
    not edited by hand."""

    inlines = [VenueRoleInline]

    def get_readonly_fields(self, request, obj=None):
        readonly = list(super().get_readonly_fields(request, obj))
        if not request.user.is_superuser:
            readonly += ["is_superuser", "user_permissions"]
        return readonly

    def save_formset(self, request, form, formset, change):
        if formset.model is not VenueRole:
            return super().save_formset(request, form, formset, change)
        roles = {
            (row.cleaned_data["venue"].pk, row.cleaned_data["role"])
            for row in formset.forms
            if row.cleaned_data and row.cleaned_data.get("venue") and not row.cleaned_data.get("DELETE")
        }
        try:
            staff_roles_set(actor=request.user, user=form.instance, roles=roles)
        except DomainError as refused:
            raise PermissionDenied(refused.message) from refused
        # The admin's own change message reads these; the service's audit records say more.
        formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []
        return None

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        # The groups field saved what the form showed: the role groups go back to the union of
        # the roles per venue.
        staff_groups_sync(user=form.instance)


admin.site.unregister(get_user_model())
admin.site.register(get_user_model(), StaffUserAdmin)
