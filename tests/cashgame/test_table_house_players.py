"""A table's house players (staff, proposition players or neither): set by the floor or a
manager on the tables page, audited; the public room page flags the table."""

import pytest

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from cashgame.models import CashTable, HousePlayers
from cashgame.services.tables import table_create, table_house_players_set

pytestmark = pytest.mark.django_db


def test_floor_marks_a_table_for_staff_and_it_is_audited(floor, table12):
    table_house_players_set(actor=floor, table=table12, house_players=HousePlayers.STAFF)
    assert CashTable.objects.get(pk=table12.pk).house_players == "staff"
    record = AuditRecord.objects.get(action="cashgame.table_house_players")
    assert (record.before["house_players"], record.after["house_players"], record.actor) == (
        "",
        "staff",
        floor,
    )


def test_a_cashier_cannot_mark_a_table_and_nothing_is_written(cashier, table12):
    with pytest.raises(DomainError):
        table_house_players_set(actor=cashier, table=table12, house_players=HousePlayers.PROPOSITION)
    assert CashTable.objects.get(pk=table12.pk).house_players == ""
    assert not AuditRecord.objects.filter(action="cashgame.table_house_players").exists()


def test_an_unknown_kind_is_refused_and_nothing_is_written(floor, table12):
    with pytest.raises(DomainError) as refused:
        table_house_players_set(actor=floor, table=table12, house_players="dealers")
    assert refused.value.code == "invalid_house_players"
    assert CashTable.objects.get(pk=table12.pk).house_players == ""
    assert not AuditRecord.objects.filter(action="cashgame.table_house_players").exists()


def test_a_manager_creates_a_proposition_table(manager, game12):
    table = table_create(actor=manager, number=8, game=game12, house_players=HousePlayers.PROPOSITION)
    assert table.house_players == "proposition"


def test_the_tables_page_sets_the_house_players(client, floor, table12):
    client.force_login(floor)
    page = client.get("/cashgame/").content.decode()
    assert f'action="/cashgame/tables/{table12.pk}/house/"' in page
    response = client.post(f"/cashgame/tables/{table12.pk}/house/", {"house_players": "proposition"})
    assert response.status_code == 302
    assert CashTable.objects.get(pk=table12.pk).house_players == "proposition"
    response = client.post(f"/cashgame/tables/{table12.pk}/house/", {"house_players": ""})
    assert CashTable.objects.get(pk=table12.pk).house_players == ""
