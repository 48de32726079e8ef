from datetime import timedelta

import pytest

from cardroom.errors import DomainError
from cardroom.venues import venue_cache_clear
from cashgame.models import SeatState, WaitingEntry, WaitStatus
from cashgame.services.waiting import (
    waiting_add,
    waiting_call_next,
    waiting_pass_due,
    waiting_reconcile,
    waiting_remove,
    waiting_seat,
)
from tests.cashgame.conftest import at
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

HOLD = timedelta(minutes=3)


@pytest.fixture
def queue(floor, game12):
    players = [PlayerFactory() for _ in range(3)]
    for minute, (player, source) in enumerate(zip(players, ["in_person", "phone", "in_person"], strict=True)):
        waiting_add(actor=floor, game=game12, player=player, source=source, now=at(minute))
    return players


def test_first_come_first_called_and_holds_three_minutes__CSH_7(
    floor, game12, table12, queue, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as callbacks:
        entry = waiting_call_next(actor=floor, game=game12, table=table12, now=at(10))
    assert (entry.player, entry.status, entry.hold_until, entry.table) == (
        queue[0],
        "called",
        at(10) + HOLD,
        table12,
    )
    # The ETA timer, then the player's notice (NOT-1), both sent after commit.
    assert [callback.func.__self__.task for callback in callbacks] == [
        "cashgame.waiting_pass_due",
        "notices.seat_ready",
    ]


def test_the_next_is_called_when_the_hold_is_over__CSH_7_WTL_2(floor, game12, table12, queue):
    first = waiting_call_next(actor=floor, game=game12, table=table12, now=at(10))
    assert waiting_pass_due(entry_id=first.pk, now=at(10) + HOLD - timedelta(seconds=1)) is False
    assert waiting_pass_due(entry_id=first.pk, now=at(10) + HOLD) is True
    assert waiting_pass_due(entry_id=first.pk, now=at(10) + HOLD) is False  # a duplicate message
    first.refresh_from_db()
    second = WaitingEntry.objects.get(player=queue[1])
    # The first miss moves him to the end of the list (WTL-2), timed at the hold's end.
    assert (first.status, first.missed_calls, first.added_at, first.table) == ("waiting", 1, at(13), None)
    assert (second.status, second.called_at, second.hold_until) == ("called", at(13), at(16))


def test_reconciler_passes_what_the_timer_missed__CSH_7(floor, game12, table12, queue):
    waiting_call_next(actor=floor, game=game12, table=table12, now=at(10))
    assert waiting_reconcile(now=at(12)) == {"overdue": 0, "passed": 0}
    assert waiting_reconcile(now=at(20)) == {"overdue": 1, "passed": 1}
    rows = list(WaitingEntry.objects.order_by("added_at", "pk").values_list("player", "status"))
    # The first called went to the end of the list; the second holds the seat now.
    assert rows == [(queue[1].pk, "called"), (queue[2].pk, "waiting"), (queue[0].pk, "waiting")]


def test_called_player_takes_the_seat__CSH_7(floor, game12, table12, queue):
    entry = waiting_call_next(actor=floor, game=game12, table=table12, now=at(10))
    session = waiting_seat(actor=floor, entry=entry, seat=4, now=at(11))
    entry.refresh_from_db()
    assert (session.player, session.seat, session.state) == (queue[0], 4, SeatState.AWAITING_BUY_IN)
    assert (entry.status, entry.closed_at) == (WaitStatus.SEATED, at(11))
    assert waiting_pass_due(entry_id=entry.pk, now=at(20)) is False


def test_a_player_is_on_a_list_once__CSH_7(floor, game12, queue):
    with pytest.raises(DomainError) as error:
        waiting_add(actor=floor, game=game12, player=queue[0])
    assert (error.value.code, error.value.rule) == ("already_waiting", "CSH-7")
    assert WaitingEntry.objects.count() == 3


def test_removed_player_leaves_the_list(floor, game12, table12, queue):
    waiting_remove(actor=floor, entry=WaitingEntry.objects.get(player=queue[0]), now=at(5))
    entry = waiting_call_next(actor=floor, game=game12, table=table12, now=at(10))
    assert entry.player == queue[1]


def test_calling_an_empty_list_is_refused__CSH_7(floor, game12, table12):
    with pytest.raises(DomainError) as error:
        waiting_call_next(actor=floor, game=game12, table=table12)
    assert error.value.code == "list_empty"


def test_the_timer_task_and_the_beat_reconciler_are_wired__CSH_7(floor, game12, table12, queue):
    from django.conf import settings

    from cashgame.tasks import waiting_pass_due as task
    from cashgame.tasks import waiting_reconcile as reconcile_task

    assert settings.CELERY_BEAT_SCHEDULE["cashgame-waiting-reconcile"]["task"] == reconcile_task.name
    entry = waiting_call_next(actor=floor, game=game12, table=table12)  # now: its hold is in the future
    assert task.run(entry_id=entry.pk) is False
    assert reconcile_task.run() == {"overdue": 0, "passed": 0}
    entry.refresh_from_db()
    assert entry.status == WaitStatus.CALLED


def test_board_rows_take_constant_queries(client, floor, game12, game25, django_assert_num_queries):
    for game in (game12, game25):
        for _ in range(3):
            waiting_add(actor=floor, game=game, player=PlayerFactory())
    venue_cache_clear()  # read again by the request, as every few seconds
    # venue, games, entries with players and tables, open tables, the running high-hand promotions
    with django_assert_num_queries(5):
        response = client.get("/board/rows/")
    assert response.content.decode().count("<li>") == 6
