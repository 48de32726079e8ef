import pytest
from django.db import DatabaseError, connection, transaction

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from cardroom.services import audit_record, venue_update

pytestmark = pytest.mark.django_db


def test_audit_rows_refuse_update_and_delete_in_the_database(manager):
    record = audit_record(actor=manager, action="test.action", object_type="x", object_id=1)
    for sql in (
        "UPDATE cardroom_auditrecord SET action = 'forged' WHERE id = %s",
        "DELETE FROM cardroom_auditrecord WHERE id = %s",
    ):
        with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql, [record.pk])
    record.refresh_from_db()
    assert record.action == "test.action"


def test_venue_update_audited_with_before_and_after(manager, venue):
    venue_update(actor=manager, venue=venue, smallest_chip_cents=100, gaming_day_start_hour=8)
    venue.refresh_from_db()
    assert (venue.smallest_chip_cents, venue.gaming_day_start_hour) == (100, 8)
    record = AuditRecord.objects.get(action="venue.update")
    assert record.before["smallest_chip_cents"] == 50
    assert record.after["smallest_chip_cents"] == 100
    assert record.actor_name == "manager1"


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"time_zone": "Mars/Olympus"}, "invalid_time_zone"),
        ({"gaming_day_start_hour": 24}, "invalid_hour"),
        ({"aml_threshold_cents": 0}, "invalid_aml_threshold"),
        ({"currency": "USD"}, "unknown_field"),
    ],
)
def test_venue_bad_input_changes_nothing(manager, venue, changes, code):
    with pytest.raises(DomainError) as error:
        venue_update(actor=manager, venue=venue, **changes)
    assert error.value.code == code
    assert AuditRecord.objects.count() == 0


def test_only_managers_change_venue__ROL_1(cashier, venue):
    with pytest.raises(DomainError) as error:
        venue_update(actor=cashier, venue=venue, name="Mine")
    assert error.value.status_code == 403


def test_venue_page_form_error_shows_and_saves_nothing(client, manager, venue):
    client.force_login(manager)
    response = client.post(
        "/venue/",
        {
            "name": "Room",
            "slug": "room",
            "time_zone": "Nowhere/Zone",
            "smallest_chip_cents": "0.50",
            "gaming_day_start_hour": "6",
            "aml_threshold_cents": "2000",
            "confirm_threshold_cents": "1,000",
            "recount_threshold_cents": "5",
            "dealer_push_minutes": "30",
            "identity_retention_years": "5",
        },
    )
    assert response.status_code == 200
    assert "Unknown time zone: Nowhere/Zone" in response.content.decode()
    venue.refresh_from_db()
    assert venue.time_zone == "Europe/Bratislava"


def test_venue_page_refuses_an_amount_that_could_mean_two__CAG_5(client, manager, venue):
    client.force_login(manager)
    response = client.post(
        "/venue/",
        {
            "name": "Room",
            "slug": "room",
            "time_zone": "Europe/Bratislava",
            "smallest_chip_cents": "0.505",
            "gaming_day_start_hour": "6",
            "aml_threshold_cents": "2000",
            "confirm_threshold_cents": "1,000",
            "recount_threshold_cents": "5",
            "dealer_push_minutes": "30",
            "identity_retention_years": "5",
        },
    )
    assert "“0.505” could mean an amount with three decimals or 505.00 EUR" in response.content.decode()
    assert AuditRecord.objects.count() == 0


def test_audit_page_filters_by_an_action_named_in_words(client, manager):
    audit_record(actor=manager, action="player.create", object_type="players.player", object_id=1)
    audit_record(actor=None, action="clock.rise", object_type="tournaments.tournament", object_id=2)
    client.force_login(manager)
    page = client.get("/audit/", {"action": "clock.rise"}).content.decode()
    assert '<option value="clock.rise" selected>Level rose</option>' in page
    assert '<option value="player.create">Player added</option>' in page
    rows = page[page.index("<tbody>") : page.index("</tbody>")]
    assert '<td class="action" data-action="clock.rise">Level rose</td>' in rows
    assert "Player added" not in rows
    assert AuditRecord.objects.get(action="clock.rise").actor_name == "system"


def test_venue_page_sets_the_dealers_push_interval__DLR_2(client, manager, venue):
    client.force_login(manager)
    form = {
        "name": "Room",
        "slug": "room",
        "time_zone": "Europe/Bratislava",
        "smallest_chip_cents": "0.50",
        "gaming_day_start_hour": "6",
        "aml_threshold_cents": "2000",
        "confirm_threshold_cents": "1,000",
        "recount_threshold_cents": "5",
        "dealer_push_minutes": "20",
        "identity_retention_years": "5",
    }
    assert client.post("/venue/", form).status_code == 302
    venue.refresh_from_db()
    assert venue.dealer_push_minutes == 20
    record = AuditRecord.objects.get(action="venue.update")
    assert (record.before["dealer_push_minutes"], record.after["dealer_push_minutes"]) == (30, 20)


def test_venue_page_sets_the_recount_threshold__CAG_3(client, manager, venue):
    client.force_login(manager)
    assert 'name="recount_threshold_cents" value="5.00"' in client.get("/venue/").content.decode()
    form = {
        "name": "Room",
        "slug": "room",
        "time_zone": "Europe/Bratislava",
        "smallest_chip_cents": "0.50",
        "gaming_day_start_hour": "6",
        "aml_threshold_cents": "2000",
        "confirm_threshold_cents": "1,000",
        "recount_threshold_cents": "12,50",
        "dealer_push_minutes": "30",
        "identity_retention_years": "5",
    }
    assert client.post("/venue/", form).status_code == 302
    venue.refresh_from_db()
    assert venue.recount_threshold_cents == 1_250
    record = AuditRecord.objects.get(action="venue.update")
    assert (record.before["recount_threshold_cents"], record.after["recount_threshold_cents"]) == (500, 1_250)
