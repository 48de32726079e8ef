"""Reads of the high-hand promotions (LOY-2): when their periods run (laid out each gaming day in
the venue's time) and what the screens show of each running promotion now: the current high
hand with its cards, the player's public name, the table and seat, the prize including what
earlier periods carried over, and the time left in the period."""

from datetime import datetime, timedelta

from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from cardroom.selectors import venue_zone
from cashgame.models import HighHandAward, Promotion, PromotionPeriod
from players.selectors import public_names
from poker.highhand import PeriodWindow

# The evaluator's names of the hands (poker.hands.HandCategory.label), for the catalogue: the
# screens show them in the screen's language.
HAND_LABELS = (
    gettext_noop("High card"),
    gettext_noop("One pair"),
    gettext_noop("Two pair"),
    gettext_noop("Three of a kind"),
    gettext_noop("Straight"),
    gettext_noop("Flush"),
    gettext_noop("Full house"),
    gettext_noop("Four of a kind"),
    gettext_noop("Straight flush"),
    gettext_noop("Royal flush"),
)
SUITS = {"s": ("♠", False), "h": ("♥", True), "d": ("♦", True), "c": ("♣", False)}


def _window(promotion: Promotion) -> PeriodWindow:
    return PeriodWindow(start=promotion.starts_at, end=promotion.ends_at, minutes=promotion.period_minutes)


def period_bounds_at(promotion: Promotion, moment: datetime) -> tuple[datetime, datetime] | None:
    """The [start, end) of the promotion's period that holds `moment` (aware), or None when no
    period runs then. Laid out in the venue's local time (a period 20:00-21:00 is 20:00 there)."""
    zone = venue_zone()
    local = moment.astimezone(zone).replace(tzinfo=None)
    bounds = _window(promotion).period_at(local)
    if bounds is None:
        return None
    return bounds[0].replace(tzinfo=zone), bounds[1].replace(tzinfo=zone)


def periods_ended_between(
    promotion: Promotion, after: datetime, until: datetime
) -> list[tuple[datetime, datetime]]:
    """The periods (aware) whose end falls in (after, until], oldest first."""
    zone = venue_zone()
    first_day = after.astimezone(zone).date() - timedelta(days=1)
    last_day = until.astimezone(zone).date()
    result = []
    day = first_day
    while day <= last_day:
        for begin, end in _window(promotion).periods(day):
            begin, end = begin.replace(tzinfo=zone), end.replace(tzinfo=zone)
            if after < end <= until:
                result.append((begin, end))
        day += timedelta(days=1)
    return result


def next_period_bounds(promotion: Promotion, after: datetime) -> tuple[datetime, datetime]:
    """The first period (aware) that starts at or after `after`."""
    zone = venue_zone()
    day = after.astimezone(zone).date() - timedelta(days=1)
    for _offset in range(3):
        for begin, end in _window(promotion).periods(day):
            begin = begin.replace(tzinfo=zone)
            if begin >= after:
                return begin, end.replace(tzinfo=zone)
        day += timedelta(days=1)
    raise LookupError("a promotion runs every day, so a next period is always found")  # pragma: no cover


def card_faces(cards: str) -> list[dict]:
    """Cards as the screens draw them: "QhTs" -> rank, suit symbol and colour of each."""
    faces = []
    for index in range(0, len(cards), 2):
        rank, suit = cards[index], cards[index + 1]
        symbol, red = SUITS[suit]
        faces.append({"rank": "10" if rank == "T" else rank, "suit": symbol, "red": red, "code": rank + suit})
    return faces


def promotion_list() -> list[Promotion]:
    """The venue's promotions for the manager's list, with their games."""
    return list(Promotion.objects.prefetch_related("games").order_by("name"))


def high_hands_now(*, now: datetime | None = None) -> list[dict]:
    """Each running promotion with a period on now: its period's bounds and seconds left, the
    prize (with carry-over), and its best hands (several when tied), in claim order."""
    now = now or timezone.now()
    shown = []
    for promotion in Promotion.objects.filter(active=True).order_by("name"):
        bounds = period_bounds_at(promotion, now)
        if bounds is None:
            continue
        period = PromotionPeriod.objects.filter(promotion=promotion, starts_at=bounds[0]).first()
        carried = period.carried_in_cents if period else 0
        prize = period.prize_cents if period else promotion.prize_cents
        best = []
        if period is not None:
            claims = list(
                period.claims.select_related("player", "table").order_by("-strength", "created_at", "pk")
            )
            best = [claim for claim in claims if claim.strength == claims[0].strength] if claims else []
        names = public_names(claim.player for claim in best)
        left = max(0, int((bounds[1] - now).total_seconds()))
        shown.append(
            {
                "promotion": promotion,
                "starts_at": bounds[0],
                "ends_at": bounds[1],
                "seconds_left": left,
                "left_text": _countdown_text(left),
                "prize_cents": prize + carried,
                "carried_cents": carried,
                "best": [
                    {
                        "claim": claim,
                        "name": names.get(claim.player_id, ""),
                        "table": claim.table.number,
                        "seat": claim.seat,
                        "label": _(claim.hand_label),
                        "hole": card_faces(claim.hole_cards),
                        "board": card_faces(claim.board),
                    }
                    for claim in best
                ],
            }
        )
    return shown


def high_hand_awards_unpaid(*, promotion: Promotion) -> int:
    """The promotion's awards given and not yet paid at the cage (cents)."""
    return (
        HighHandAward.objects.filter(period__promotion=promotion, transaction__isnull=True).aggregate(
            total=Sum("amount_cents")
        )["total"]
        or 0
    )


def promotion_periods_recent(*, promotion: Promotion, count: int = 12) -> list[PromotionPeriod]:
    """The promotion's latest periods with their claims and awards, newest first."""
    return list(
        promotion.periods.prefetch_related("claims__player", "awards__player").order_by("-starts_at")[:count]
    )


def _countdown_text(seconds: int) -> str:
    """As static/js/countdown.js counts on: 2:59, or 2:10:04 once there are hours left."""
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"
