"""Give each role group its model permissions (ROL-1), after every migrate."""

from django.contrib.auth.models import Group, Permission

from cardroom.roles import ROLE_MODEL_PERMISSIONS


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
