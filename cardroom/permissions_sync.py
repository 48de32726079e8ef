"""After every migrate (and after a test database is emptied, which Django follows with the
same signal): the venue row exists, and each role group has its model permissions (ROL-1)."""

from django.contrib.auth.models import Group, Permission

from cardroom.models import Venue
from cardroom.roles import ROLE_MODEL_PERMISSIONS


def ensure_venue(**kwargs) -> None:
    """The one venue this installation runs; reads never create it (cardroom.selectors)."""
    if not Venue.objects.exists():
        Venue.objects.create(name="Card Room")


def sync_role_permissions(**kwargs) -> None:
    for role, codenames in ROLE_MODEL_PERMISSIONS.items():
        group, _ = Group.objects.get_or_create(name=role.value)
        wanted = []
        for dotted in codenames:
            app_label, codename = dotted.split(".", 1)
            permission = Permission.objects.filter(
                content_type__app_label=app_label, codename=codename
            ).first()
            if permission is not None:
                wanted.append(permission)
        group.permissions.set(wanted)
