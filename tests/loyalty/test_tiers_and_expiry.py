"""Tiers over the rolling period and points that expire after months without play (LOY-1)."""

from datetime import UTC, datetime, timedelta

from cardroom.models import AuditRecord
from cashgame.models import PlayerSession
from cashier.models import AccountKind
from cashier.selectors import account_amount
from loyalty.models import Movement
from loyalty.selectors import months_before, standing_get
from loyalty.services import loyalty_settings_update, points_award_due, tier_save
from reports.selectors.books import books_problems
from tests.loyalty.conftest import NOW, lots_of, session_played


def test_tier_follows_the_points_of_the_rolling_period_LOY_1(manager, terms, table, player):
    tier_save(actor=manager, name="Silver", min_points=20, now=NOW)
    tier_save(actor=manager, name="Gold", min_points=40, now=NOW)
    # 120 minutes 100 days ago (outside the 90 days), 150 minutes 10 days ago (inside).
    session_played(player, table, NOW - timedelta(days=100), 120)
    session_played(player, table, NOW - timedelta(days=10), 150)
    points_award_due(now=NOW)
    standing = standing_get(player_id=player.pk, now=NOW)
    assert (standing.points, standing.value_cents, standing.period_points) == (45, 45, 25)
    assert standing.tier.name == "Silver" and standing.next_tier.name == "Gold"
    assert standing.to_next_tier == 15
    # 5 of the 20 points from Silver (20) to Gold (40): 25 %.
    assert standing.progress_percent == 25
    loyalty_settings_update(actor=manager, tier_period_days=120, now=NOW)
    assert standing_get(player_id=player.pk, now=NOW).tier.name == "Gold"


def test_points_expire_after_12_months_without_play_LOY_1(terms, table, player):
    session = session_played(player, table, datetime(2025, 11, 20, 9, 0, tzinfo=UTC), 180)
    points_award_due(now=session.ended_at + timedelta(minutes=1))
    assert lots_of(player) == [(30, 30, 30, 30)]
    standing = standing_get(player_id=player.pk, now=NOW)
    assert standing.expires_at == datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
    # A minute before the twelve months are over: nothing expires.
    assert points_award_due(now=standing.expires_at - timedelta(minutes=1)) == 0
    assert points_award_due(now=standing.expires_at) == 1
    assert lots_of(player) == [(30, 0, 30, 0)]
    expiry = Movement.objects.get(kind="expiry")
    assert (expiry.points, expiry.value_cents, expiry.balance_after) == (-30, -30, 0)
    assert account_amount(kind=AccountKind.LOYALTY_LIABILITY) == 0
    assert account_amount(kind=AccountKind.LOYALTY_EXPENSE) == 0
    record = AuditRecord.objects.get(action="loyalty.expire")
    assert (record.before["points"], record.after["points"], record.actor_name) == (30, 0, record.actor_name)
    assert points_award_due(now=standing.expires_at + timedelta(days=1)) == 0
    assert books_problems() == []


def test_points_do_not_expire_when_he_played_11_months_ago_LOY_1(terms, table, player):
    session_played(player, table, datetime(2025, 10, 1, 18, 0, tzinfo=UTC), 60)
    session_played(player, table, months_before(NOW, 11), 60)
    points_award_due(now=NOW)
    assert lots_of(player) == [(10, 10, 10, 10), (10, 10, 10, 10)]
    assert Movement.objects.filter(kind="expiry").count() == 0
    assert standing_get(player_id=player.pk, now=NOW).points == 20


def test_a_seated_player_never_expires_LOY_1(terms, table, player):
    session_played(player, table, datetime(2025, 1, 10, 18, 0, tzinfo=UTC), 60)
    points_award_due(now=datetime(2025, 1, 11, tzinfo=UTC))
    PlayerSession.objects.create(table=table, seat=5, player=player, state="playing", started_at=NOW)
    assert points_award_due(now=NOW) == 0
    assert lots_of(player) == [(10, 10, 10, 10)]


def test_expiry_months_is_a_venue_setting_LOY_1(manager, terms, table, player):
    loyalty_settings_update(actor=manager, expiry_months=6, now=NOW)
    session_played(player, table, months_before(NOW, 7), 60)
    assert points_award_due(now=NOW) == 2  # awarded, then expired in the same sweep
    assert lots_of(player) == [(10, 0, 10, 0)]
