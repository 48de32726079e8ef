from datetime import timedelta
from unittest import mock

import pytest

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from notices import tasks as notices_tasks
from tests.tournaments.factories import T0, TournamentFactory
from tournaments import tasks
from tournaments.models import Tournament
from tournaments.services.clock import (
    clock_add_time,
    clock_advance_due,
    clock_next_level,
    clock_pause,
    clock_previous_level,
    clock_reconcile,
    clock_resume,
    clock_start,
)

pytestmark = pytest.mark.django_db

S = timedelta(seconds=1)
# Levels of 10, 10 minutes, a 5-minute break, then 15 minutes.
LEVELS = [(25, 50, 600), (50, 100, 600), ("break", 300, "Colour up"), (100, 200, 900)]


@pytest.fixture
def tournament():
    return TournamentFactory(levels=LEVELS)


def started(floor, tournament):
    return clock_start(actor=floor, tournament=tournament, now=T0)


def clock(tournament):
    tournament.refresh_from_db()
    return (
        tournament.status,
        tournament.current_level_index,
        tournament.level_started_at,
        tournament.level_ends_at,
        tournament.paused_remaining_ms,
    )


def test_start_runs_level_one__TRN_8(floor, tournament):
    started(floor, tournament)
    assert clock(tournament) == ("running", 0, T0, T0 + 600 * S, None)
    assert tournament.started_at == T0
    record = AuditRecord.objects.get(action="clock.start")
    assert record.actor == floor
    assert record.before["status"] == "registering"
    assert record.after == {
        "status": "running",
        "current_level_index": 0,
        "level_started_at": T0.isoformat(),
        "level_ends_at": (T0 + 600 * S).isoformat(),
        "paused_remaining_ms": None,
    }


def test_pause_and_resume_keep_exact_time__TRN_8(floor, tournament):
    started(floor, tournament)
    clock_pause(actor=floor, tournament=tournament, now=T0 + timedelta(seconds=200, milliseconds=250))
    assert clock(tournament) == ("paused", 0, T0, None, 399_750)
    # Paused for an hour: nothing rises.
    assert clock_advance_due(tournament_id=tournament.pk, now=T0 + timedelta(hours=1)) == 0
    resume_at = T0 + timedelta(hours=1)
    clock_resume(actor=floor, tournament=tournament, now=resume_at)
    assert clock(tournament) == ("running", 0, T0, resume_at + timedelta(seconds=399, milliseconds=750), None)
    pause, resume = AuditRecord.objects.filter(action__in=["clock.pause", "clock.resume"]).order_by("id")
    assert (pause.before["status"], pause.after["status"], pause.after["paused_remaining_ms"]) == (
        "running",
        "paused",
        399_750,
    )
    assert resume.after["level_ends_at"] == (resume_at + timedelta(seconds=399, milliseconds=750)).isoformat()
    assert Tournament.objects.get().clock_version == 3


def test_add_and_remove_time__TRN_8(floor, tournament):
    started(floor, tournament)
    clock_add_time(actor=floor, tournament=tournament, seconds=60, now=T0 + 10 * S)
    assert clock(tournament)[3] == T0 + 660 * S
    clock_add_time(actor=floor, tournament=tournament, seconds=-120, now=T0 + 20 * S)
    assert clock(tournament)[3] == T0 + 540 * S
    record = AuditRecord.objects.filter(action="clock.add_time").latest("id")
    assert (record.before["level_ends_at"], record.after["level_ends_at"], record.note) == (
        (T0 + 660 * S).isoformat(),
        (T0 + 540 * S).isoformat(),
        "-120 s",
    )
    clock_pause(actor=floor, tournament=tournament, now=T0 + 40 * S)
    clock_add_time(actor=floor, tournament=tournament, seconds=60, now=T0 + 50 * S)
    assert clock(tournament) == ("paused", 0, T0, None, 560_000)


def test_removing_all_time_left_refused__TRN_8(floor, tournament):
    started(floor, tournament)
    with pytest.raises(DomainError) as error:
        clock_add_time(actor=floor, tournament=tournament, seconds=-60, now=T0 + 550 * S)
    assert (error.value.code, error.value.rule) == ("not_enough_time_left", "TRN-8")
    assert clock(tournament)[3] == T0 + 600 * S
    assert not AuditRecord.objects.filter(action="clock.add_time").exists()


def test_next_and_previous_level__TRN_8(floor, tournament):
    started(floor, tournament)
    clock_next_level(actor=floor, tournament=tournament, now=T0 + 100 * S)
    assert clock(tournament) == ("running", 1, T0 + 100 * S, T0 + 700 * S, None)
    clock_next_level(actor=floor, tournament=tournament, now=T0 + 110 * S)
    assert clock(tournament) == ("on_break", 2, T0 + 110 * S, T0 + 410 * S, None)
    clock_previous_level(actor=floor, tournament=tournament, now=T0 + 120 * S)
    assert clock(tournament) == ("running", 1, T0 + 120 * S, T0 + 720 * S, None)
    clock_pause(actor=floor, tournament=tournament, now=T0 + 130 * S)
    clock_next_level(actor=floor, tournament=tournament, now=T0 + 140 * S)
    assert clock(tournament) == ("paused", 2, T0 + 140 * S, None, 300_000)
    clock_resume(actor=floor, tournament=tournament, now=T0 + 150 * S)
    assert clock(tournament) == ("on_break", 2, T0 + 140 * S, T0 + 450 * S, None)
    actions = list(
        AuditRecord.objects.filter(action__startswith="clock.")
        .order_by("id")
        .values_list("action", flat=True)
    )
    assert actions == [
        "clock.start",
        "clock.next_level",
        "clock.next_level",
        "clock.previous_level",
        "clock.pause",
        "clock.next_level",
        "clock.resume",
    ]


def test_no_level_before_first_or_after_last__TRN_8(floor, tournament):
    started(floor, tournament)
    with pytest.raises(DomainError) as error:
        clock_previous_level(actor=floor, tournament=tournament, now=T0 + S)
    assert error.value.code == "no_such_level"
    for _ in range(3):
        clock_next_level(actor=floor, tournament=tournament, now=T0 + S)
    with pytest.raises(DomainError):
        clock_next_level(actor=floor, tournament=tournament, now=T0 + S)
    assert clock(tournament)[1] == 3


def test_clock_actions_need_a_started_clock__TRN_8(floor, tournament):
    for service in (clock_next_level, clock_previous_level):
        with pytest.raises(DomainError) as error:
            service(actor=floor, tournament=tournament, now=T0)
        assert error.value.code == "clock_not_running"
    with pytest.raises(DomainError):
        clock_pause(actor=floor, tournament=tournament, now=T0)
    with pytest.raises(DomainError) as error:
        clock_resume(actor=floor, tournament=tournament, now=T0)
    assert error.value.code == "clock_not_paused"


def test_cashier_cannot_run_the_clock__ROL_1(cashier, tournament):
    with pytest.raises(DomainError) as error:
        clock_start(actor=cashier, tournament=tournament, now=T0)
    assert error.value.rule == "ROL-1"
    assert clock(tournament)[0] == "registering"


def test_due_level_rises_once_by_system__TRN_8(floor, tournament):
    started(floor, tournament)
    assert clock_advance_due(tournament_id=tournament.pk, now=T0 + 599 * S) == 0
    assert clock_advance_due(tournament_id=tournament.pk, now=T0 + 600 * S) == 1
    assert clock(tournament) == ("running", 1, T0 + 600 * S, T0 + 1200 * S, None)
    rise = AuditRecord.objects.get(action="clock.rise")
    assert (rise.actor, rise.actor_name) == (None, "system")
    assert (rise.before["current_level_index"], rise.after["current_level_index"]) == (0, 1)
    assert rise.after["level_ends_at"] == (T0 + 1200 * S).isoformat()


def test_late_worker_catches_up_each_level_exactly_once__TRN_8(floor, tournament):
    started(floor, tournament)
    # Three levels late: 600 + 600 + 300 seconds have passed, and 30 more.
    assert clock_advance_due(tournament_id=tournament.pk, now=T0 + 1530 * S) == 3
    # Each level starts at its predecessor's scheduled end, not at the late moment.
    assert clock(tournament) == ("running", 3, T0 + 1500 * S, T0 + 2400 * S, None)
    rises = AuditRecord.objects.filter(action="clock.rise").order_by("id")
    assert [
        (r.before["current_level_index"], r.after["current_level_index"], r.after["level_started_at"])
        for r in rises
    ] == [
        (0, 1, (T0 + 600 * S).isoformat()),
        (1, 2, (T0 + 1200 * S).isoformat()),
        (2, 3, (T0 + 1500 * S).isoformat()),
    ]
    assert [r.after["status"] for r in rises] == ["running", "on_break", "running"]


def test_duplicate_task_message_never_raises_twice__TRN_8(floor, tournament):
    started(floor, tournament)
    due = (T0 + 600 * S).isoformat()
    with (
        mock.patch("tournaments.services.clock.timezone.now", return_value=T0 + 600 * S),
        mock.patch("tournaments.tasks.timezone.now", return_value=T0 + 600 * S),
    ):
        assert tasks.clock_tick.run(tournament_id=tournament.pk, due=due) == 1
        assert tasks.clock_tick.run(tournament_id=tournament.pk, due=due) == 0
        assert tasks.clock_reconcile.run() == {"overdue": 0, "risen": 0, "scheduled": 0}
    assert clock(tournament)[1] == 1
    assert AuditRecord.objects.filter(action="clock.rise").count() == 1


def test_early_or_stale_message_does_nothing__TRN_8(floor, tournament):
    started(floor, tournament)
    clock_add_time(actor=floor, tournament=tournament, seconds=60, now=T0 + S)
    # The message sent for the old end (T0 + 600 s) arrives: the level now ends at 660 s.
    assert clock_advance_due(tournament_id=tournament.pk, now=T0 + 600 * S) == 0
    assert clock(tournament)[:2] == ("running", 0)


def test_last_level_runs_on_without_end__TRN_8(floor, tournament):
    started(floor, tournament)
    assert clock_advance_due(tournament_id=tournament.pk, now=T0 + 5 * 3600 * S) == 3
    assert clock(tournament) == ("running", 3, T0 + 1500 * S, None, None)
    assert AuditRecord.objects.filter(action="clock.last_level_open").count() == 1
    assert clock_advance_due(tournament_id=tournament.pk, now=T0 + 6 * 3600 * S) == 0
    with pytest.raises(DomainError) as error:
        clock_add_time(actor=floor, tournament=tournament, seconds=60, now=T0 + 6 * 3600 * S)
    assert error.value.code == "level_has_no_end"


def test_eta_task_enqueued_after_commit_at_level_end__TRN_8(
    floor, tournament, django_capture_on_commit_callbacks
):
    with (
        mock.patch.object(tasks.clock_tick, "apply_async") as apply_async,
        mock.patch.object(notices_tasks.tournament_start, "apply_async") as notice,
    ):
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            started(floor, tournament)
        assert len(callbacks) == 2  # the tick, and the players' notice of the start (NOT-1)
        notice.assert_called_once()
        apply_async.assert_called_once_with(
            (),
            {
                "tournament_id": tournament.pk,
                "due": (T0 + 600 * S).isoformat(),
                "venue_id": tournament.venue_id,
            },
            eta=T0 + 600 * S,
        )
        apply_async.reset_mock()
        with django_capture_on_commit_callbacks(execute=True):
            clock_add_time(actor=floor, tournament=tournament, seconds=30, now=T0 + S)
        apply_async.assert_called_once_with(
            (),
            {
                "tournament_id": tournament.pk,
                "due": (T0 + 630 * S).isoformat(),
                "venue_id": tournament.venue_id,
            },
            eta=T0 + 630 * S,
        )
        apply_async.reset_mock()
        with django_capture_on_commit_callbacks(execute=True):
            clock_pause(actor=floor, tournament=tournament, now=T0 + 2 * S)
        apply_async.assert_not_called()
        # A rise three levels late sends one message, for the level the clock settles on.
        with django_capture_on_commit_callbacks(execute=True):
            clock_resume(actor=floor, tournament=tournament, now=T0 + 2 * S)
        apply_async.reset_mock()
        with django_capture_on_commit_callbacks(execute=True):
            clock_advance_due(tournament_id=tournament.pk, now=T0 + 1600 * S)
        apply_async.assert_called_once_with(
            (),
            {
                "tournament_id": tournament.pk,
                "due": (T0 + 2430 * S).isoformat(),
                "venue_id": tournament.venue_id,
            },
            eta=T0 + 2430 * S,
        )


def test_far_level_end_gets_its_message_from_the_reconciler(floor, django_capture_on_commit_callbacks):
    tournament = TournamentFactory(levels=[(25, 50, 3600), (50, 100, 3600)])
    with mock.patch.object(tasks.clock_tick, "apply_async") as apply_async:
        with django_capture_on_commit_callbacks(execute=True):
            started(floor, tournament)
        apply_async.assert_not_called()  # an hour away: beyond the broker's safe ETA range
        with django_capture_on_commit_callbacks(execute=True):
            assert clock_reconcile(now=T0 + 1800 * S) == {"overdue": 0, "risen": 0, "scheduled": 0}
            assert clock_reconcile(now=T0 + 2100 * S) == {"overdue": 0, "risen": 0, "scheduled": 1}
            assert clock_reconcile(now=T0 + 2102 * S) == {"overdue": 0, "risen": 0, "scheduled": 0}
        apply_async.assert_called_once_with(
            (),
            {
                "tournament_id": tournament.pk,
                "due": (T0 + 3600 * S).isoformat(),
                "venue_id": tournament.venue_id,
            },
            eta=T0 + 3600 * S,
        )


def test_reconciler_raises_overdue_clocks_when_messages_are_lost__TRN_8(floor):
    first = TournamentFactory(levels=LEVELS)
    second = TournamentFactory(levels=LEVELS)
    paused = TournamentFactory(levels=LEVELS)
    for tournament in (first, second, paused):
        started(floor, tournament)
    clock_pause(actor=floor, tournament=paused, now=T0 + S)
    assert clock_reconcile(now=T0 + 1200 * S) == {"overdue": 2, "risen": 4, "scheduled": 0}
    assert clock(first)[:3] == ("on_break", 2, T0 + 1200 * S)
    assert clock(second)[:3] == ("on_break", 2, T0 + 1200 * S)
    assert clock(paused)[:2] == ("paused", 0)
    assert clock_reconcile(now=T0 + 1200 * S)["risen"] == 0
