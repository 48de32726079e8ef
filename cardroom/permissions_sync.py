"""After every migrate (and after a test database is emptied, which Django follows with the
same signal): the venue row exists, and each role group has its model permissions (ROL-1)."""

from django.apps import apps
from django.contrib.auth.models import Group, Permission

from cardroom.models import Venue
from cardroom.roles import ROLE_MODEL_PERMISSIONS


def ensure_venue(**kwargs) -> None:
    """The one venue this installation runs; reads never create it (cardroom.selectors)."""
    if not Venue.objects.exists():
        Venue.objects.create(name="Card Room", slug="room")


def _last_migrated_app():
    """Django sends post_migrate once per app with models, in INSTALLED_APPS order, each after
    that app's permissions were created."""
    return [config for config in apps.get_app_configs() if config.models_module is not None][-1]


def sync_role_permissions(sender, **kwargs) -> None:
    """The roles name permissions of every app, so they are synced once, after the last app's
    signal (every permission exists by then): once per migrate or flush, not once per app."""
    if sender is not _last_migrated_app():
        return
    wanted = {
        dotted.split(".", 1)[1] for dotted_names in ROLE_MODEL_PERMISSIONS.values() for dotted in dotted_names
    }
    permissions = {
        (permission.content_type.app_label, permission.codename): permission
        for permission in Permission.objects.filter(codename__in=wanted)
        .select_related("content_type")
        .only("codename", "content_type__app_label")
    }
    for role, codenames in ROLE_MODEL_PERMISSIONS.items():
        group, _ = Group.objects.get_or_create(name=role.value)
        keys = (tuple(dotted.split(".", 1)) for dotted in codenames)
        group.permissions.set([permissions[key] for key in keys if key in permissions])
