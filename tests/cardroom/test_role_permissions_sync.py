"""ROL-1: after every migrate (and every flush of a test database) each role's group holds
exactly the model permissions cardroom.roles names for it, and every name it lists exists."""

import pytest
from django.contrib.auth.models import Group

from cardroom.roles import ROLE_MODEL_PERMISSIONS, Role


@pytest.mark.django_db
def test_each_role_group_holds_exactly_its_listed_permissions__ROL_1():
    for role, dotted_names in ROLE_MODEL_PERMISSIONS.items():
        group = Group.objects.get(name=role.value)
        held = {
            f"{p.content_type.app_label}.{p.codename}"
            for p in group.permissions.select_related("content_type")
        }
        assert held == set(dotted_names), role


@pytest.mark.django_db(transaction=True)
def test_a_flushed_database_gets_the_permissions_back_in_one_pass__ROL_1(django_assert_max_num_queries):
    from django.core.management.sql import emit_post_migrate_signal

    Group.objects.get(name=Role.FLOOR.value).permissions.clear()
    # Permissions, content types and the venue query per app (104 in all with the ops and leagues
    # apps, 5 more for loyalty's models, 5 for printing's and 5 for the notices'); the roles are
    # synced once, at the end, where they took 810 queries when synced after every app.
    with django_assert_max_num_queries(124):
        emit_post_migrate_signal(verbosity=0, interactive=False, db="default")
    held = {p.codename for p in Group.objects.get(name=Role.FLOOR.value).permissions.all()}
    assert held == {dotted.split(".", 1)[1] for dotted in ROLE_MODEL_PERMISSIONS[Role.FLOOR]}
