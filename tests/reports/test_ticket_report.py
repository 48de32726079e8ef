"""Tournament tickets in the reports (SER-1): issued, used, refunded, expired and outstanding per
target tournament, on the daily and range pages and in their CSV."""

import csv
import io
import random
from datetime import UTC, datetime, timedelta

import pytest

from cashier.services import shift_open
from reports.selectors import daily_report
from reports.selectors.books import books_problems
from tests.factories import PlayerFactory
from tests.tournaments.factories import TournamentFactory
from tournaments.services.registration import entry_register
from tournaments.services.tickets import ticket_grant, ticket_refund, tickets_expire_due

pytestmark = pytest.mark.django_db
NOON = datetime(2026, 11, 10, 12, 0, tzinfo=UTC)  # gaming day 2026-11-10


@pytest.fixture
def tickets_day(manager, cashier):
    target = TournamentFactory(name="Main Event", prize_cents=27_000, fee_cents=3_000, start_at=NOON)
    shift = shift_open(actor=cashier, opening_float_cents=0, now=NOON)
    used, refunded, _kept, _expiring = (
        ticket_grant(
            actor=manager, tournament=target, player=PlayerFactory(), reason="Promo", now=NOON, **extra
        )
        for extra in ({}, {}, {}, {"expires_at": NOON + timedelta(hours=1)})
    )
    entry_register(
        actor=cashier,
        tournament=target,
        player=used.player,
        shift=shift,
        ticket_id=used.pk,
        idempotency_key="report-ticket-use",
        now=NOON + timedelta(minutes=5),
        rng=random.Random(1),
    )
    ticket_refund(actor=manager, ticket=refunded, reason="Cannot come", now=NOON + timedelta(minutes=6))
    tickets_expire_due(now=NOON + timedelta(hours=2))
    return target


def test_daily_report_counts_every_ticket_state_SER_1(tickets_day) -> None:
    report = daily_report(day=NOON.date(), now=NOON + timedelta(hours=3))
    (line,) = report.tickets.lines
    assert (line.tournament, line.issued, line.issued_cents) == ("Main Event", 4, 120_000)
    assert (line.used, line.used_cents, line.refunded, line.refunded_cents) == (1, 30_000, 1, 30_000)
    assert (line.expired, line.expired_cents, line.outstanding, line.outstanding_cents) == (
        1,
        30_000,
        1,
        30_000,
    )
    assert report.tickets.total == line.__class__(
        **{**line.__dict__, "tournament": "", "tournament_id": None}
    )
    assert books_problems() == []


def test_next_day_shows_only_what_is_still_outstanding_SER_1(tickets_day) -> None:
    later = NOON + timedelta(days=1)
    (line,) = daily_report(day=later.date(), now=later).tickets.lines
    assert (line.issued, line.used, line.refunded, line.expired, line.outstanding) == (0, 0, 0, 0, 1)


def test_tickets_csv_and_page_section_SER_1(client, manager, tickets_day) -> None:
    client.force_login(manager)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("django.utils.timezone.now", lambda: NOON + timedelta(hours=3))
        page = client.get("/reports/", {"day": "2026-11-10"}).content.decode()
        answer = client.get("/reports/", {"day": "2026-11-10", "export": "tickets"})
    assert "Tournament tickets" in page and 'id="report-tickets"' in page
    rows = list(csv.reader(io.StringIO(answer.content.decode("utf-8").removeprefix("\ufeff"))))
    assert {row[0] for row in rows} == {"venue", "Card Room"}
    assert [row[1:] for row in rows] == [
        [
            "tournament",
            "issued",
            "issued_value",
            "used",
            "used_value",
            "refunded",
            "refunded_value",
            "expired",
            "expired_value",
            "outstanding",
            "outstanding_value",
        ],
        ["Main Event", "4", "1200.00", "1", "300.00", "1", "300.00", "1", "300.00", "1", "300.00"],
        ["total", "4", "1200.00", "1", "300.00", "1", "300.00", "1", "300.00", "1", "300.00"],
    ]
