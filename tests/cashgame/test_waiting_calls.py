"""The call to a seat on the player's phone, the missed hold, interest and must-move lists
(WTL-2), and the phone numbers' erasure (WTL-3)."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from cashgame.models import CashTable, PlayerSession, TableStatus
from cashgame.selectors.waiting import interest_ready, waiting_status
from cashgame.services.sessions import session_release, session_seat
from cashgame.services.waiting import waiting_add, waiting_call_next, waiting_reconcile, waiting_seat_next
from cashgame.services.waiting_floor import waiting_must_move, waiting_open_table
from cashgame.services.waiting_remote import (
    status_token,
    waiting_join_remote,
    waiting_leave,
    waiting_phones_erase,
)
from tests.cashgame.conftest import at, make_game, make_table, seat_players
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_attempts_counted():
    """The joins' attempt counter lives in the cache, which outlives a test's database."""
    cache.clear()
    yield
    cache.clear()


def link(entry) -> str:
    """The rows' address for a link made now (the pages read the real clock; T0 is in the past)."""
    return reverse("wait:rows", args=[status_token([entry.pk], now=timezone.now())])


def phone_join(game, phone, nickname, minute):
    (entry,), token = waiting_join_remote(
        game_ids=[game.pk], nickname=nickname, phone=phone, address="10.0.0.1", now=at(minute)
    )
    return entry, token


def test_the_call_shows_table_seat_and_time_left_live__WTL_2(client, floor, game12, table12):
    session_seat(actor=floor, table=table12, player=PlayerFactory(), seat=1, now=at(0))
    entry, _token = phone_join(game12, "905000001", "Ace", 1)
    called = waiting_call_next(actor=floor, game=game12, table=table12, now=at(2))
    assert (called.pk, called.table, called.seat, called.hold_until) == (entry.pk, table12, 2, at(5))
    (row,) = waiting_status(entry_ids=[entry.pk], now=at(2) + timedelta(seconds=19))
    assert (row["status"], row["hold_seconds"], row["hold_text"], row["position"]) == (
        "called",
        161,
        "2:41",
        None,
    )
    rows = client.get(link(entry))
    assert rows["Cache-Control"] == "no-store"
    assert b"Your seat is ready" in rows.content and b"Table 1, seat 2" in rows.content
    assert f'data-called="{entry.pk}-'.encode() in rows.content


def test_a_missed_hold_moves_him_to_the_end_once_then_off__WTL_2(client, floor, game12, table12):
    ace, _token = phone_join(game12, "905000001", "Ace", 0)
    bo, _t = phone_join(game12, "905000002", "Bo", 1)
    waiting_call_next(actor=floor, game=game12, table=table12, now=at(10))
    assert waiting_reconcile(now=at(13)) == {"overdue": 1, "passed": 1}
    ace.refresh_from_db()
    bo.refresh_from_db()
    # Ace waits behind Bo, who holds the seat now.
    assert (ace.status, ace.missed_calls, ace.added_at, bo.status, bo.seat) == (
        "waiting",
        1,
        at(13),
        "called",
        1,
    )
    (row,) = waiting_status(entry_ids=[ace.pk], now=at(13))
    assert (row["position"], row["moved_to_end"]) == (1, True)
    assert b"you moved to the end of the list" in client.get(link(ace)).content
    # Bo misses too and goes behind Ace; Ace is called again and misses a second time: off.
    assert waiting_reconcile(now=at(16)) == {"overdue": 1, "passed": 1}
    ace.refresh_from_db()
    assert (ace.status, ace.table, ace.hold_until) == ("called", table12, at(19))
    assert waiting_reconcile(now=at(19)) == {"overdue": 1, "passed": 1}
    ace.refresh_from_db()
    assert (ace.status, ace.missed_calls, ace.closed_at) == ("passed", 2, at(19))
    assert b"you are off this list" in client.get(link(ace)).content
    actions = list(
        AuditRecord.objects.filter(object_id=str(ace.pk), action__startswith="cashgame.waiting_")
        .order_by("pk")
        .values_list("action", flat=True)
    )
    assert actions == [
        "cashgame.waiting_join_remote",
        "cashgame.waiting_call",
        "cashgame.waiting_requeue",
        "cashgame.waiting_call",
        "cashgame.waiting_pass",
    ]


def test_an_interest_list_opens_a_table_when_enough_wait__WTL_2(floor, game12):
    plo = make_game(name="PLO 1/2", interest_threshold=3)
    spare = CashTable.objects.create(number=7, game=game12, seats=6, status=TableStatus.CLOSED)
    for minute in range(2):
        waiting_add(actor=floor, game=plo, player=PlayerFactory(), now=at(minute))
    assert interest_ready() == []
    before = (CashTable.objects.filter(status="open").count(), AuditRecord.objects.count())
    with pytest.raises(DomainError) as error:
        waiting_open_table(actor=floor, game=plo, table=spare, now=at(3))
    assert (error.value.code, error.value.rule) == ("not_enough_interest", "WTL-2")
    assert (CashTable.objects.filter(status="open").count(), AuditRecord.objects.count()) == before
    waiting_add(actor=floor, game=plo, player=PlayerFactory(), now=at(4))
    (ready,) = interest_ready()
    assert (ready["game"], ready["waiting"], ready["tables"]) == (plo, 3, [spare])
    called = waiting_open_table(actor=floor, game=plo, table=spare, now=at(5))
    spare.refresh_from_db()
    assert (spare.status, spare.game) == ("open", plo)
    assert [(entry.seat, entry.hold_until) for entry in called] == [(1, at(8)), (2, at(8)), (3, at(8))]
    assert interest_ready() == []


def test_must_move_players_feed_the_main_game_longest_seated_first__WTL_2(
    floor, cashier, shift, game12, table12
):
    must = make_game(name="NLHE 1/2 must-move", must_move_for=game12)
    must_table = make_table(must, 5)
    first, _second = seat_players(cashier=cashier, floor=floor, shift=shift, table=must_table, count=2)
    seat_players(cashier=cashier, floor=floor, shift=shift, table=table12, count=8, minute=2)
    waiting_add(actor=floor, game=game12, player=PlayerFactory(), now=at(3))
    before = PlayerSession.objects.filter(table=table12, ended_at__isnull=True).count()
    with pytest.raises(DomainError) as error:
        waiting_seat_next(actor=floor, table=table12, seat=9, now=at(5))
    assert (error.value.code, error.value.rule) == ("must_move_first", "WTL-2")
    assert PlayerSession.objects.filter(table=table12, ended_at__isnull=True).count() == before
    moved = waiting_must_move(actor=floor, table=table12, seat=9, chips_cents=10_000, now=at(6))
    assert (moved.pk, moved.table, moved.seat) == (first.pk, table12, 9)
    assert AuditRecord.objects.filter(action="cashgame.must_move", object_id=str(first.pk)).count() == 1


def test_phone_numbers_are_erased_24_hours_after_leaving_the_lists__WTL_3(floor, game12, game25):
    kept, _token = phone_join(game12, "905000001", "Ace", 0)
    left, left_token = phone_join(game25, "905000002", "Bo", 0)
    waiting_leave(token=left_token, entry_id=left.pk, now=at(60))
    assert waiting_phones_erase(now=at(60 + 24 * 60 - 1)) == 0
    assert waiting_phones_erase(now=at(60 + 24 * 60)) == 1
    kept.refresh_from_db()
    left.refresh_from_db()
    # Still on a list: kept, however long ago he joined. Off it 24 h: erased, nickname kept.
    assert (kept.phone, left.phone, left.join_address, left.nickname) == ("905000001", "", "", "Bo")
    assert waiting_phones_erase(now=at(3 * 24 * 60)) == 0  # nothing left to erase
    assert AuditRecord.objects.filter(action="cashgame.waiting_phones_erase").count() == 1


def test_the_erasure_runs_from_beat__WTL_3():
    from cashgame.tasks import waiting_phones_erase as task

    schedule = settings.CELERY_BEAT_SCHEDULE["cashgame-waiting-phones-erase"]
    assert (schedule["task"], task.name, task.run()) == ("cashgame.waiting_phones_erase", schedule["task"], 0)


def test_the_board_shows_a_phone_join_by_nickname_only__WTL_3(client, floor, game12):
    waiting_join_remote(
        game_ids=[game12.pk], nickname="Lucky", phone="905777666", address="10.0.0.1", now=at(0)
    )
    board = client.get(reverse("board:rows")).content
    assert b"Lucky" in board and b"905777666" not in board
    waiting_page = client.get(reverse("board:board")).content
    assert b"905777666" not in waiting_page


def test_interest_threshold_and_must_move_are_the_managers_game_settings__WTL_2(manager, game12):
    from cashgame.services.games import game_update

    must = make_game(name="NLHE 1/2 must-move")
    game_update(actor=manager, game=must, must_move_for=game12, interest_threshold=4, now=at(1))
    must.refresh_from_db()
    assert (must.must_move_for, must.interest_threshold) == (game12, 4)
    record = AuditRecord.objects.filter(action="cashgame.game_update").latest("pk")
    assert (record.before["must_move_for"], record.after["must_move_for"]) == (None, game12.pk)
    before = AuditRecord.objects.count()
    for changes, code in (
        ({"must_move_for": must}, "invalid_must_move"),
        ({"interest_threshold": 51}, "invalid_interest_threshold"),
    ):
        with pytest.raises(DomainError) as error:
            game_update(actor=manager, game=must, now=at(2), **changes)
        assert (error.value.code, error.value.rule) == (code, "WTL-2")
    must.refresh_from_db()
    assert (must.must_move_for, must.interest_threshold, AuditRecord.objects.count()) == (game12, 4, before)


def test_the_floor_view_prompts_to_open_a_table_for_a_full_interest_list__WTL_2(floor, game12, table12):
    from screens.floor import room_get

    plo = make_game(name="PLO 1/2", interest_threshold=2)
    waiting_add(actor=floor, game=plo, player=PlayerFactory(), now=at(0))
    waiting_add(actor=floor, game=game12, player=PlayerFactory(), now=at(0))
    assert [(row["game"].name, row["open_table"]) for row in room_get()["waiting"]] == [
        ("NLHE 1/2", False),
        ("PLO 1/2", False),
    ]
    waiting_add(actor=floor, game=plo, player=PlayerFactory(), now=at(1))
    assert [row["open_table"] for row in room_get()["waiting"]] == [False, True]


def test_the_phone_poll_takes_four_queries_whatever_the_history__WTL_2(
    client, floor, game12, game25, table12, django_assert_num_queries
):
    (ace, bo), _token = waiting_join_remote(
        game_ids=[game12.pk, game25.pk], nickname="Ace", phone="905000001", address="10.0.0.1", now=at(0)
    )
    url = reverse("wait:rows", args=[status_token([ace.pk, bo.pk], now=timezone.now())])
    # Entries, seat openings, running tables, the queues: four, however many players and sessions.
    with django_assert_num_queries(4):
        assert client.get(url).status_code == 200
    for minute in range(1, 6):
        waiting_join_remote(
            game_ids=[game12.pk], nickname=f"P{minute}", phone=f"90500010{minute}", address=f"10.0.1.{minute}"
        )
        session = session_seat(
            actor=floor, table=table12, player=PlayerFactory(), seat=minute, now=at(minute)
        )
        session_release(actor=floor, session=session, now=timezone.now())
    with django_assert_num_queries(4):
        assert client.get(url).status_code == 200
