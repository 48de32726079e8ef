"""Points earned (LOY-1): from the sessions' real times, per tournament entry, once per source."""

from datetime import UTC, date, datetime, timedelta

from django.utils import timezone

from cardroom.models import AuditRecord
from cashgame.models import PlayerSession
from cashier.models import AccountKind, Posting
from cashier.selectors import account_amount
from loyalty.models import Lot, Movement
from loyalty.selectors import standing_get
from loyalty.services import earn_rate_set, points_award_due
from reports.selectors.books import books_problems
from tests.cashgame.conftest import make_game, make_table
from tests.loyalty.conftest import NOW, entry_played, lots_of, session_played
from tests.tournaments.factories import TournamentFactory
from tournaments.models import EntryStatus


def test_session_across_the_gaming_day_boundary_counts_whole_by_the_minute_LOY_1(
    manager, terms, game, table, player
):
    earn_rate_set(actor=manager, game=game, points_per_hour=25, now=NOW)
    # 04:10 to 07:25:59 in Bratislava (UTC+1): the gaming day turns at 06:00 in the middle.
    start = datetime(2026, 11, 19, 3, 10, tzinfo=UTC)
    session = session_played(player, table, start, 195 + 59 / 60)
    assert points_award_due(now=NOW) == 1
    lot = Lot.objects.get(session=session)
    # 195 whole minutes (the 59 seconds are dropped) at 25 an hour: 81.25, rounded down to 81.
    assert (lot.minutes, lot.points, lot.value_cents) == (195, 81, 81)
    # One lot, in the gaming day the session started in (the 18th's day runs to 06:00 on the 19th).
    assert lot.gaming_day == date(2026, 11, 18)
    assert lot.earned_at == session.ended_at
    assert account_amount(kind=AccountKind.LOYALTY_LIABILITY) == 81
    assert account_amount(kind=AccountKind.LOYALTY_EXPENSE) == 81
    movement = Movement.objects.get()
    assert (movement.kind, movement.points, movement.balance_after) == ("award", 81, 81)
    record = AuditRecord.objects.get(action="loyalty.award")
    assert record.before == {"points": 0}
    assert record.after["points"] == 81 and record.after["session"] == session.pk
    assert books_problems() == []


def test_game_without_a_rate_earns_the_venue_default_LOY_1(terms, table, player):
    session_played(player, table, NOW - timedelta(hours=3), 59)
    points_award_due(now=NOW)
    # 59 minutes at the default 10 an hour: 9.83, rounded down.
    assert lots_of(player) == [(9, 9, 9, 9)]


def test_entry_earns_per_entry_scaled_by_the_buy_in_LOY_1(terms, player, tournament):
    entry = entry_played(player, tournament, busted_at=NOW - timedelta(hours=1))
    big = TournamentFactory(prize_cents=45_000, fee_cents=5_000)
    entry_played(player, big, busted_at=NOW - timedelta(minutes=30))
    still_playing = TournamentFactory()
    entry_played(player, still_playing, busted_at=NOW).__class__.objects.filter(
        tournament=still_playing
    ).update(busted_at=None, status=EntryStatus.ACTIVE)
    assert points_award_due(now=NOW) == 2
    # 5 per entry + 2 per full 100 EUR: 100 EUR -> 7, 500 EUR -> 15; the running entry waits.
    assert lots_of(player) == [(7, 7, 7, 7), (15, 15, 15, 15)]
    assert Lot.objects.filter(entry=entry).count() == 1
    assert standing_get(player_id=player.pk, now=NOW).points == 22


def test_the_sweep_twice_awards_once_LOY_1(terms, table, player):
    session_played(player, table, NOW - timedelta(hours=2), 90)
    assert points_award_due(now=NOW) == 1
    postings = Posting.objects.count()
    assert points_award_due(now=NOW + timedelta(minutes=1)) == 0
    assert Posting.objects.count() == postings
    assert lots_of(player) == [(15, 15, 15, 15)]
    assert Movement.objects.count() == 1


def test_open_session_earns_nothing_until_it_ends_LOY_1(terms, table, player):
    PlayerSession.objects.create(
        table=table, seat=1, player=player, state="playing", started_at=NOW - timedelta(hours=5)
    )
    assert points_award_due(now=NOW) == 0
    assert Lot.objects.count() == 0


def test_entry_given_back_has_its_points_taken_back_LOY_1(terms, player, tournament):
    entry = entry_played(player, tournament, busted_at=NOW - timedelta(hours=1))
    points_award_due(now=NOW)
    entry.status = EntryStatus.REFUNDED
    entry.save(update_fields=["status"])
    assert points_award_due(now=NOW + timedelta(minutes=1)) == 1
    assert points_award_due(now=NOW + timedelta(minutes=2)) == 0
    assert lots_of(player) == [(7, 0, 7, 0)]
    taken = Movement.objects.get(kind="take_back")
    assert (taken.points, taken.value_cents, taken.balance_after) == (-7, -7, 0)
    assert account_amount(kind=AccountKind.LOYALTY_LIABILITY) == 0
    assert account_amount(kind=AccountKind.LOYALTY_EXPENSE) == 0
    # The entry was written without its buy-in: only the loyalty checks apply to it.
    assert [problem.name for problem in books_problems() if problem.name.startswith("Entries")] == [
        "Entries without the buy-in their receipt names"
    ]
    assert len(books_problems()) == 1


def test_rate_per_game_and_stakes_LOY_1(manager, terms, player):
    big = make_game(name="NLHE 5/10", small=500, big=1000, min_buy_in=50_000, max_buy_in=200_000)
    earn_rate_set(actor=manager, game=big, points_per_hour=60, now=NOW)
    session_played(player, make_table(big, 7), NOW - timedelta(hours=2), 61)
    points_award_due(now=NOW)
    assert lots_of(player) == [(61, 61, 61, 61)]


def test_beat_sends_the_sweep_every_minute_and_the_task_awards_LOY_1(terms, table, player):
    from cardroom.schedule import BEAT_SCHEDULE
    from loyalty.tasks import points_award

    entry = BEAT_SCHEDULE["loyalty-points-award"]
    assert (entry["task"], entry["schedule"]) == ("loyalty.points_award", 60.0)
    # The task reads the real clock: a session that ended an hour and a half ago.
    session_played(player, table, timezone.now() - timedelta(hours=2), 30)
    assert points_award.apply().get() == 1  # once for the one venue
    assert points_award.apply().get() == 0
    assert lots_of(player) == [(5, 5, 5, 5)]
