"""/metrics (OPS-2): exact figures after known events, read from the Prometheus text, and the
statements a scrape costs."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from celery import shared_task
from django.core.management import call_command

from cashgame.models import WaitingEntry, WaitStatus
from cashgame.services.sessions import session_buy_in
from cashier.models import TransactionKind
from cashier.services import shift_open
from dealers.models import Dealer, Push, PushKind, PushStatus
from ops.metrics import exposition
from ops.services import heartbeat_stamp
from reports.selectors.books import books_check
from tests.cashgame.conftest import make_game, make_table
from tests.factories import PlayerFactory, cage_stock
from tests.ops.conftest import samples
from tests.tournaments.factories import TournamentFactory
from tournaments.services.clock import clock_advance_due, clock_start

pytestmark = pytest.mark.django_db
# The middle of a gaming day (06:00 to 06:00 in Bratislava).
NOW = datetime(2026, 12, 5, 20, 0, tzinfo=ZoneInfo("Europe/Bratislava"))
S = timedelta(seconds=1)
LEVELS = [(25, 50, 600), (50, 100, 600), (100, 200, 900)]


@shared_task(name="tests.ops.always_fails")
def always_fails(**kwargs):
    raise RuntimeError("this task always fails")


def job(name: str, job_name: str) -> tuple:
    return (name, ("job", job_name))


def started(floor, seconds_ago: float):
    return clock_start(actor=floor, tournament=TournamentFactory(levels=LEVELS), now=NOW - seconds_ago * S)


def test_a_buy_in_posting_is_counted_in_the_gaming_day__OPS_2(cashier):
    table = make_table(make_game())
    cage_stock(cashier, now=NOW - 3600 * S)  # the cage's chips, which follow the cash (CHP-2)
    shift = shift_open(actor=cashier, opening_float_cents=500_000, now=NOW - 3600 * S)
    session_buy_in(
        actor=cashier,
        shift=shift,
        table=table,
        player=PlayerFactory(),
        seat=1,
        amount_cents=20_000,
        idempotency_key="ops-metrics-buy-in-1",
        now=NOW - 600 * S,
    )
    found = samples(exposition(now=NOW))
    postings = {
        labels[0][1]: value
        for (name, *labels), value in found.items()
        if name == "cardroom_ledger_postings_gaming_day"
    }
    # The drawer's float is a posting of no cashier transaction ("other").
    assert {kind: count for kind, count in postings.items() if count} == {"cash_buy_in": 1.0, "other": 1.0}
    # Every kind of cashier transaction has its line, zero or not, and "other".
    assert len(postings) == len(TransactionKind.values) + 1 == 13
    # Past the end of the gaming day (06:00), the new day has none.
    next_day = samples(exposition(now=NOW.replace(hour=6, minute=0) + timedelta(days=1)))
    assert next_day[("cardroom_ledger_postings_gaming_day", ("kind", "cash_buy_in"))] == 0.0


def test_level_rises_due_late_and_their_lateness__OPS_2_TRN_8(floor):
    # Its first level ended 100 s ago and rose 7.5 s late (the worker was away).
    risen = started(floor, 700)
    assert clock_advance_due(tournament_id=risen.pk, now=NOW - 92.5 * S) == 1
    started(floor, 620)  # due 20 s ago, not risen: late
    started(floor, 603)  # due 3 s ago: due, not late yet
    found = samples(exposition(now=NOW))
    assert found[job("cardroom_tasks_due", "level_rise")] == 2.0
    assert found[job("cardroom_tasks_late", "level_rise")] == 1.0
    assert found[job("cardroom_tasks_oldest_overdue_seconds", "level_rise")] == 20.0
    assert found[job("cardroom_tasks_done_last_hour", "level_rise")] == 1.0
    assert found[job("cardroom_tasks_done_late_last_hour", "level_rise")] == 1.0
    assert found[job("cardroom_tasks_lateness_last_hour_max_seconds", "level_rise")] == 7.5
    assert found[job("cardroom_tasks_last_lateness_seconds", "level_rise")] == 7.5
    # An hour later the rise is out of the window; the two levels are still due, and later.
    later = samples(exposition(now=NOW + 3600 * S))
    assert later[job("cardroom_tasks_done_last_hour", "level_rise")] == 0.0
    assert later[job("cardroom_tasks_oldest_overdue_seconds", "level_rise")] == 3620.0


def test_pushes_and_seat_holds_late__OPS_2_DLR_2_CSH_7():
    dealer = Dealer.objects.create(name="Dealer Ops")
    push = {"dealer": dealer, "kind": PushKind.FREE, "plan": 1}
    Push.objects.create(due_at=NOW - 8 * S, status=PushStatus.PENDING, **push)
    Push.objects.create(due_at=NOW + 60 * S, status=PushStatus.PENDING, **push)
    Push.objects.create(due_at=NOW - 300 * S, done_at=NOW - 298 * S, status=PushStatus.DONE, **push)
    Push.objects.create(due_at=NOW - 200 * S, done_at=NOW - 188 * S, status=PushStatus.DONE, **push)
    game = make_game()
    WaitingEntry.objects.create(
        game=game,
        nickname="Fish",
        status=WaitStatus.CALLED,
        added_at=NOW - 900 * S,
        called_at=NOW - 186 * S,
        hold_until=NOW - 6 * S,
        table=make_table(game),
        seat=3,
    )
    found = samples(exposition(now=NOW))
    assert {
        (name, labels[0][1]): value
        for (name, *labels), value in found.items()
        if labels and labels[0][0] == "job" and labels[0][1] in ("dealer_push", "seat_hold")
    } == {
        ("cardroom_tasks_due", "dealer_push"): 1.0,
        ("cardroom_tasks_late", "dealer_push"): 1.0,
        ("cardroom_tasks_oldest_overdue_seconds", "dealer_push"): 8.0,
        ("cardroom_tasks_due", "seat_hold"): 1.0,
        ("cardroom_tasks_late", "seat_hold"): 1.0,
        ("cardroom_tasks_oldest_overdue_seconds", "seat_hold"): 6.0,
        ("cardroom_tasks_done_last_hour", "dealer_push"): 2.0,
        ("cardroom_tasks_done_late_last_hour", "dealer_push"): 1.0,
        ("cardroom_tasks_lateness_last_hour_max_seconds", "dealer_push"): 12.0,
        ("cardroom_tasks_last_lateness_seconds", "dealer_push"): 12.0,
    }


def test_failed_tasks_heartbeats_and_the_last_books_check__OPS_2_CAG_1():
    assert always_fails.apply(kwargs={}).failed()
    assert always_fails.apply(kwargs={}).failed()
    heartbeat_stamp(name="beat", now=NOW - 1 * S)
    heartbeat_stamp(name="worker", now=NOW - 4 * S)
    before = datetime.now(NOW.tzinfo)
    call_command("check_books", stdout=open("/dev/null", "w"))  # noqa: SIM115
    found = samples(exposition(now=NOW))
    assert found[("cardroom_celery_task_failures_total", ("task", "tests.ops.always_fails"))] == 2.0
    assert found[("cardroom_heartbeat_age_seconds", ("process", "beat"))] == 1.0
    assert found[("cardroom_heartbeat_age_seconds", ("process", "worker"))] == 4.0
    assert found[("cardroom_books_check_last_ok",)] == 1.0
    assert found[("cardroom_books_check_last_differences",)] == 0.0
    assert found[("cardroom_books_check_last_checks",)] == len(books_check())
    # The check ran on the real clock, between `before` and now (NOW is the metrics' own clock).
    ran_at = found[("cardroom_books_check_last_run_timestamp_seconds",)]
    assert before.timestamp() <= ran_at <= datetime.now(NOW.tzinfo).timestamp()
    assert found[("cardroom_database_up",)] == 1.0


def test_nothing_yet_reads_as_zero_and_never__OPS_2():
    found = samples(exposition(now=NOW))
    assert found[("cardroom_books_check_last_run_timestamp_seconds",)] == 0.0
    assert found[("cardroom_books_check_last_ok",)] == 0.0
    absent = ("cardroom_heartbeat_age_seconds", "cardroom_celery_task_failures_total")
    assert not [key for key in found if key[0] in absent]


def test_request_latency_is_kept_by_route__OPS_2(client):
    def count(route: str) -> float:
        key = ("cardroom_http_request_duration_seconds_count", ("method", "GET"), ("route", route))
        return samples(exposition(now=NOW)).get(key, 0.0)

    room, unmatched = count("/room/"), count("(unmatched)")
    assert client.get("/room/").status_code == 200
    assert client.get("/room/").status_code == 200
    assert client.get("/no-such-page/12345/").status_code == 404
    assert (count("/room/"), count("(unmatched)")) == (room + 2, unmatched + 1)


def test_a_scrape_costs_nine_statements__OPS_2(django_assert_num_queries, floor):
    exposition(now=NOW)  # the venue's few-second cache is warm, as it is between scrapes
    with django_assert_num_queries(9):
        exposition(now=NOW)
    for seconds in (620, 700, 900):
        started(floor, seconds)
    with django_assert_num_queries(9):
        exposition(now=NOW)
