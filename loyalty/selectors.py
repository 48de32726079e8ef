"""What the desk, the player's page and the API read of a player's points (LOY-1)."""

import calendar
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.core import signing
from django.db.models import Max, Q, Sum
from django.utils.translation import gettext as _

from cardroom.venues import venue_current
from loyalty.models import EarnRate, Lot, LoyaltySettings, Member, Movement, Tier
from tournaments.models import Tournament, TournamentStatus

RULE = "LOY-1"
# The private page's link: the player's id and his link version, signed with its own salt (a
# link is never guessed from another signed value of the room). It does not expire; a new
# version (loyalty.services.member_link_revoke) makes every older link invalid.
LINK_SALT = "loyalty.me"


def settings_get() -> LoyaltySettings:
    """The active venue's loyalty settings; the defaults, unsaved, until a manager saves them."""
    return LoyaltySettings.objects.first() or LoyaltySettings(venue=venue_current())


def rate_for_game(*, game_id: int, terms: LoyaltySettings) -> int:
    """Points per hour in a game: its own rate, else the venue's default."""
    rate = EarnRate.objects.filter(game_id=game_id).values_list("points_per_hour", flat=True).first()
    return terms.default_points_per_hour if rate is None else rate


def points_worth(*, points: int, terms: LoyaltySettings) -> int:
    """Cents that many points are worth at today's value, rounded down to the cent (once per lot:
    the lot keeps that worth, so the ledger and the lots agree to the cent)."""
    return points * terms.value_cents // terms.value_points


def points_for_value(*, value_cents: int, terms: LoyaltySettings) -> int | None:
    """The points a comp worth `value_cents` costs, exactly; None when no whole number of points
    is worth exactly that much at today's value."""
    needed, rest = divmod(value_cents * terms.value_points, terms.value_cents)
    return None if rest else needed


def months_before(moment: datetime, months: int) -> datetime:
    """The same day and time `months` calendar months earlier (the month's last day when that
    month is shorter)."""
    index = moment.year * 12 + moment.month - 1 - months
    year, month = divmod(index, 12)
    day = min(moment.day, calendar.monthrange(year, month + 1)[1])
    return moment.replace(year=year, month=month + 1, day=day)


def balance_of(*, player_id: int) -> tuple[int, int]:
    """(points, worth in cents) the player holds in the active venue."""
    sums = Lot.objects.filter(player_id=player_id, points_left__gt=0).aggregate(
        held=Sum("points_left"), worth=Sum("value_left_cents")
    )
    return sums["held"] or 0, sums["worth"] or 0


@dataclass
class Standing:
    """A player's points as the card, the page and the API show them."""

    points: int
    value_cents: int
    period_points: int
    tier: Tier | None
    next_tier: Tier | None
    last_play: datetime | None
    expires_at: datetime | None
    terms: LoyaltySettings
    tiers: list[Tier] = field(default_factory=list)

    @property
    def to_next_tier(self) -> int | None:
        return None if self.next_tier is None else self.next_tier.min_points - self.period_points

    @property
    def progress_percent(self) -> int:
        if self.next_tier is None:
            return 100
        floor = self.tier.min_points if self.tier else 0
        span = self.next_tier.min_points - floor
        return max(0, min(100, (self.period_points - floor) * 100 // span)) if span else 100


def standing_get(*, player_id: int, now: datetime) -> Standing:
    """Balance, tier over the rolling period and the next expiry, in four queries."""
    terms = settings_get()
    lots = Lot.objects.filter(player_id=player_id)
    since = now - timedelta(days=terms.tier_period_days)
    sums = lots.aggregate(
        held=Sum("points_left"),
        worth=Sum("value_left_cents"),
        # Points earned in the period count for the tier, spent or not; taken back ones do not.
        period=Sum("points", filter=Q(earned_at__gt=since, earned_at__lte=now, taken_back_at__isnull=True)),
        last=Max("earned_at"),
    )
    period = sums["period"] or 0
    tiers = list(Tier.objects.order_by("min_points", "pk"))
    reached = [tier for tier in tiers if tier.min_points <= period]
    above = [tier for tier in tiers if tier.min_points > period]
    points = sums["held"] or 0
    last = sums["last"]
    expires = None
    if points and last is not None:
        expires = months_before(last, -terms.expiry_months) if terms.expiry_months else None
    return Standing(
        points=points,
        value_cents=sums["worth"] or 0,
        period_points=period,
        tier=reached[-1] if reached else None,
        next_tier=above[0] if above else None,
        last_play=last,
        expires_at=expires,
        terms=terms,
        tiers=tiers,
    )


def movements_list(*, player_id: int):
    """The player's history, newest first (a total order, for paging)."""
    return Movement.objects.filter(player_id=player_id).order_by("-at", "-pk")


def link_version_of(*, player_id: int) -> int:
    version = Member.objects.filter(player_id=player_id).values_list("link_version", flat=True).first()
    return version or 1


def player_link_token(*, player_id: int) -> str:
    return signing.dumps({"p": player_id, "v": link_version_of(player_id=player_id)}, salt=LINK_SALT)


def player_id_from_token(token: str) -> int | None:
    """The player a private link belongs to; None for a forged or revoked link."""
    try:
        data = signing.loads(token, salt=LINK_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("p"), int):
        return None
    if data.get("v") != link_version_of(player_id=data["p"]):
        return None
    return data["p"]


def ticket_tournaments() -> list:
    """Tournaments a ticket can be bought for now: not started, by their start."""
    return list(
        Tournament.objects.filter(
            status__in=[TournamentStatus.SCHEDULED, TournamentStatus.REGISTERING]
        ).order_by("start_at", "pk")[:20]
    )


def redeem_refusal(*, player, standing: Standing) -> dict | None:
    """Why the desk cannot redeem for this player now (the button is shown disabled), or None."""
    if player.is_erased:
        return {
            "message": _("This player's data was erased: his points can no longer be used."),
            "rule": RULE,
        }
    if standing.points == 0:
        return {"message": _("No points to redeem."), "rule": RULE}
    return None


def loyalty_card_get(*, player, now: datetime) -> dict:
    """What the player card shows of his points: standing, the last 20 lines of history, what
    can be redeemed and the private link's token."""
    standing = standing_get(player_id=player.pk, now=now)
    return {
        "standing": standing,
        "history": list(movements_list(player_id=player.pk)[:20]),
        "refusal": redeem_refusal(player=player, standing=standing),
        # Each ticket with its price in points; one he cannot buy is shown, but not offered.
        "tickets": [
            (tournament, needed, needed is not None and needed <= standing.points)
            for tournament in ticket_tournaments()
            for needed in [points_for_value(value_cents=tournament.buy_in_cents, terms=standing.terms)]
        ],
        "token": None if player.is_erased else player_link_token(player_id=player.pk),
    }
