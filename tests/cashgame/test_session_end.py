"""A cashed-out session leaves the table (state `ended`, CSH-2), and the session list filters by
`?ended=` (absent: all, true: ended only, false: open only)."""

import importlib

import pytest
from django.apps import apps
from django.db import IntegrityError, transaction

from cashgame.models import PlayerSession, SeatState
from cashgame.services.sessions import session_cash_out
from tests.cashgame.conftest import at, key, seat_players

pytestmark = pytest.mark.django_db

migration = importlib.import_module("cashgame.migrations.0005_session_state_ended")


@pytest.fixture
def two_sessions(cashier, floor, shift, table12):
    """Seat 1 cashed out, seat 2 still playing."""
    first, second = seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=2)
    gone = session_cash_out(
        actor=cashier, shift=shift, session=first, amount_cents=12_000, idempotency_key=key(), now=at(30)
    )
    return gone, second


def test_cash_out_leaves_the_table__CSH_2(two_sessions):
    gone, _second = two_sessions
    assert PlayerSession.objects.get(pk=gone.pk).state == SeatState.ENDED


def test_migration_marks_sessions_cashed_out_before_as_ended__CSH_2(two_sessions):
    gone, second = two_sessions
    PlayerSession.objects.filter(pk=gone.pk).update(state=SeatState.PLAYING)  # as before the state existed
    migration.mark_ended_sessions(apps, None)
    assert PlayerSession.objects.get(pk=gone.pk).state == SeatState.ENDED
    assert PlayerSession.objects.get(pk=second.pk).state == SeatState.PLAYING
    migration.unmark_ended_sessions(apps, None)
    assert PlayerSession.objects.get(pk=gone.pk).state == SeatState.PLAYING


def test_only_an_ended_session_can_have_left_the_table__CSH_2(two_sessions):
    _gone, second = two_sessions
    assert SeatState.ENDED.label == "Left the table"
    with pytest.raises(IntegrityError), transaction.atomic():
        PlayerSession.objects.filter(pk=second.pk).update(state=SeatState.ENDED)
    assert PlayerSession.objects.get(pk=second.pk).state == SeatState.PLAYING


def session_ids(response) -> list[int]:
    assert response.status_code == 200, response.json()
    return [session["id"] for session in response.json()["results"]]


def test_session_list_without_the_parameter_lists_all(api, floor, two_sessions):
    gone, second = two_sessions
    assert session_ids(api(floor).get("/api/cashgame/sessions/")) == [gone.pk, second.pk]


def test_session_list_filters_ended_and_open(api, floor, table12, two_sessions):
    gone, second = two_sessions
    client = api(floor)
    assert session_ids(client.get("/api/cashgame/sessions/", {"ended": "true"})) == [gone.pk]
    assert session_ids(client.get("/api/cashgame/sessions/", {"ended": "false"})) == [second.pk]
    both = {"ended": "false", "table": table12.pk}
    assert session_ids(client.get("/api/cashgame/sessions/", both)) == [second.pk]


@pytest.mark.parametrize("value", ["yes", "1", "True", ""])
def test_session_list_refuses_a_malformed_ended_flag(api, floor, two_sessions, value):
    response = api(floor).get("/api/cashgame/sessions/", {"ended": value})
    assert response.status_code == 400
    assert response.json() == {"code": "invalid", "detail": {"ended": ["Must be true or false."]}, "rule": ""}
