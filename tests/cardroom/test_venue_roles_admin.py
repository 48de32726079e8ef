"""VEN-1: an administrator gives staff their roles per venue on the admin site's user page; each
grant and revocation is audited in its venue, and the staff member's role groups (the admin
site's model permissions, which know no venue) are the union of his roles in every venue."""

import pytest
from django.contrib.auth.models import Group

from cardroom.errors import DomainError, PermissionDenied
from cardroom.models import AuditRecord, VenueRole
from cardroom.roles import DEVICE_GROUP, Role, user_venue_roles
from cardroom.services import staff_role_grant, staff_role_revoke, staff_roles_set
from tests.two_venues import staff, venue_two

pytestmark = pytest.mark.django_db


@pytest.fixture
def two(db):
    return venue_two()


def groups_of(user) -> list[str]:
    return sorted(user.groups.values_list("name", flat=True))


def roles_of(user) -> list[tuple[int, str]]:
    return sorted(VenueRole.objects.filter(user=user).values_list("venue_id", "role"))


def role_records() -> list[tuple[int, str, str, str]]:
    return [
        (record.venue_id, record.action, record.actor_name, (record.after or record.before)["role"])
        for record in AuditRecord.all_venues.filter(action__startswith="staff.role_").order_by("pk")
    ]


def test_groups_are_the_union_of_the_roles_in_every_venue__VEN_1(venue, two):
    user = staff("eva", {venue: [Role.CASHIER], two: [Role.FLOOR, Role.CASHIER]})
    assert groups_of(user) == ["Cashier", "Floor"]
    # Cashier in A still: the group stays when B's cashier role goes.
    staff_role_revoke(user=user, role=Role.CASHIER.value, venue=two)
    assert groups_of(user) == ["Cashier", "Floor"]
    staff_role_revoke(user=user, role=Role.FLOOR.value, venue=two)
    assert groups_of(user) == ["Cashier"]
    assert roles_of(user) == [(venue.pk, "Cashier")]
    assert user_venue_roles(user) == {venue.pk: frozenset({"Cashier"})}
    # Grants and revocations by code (tests, the demo) name no actor and leave no record.
    assert role_records() == []


def test_an_administrator_sets_roles_per_venue_each_change_audited_in_its_venue__VEN_1(
    venue, two, administrator
):
    user = staff("eva", {venue: [Role.FLOOR]})
    user.groups.add(Group.objects.get_or_create(name=DEVICE_GROUP)[0])  # not a role: left alone
    staff_roles_set(
        actor=administrator, user=user, roles={(venue.pk, "Cashier"), (two.pk, "Floor"), (two.pk, "Manager")}
    )
    assert roles_of(user) == sorted([(venue.pk, "Cashier"), (two.pk, "Floor"), (two.pk, "Manager")])
    assert groups_of(user) == ["Cashier", DEVICE_GROUP, "Floor", "Manager"]
    assert role_records() == [
        (venue.pk, "staff.role_revoke", "admin1", "Floor"),
        (venue.pk, "staff.role_grant", "admin1", "Cashier"),
        (two.pk, "staff.role_grant", "admin1", "Floor"),
        (two.pk, "staff.role_grant", "admin1", "Manager"),
    ]


def test_only_an_administrator_sets_roles_and_only_known_ones__VEN_1_ROL_1(venue, two, manager):
    user = staff("eva", {venue: [Role.FLOOR]})
    before = (roles_of(user), groups_of(user), AuditRecord.all_venues.count())
    with pytest.raises(PermissionDenied) as refused:
        staff_roles_set(actor=manager, user=user, roles={(two.pk, "Manager")})
    assert refused.value.rule == "ROL-1"
    with pytest.raises(DomainError) as refused:
        staff_role_grant(user=user, role="Owner", venue=two)
    assert (refused.value.code, refused.value.rule) == ("unknown_role", "ROL-1")
    assert (roles_of(user), groups_of(user), AuditRecord.all_venues.count()) == before


def user_form(user, rows: list[dict], *, initial: int) -> dict:
    """The admin's change form of a staff member, with the roles' inline rows."""
    form = {
        "username": user.username,
        "is_active": "on",
        "is_staff": "on" if user.is_staff else "",
        "date_joined_0": "2026-11-01",
        "date_joined_1": "10:00:00",
        "groups": [],
        "venue_roles-TOTAL_FORMS": str(len(rows)),
        "venue_roles-INITIAL_FORMS": str(initial),
        "venue_roles-MIN_NUM_FORMS": "0",
        "venue_roles-MAX_NUM_FORMS": "1000",
    }
    for number, row in enumerate(rows):
        for name, value in row.items():
            form[f"venue_roles-{number}-{name}"] = value
        form[f"venue_roles-{number}-user"] = str(user.pk)
    return form


def test_the_admin_user_page_gives_roles_per_venue__VEN_1(client, venue, two, administrator):
    administrator.is_staff = True  # the admin site needs it (as the demo's administrator has)
    administrator.save(update_fields=["is_staff"])
    user = staff("eva", {venue: [Role.FLOOR]})
    client.force_login(administrator)
    page = client.get(f"/admin/auth/user/{user.pk}/change/")
    assert page.status_code == 200
    text = page.content.decode()
    assert 'name="venue_roles-0-venue"' in text and 'name="venue_roles-0-role"' in text
    assert "Casino Two" in text

    floor_row = VenueRole.objects.get(user=user)
    rows = [
        # A's floor role becomes the cashier's; B gets a floor manager. The form's groups field
        # is sent empty: the role groups follow the roles anyway.
        {"id": str(floor_row.pk), "venue": str(venue.pk), "role": "Cashier"},
        {"id": "", "venue": str(two.pk), "role": "Floor"},
    ]
    answer = client.post(f"/admin/auth/user/{user.pk}/change/", user_form(user, rows, initial=1))
    assert answer.status_code == 302, answer.content.decode()[:2000]
    assert roles_of(user) == sorted([(venue.pk, "Cashier"), (two.pk, "Floor")])
    assert groups_of(user) == ["Cashier", "Floor"]
    assert role_records() == [
        (venue.pk, "staff.role_revoke", "admin1", "Floor"),
        (venue.pk, "staff.role_grant", "admin1", "Cashier"),
        (two.pk, "staff.role_grant", "admin1", "Floor"),
    ]

    # B's row deleted: the floor group goes with it.
    cashier_row = VenueRole.objects.get(user=user, venue=venue)
    floor_b = VenueRole.objects.get(user=user, venue=two)
    rows = [
        {"id": str(cashier_row.pk), "venue": str(venue.pk), "role": "Cashier"},
        {"id": str(floor_b.pk), "venue": str(two.pk), "role": "Floor", "DELETE": "on"},
    ]
    answer = client.post(f"/admin/auth/user/{user.pk}/change/", user_form(user, rows, initial=2))
    assert answer.status_code == 302
    assert roles_of(user) == [(venue.pk, "Cashier")]
    assert groups_of(user) == ["Cashier"]
    assert role_records()[-1] == (two.pk, "staff.role_revoke", "admin1", "Floor")


def test_the_venues_are_listed_on_the_admin_site__VEN_1(client, venue, two, administrator):
    client.force_login(make_superuser())
    page = client.get("/admin/cardroom/venue/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Casino Two" in text and "Card Room" in text and ">two<" in text


def make_superuser():
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_superuser(username="root", password="x" * 20)
