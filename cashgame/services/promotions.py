"""High-hand promotions (LOY-2): a manager defines them; their periods are laid out on each
gaming day in the venue's time; each qualifying pot pays the promotion's drop into its fund in
the hand's own posting (`hand_end` calls `promotion_drops_for_hand`).

The claims, the settlement of a period and the cage's payment are in `cashgame.services.highhand`.
"""

from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.money import MAX_CENTS
from cardroom.roles import MANAGER_ROLES, require_role
from cardroom.services import audit_record, snapshot
from cashgame.models import CashTable, Game, Hand, MinimumHand, Promotion, PromotionDrop, PromotionPeriod
from cashgame.selectors.promotions import period_bounds_at
from cashier.models import AccountKind
from cashier.services import account_for

RULE = "LOY-2"
PROMOTION_FIELDS = [
    "name",
    "starts_at",
    "ends_at",
    "period_minutes",
    "prize_cents",
    "both_hole_cards",
    "min_hand",
    "min_pot_cents",
    "min_players",
    "drop_cents",
    "active",
]
# How far back the sweep lays out periods a promotion has not recorded yet (days).
CATCH_UP_DAYS = 3


def _refuse(code: str, message: str) -> DomainError:
    return DomainError(code, message, rule=RULE)


def _validate(values: dict, games: list[Game]) -> None:
    if not str(values.get("name") or "").strip():
        raise _refuse("invalid_name", _("The promotion needs a name."))
    if not games:
        raise _refuse("no_games", _("Choose at least one game the promotion covers."))
    for name in ("prize_cents", "min_pot_cents", "drop_cents"):
        value = values.get(name)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_CENTS:
            raise _refuse("invalid_amount", _("%s must be an amount of at least 0.00 EUR.") % name)
    if values["prize_cents"] <= 0:
        raise _refuse("invalid_prize", _("The prize per period must be more than 0.00 EUR."))
    if not 5 <= int(values.get("period_minutes") or 0) <= 1440:
        raise _refuse("invalid_period", _("A period lasts 5 minutes to 24 hours."))
    if not 2 <= int(values.get("min_players") or 0) <= 10:
        raise _refuse("invalid_min_players", _("At least 2 to 10 players dealt in."))
    if values.get("min_hand") not in MinimumHand.values:
        raise _refuse("invalid_min_hand", _("Unknown minimum hand."))
    if values.get("starts_at") is None or values.get("ends_at") is None:
        raise _refuse("invalid_hours", _("Give the hours the promotion runs."))


@transaction.atomic
def promotion_create(*, actor, games: list[Game], now: datetime | None = None, **values) -> Promotion:
    """A manager defines a promotion; audited with all its settings."""
    require_role(actor, *MANAGER_ROLES)
    now = now or timezone.now()
    _validate(values, games)
    try:
        with transaction.atomic():
            promotion = Promotion.objects.create(
                **{name: values[name] for name in PROMOTION_FIELDS}, created_at=now, updated_at=now
            )
    except IntegrityError:
        raise _refuse("name_taken", _("A promotion with this name exists already.")) from None
    promotion.games.set(games)
    audit_record(
        actor=actor,
        action="cashgame.promotion_create",
        obj=promotion,
        after={**snapshot(promotion, PROMOTION_FIELDS), "games": sorted(g.pk for g in games)},
        now=now,
    )
    return promotion


@transaction.atomic
def promotion_update(
    *, actor, promotion: Promotion, games: list[Game], now: datetime | None = None, **values
) -> Promotion:
    """A manager changes a promotion; periods already laid out keep their prize."""
    require_role(actor, *MANAGER_ROLES)
    now = now or timezone.now()
    _validate(values, games)
    promotion = Promotion.objects.select_for_update().get(pk=promotion.pk)
    before = {
        **snapshot(promotion, PROMOTION_FIELDS),
        "games": sorted(promotion.games.values_list("pk", flat=True)),
    }
    for name in PROMOTION_FIELDS:
        setattr(promotion, name, values[name])
    promotion.updated_at = now
    try:
        with transaction.atomic():
            promotion.save()
    except IntegrityError:
        raise _refuse("name_taken", _("A promotion with this name exists already.")) from None
    promotion.games.set(games)
    audit_record(
        actor=actor,
        action="cashgame.promotion_update",
        obj=promotion,
        before=before,
        after={**snapshot(promotion, PROMOTION_FIELDS), "games": sorted(g.pk for g in games)},
        now=now,
    )
    return promotion


def period_get_or_create(promotion: Promotion, bounds: tuple[datetime, datetime]) -> PromotionPeriod:
    """The period's row, laid out on first use with the promotion's prize (race-safe)."""
    period, _created = PromotionPeriod.objects.get_or_create(
        promotion=promotion,
        starts_at=bounds[0],
        defaults={"ends_at": bounds[1], "prize_cents": promotion.prize_cents},
    )
    return period


def period_carry_into(period: PromotionPeriod, amount_cents: int) -> None:
    """Add a prize carried over to this period's (F(): another writer may hold it too)."""
    PromotionPeriod.objects.filter(pk=period.pk).update(carried_in_cents=F("carried_in_cents") + amount_cents)


def promotion_drops_for_hand(
    *, table: CashTable, hand: Hand, pot_cents: int, left_cents: int, now: datetime
) -> list[tuple[Promotion, int]]:
    """The drops this pot owes (LOY-2): each running promotion that covers the table's game,
    during one of its periods, when the hand saw the flop with enough players dealt in and the
    pot reaches the promotion's minimum; never more than what the rake and jackpot drop left."""
    if not hand.saw_flop or left_cents <= 0:
        return []
    drops = []
    promotions = Promotion.objects.filter(active=True, games=table.game_id, drop_cents__gt=0).order_by("pk")
    for promotion in promotions:
        if pot_cents < promotion.min_pot_cents or hand.players_dealt < promotion.min_players:
            continue
        if period_bounds_at(promotion, now) is None:
            continue
        amount = min(promotion.drop_cents, left_cents)
        if amount > 0:
            drops.append((promotion, amount))
            left_cents -= amount
    return drops


def promotion_drop_lines(drops: list[tuple[Promotion, int]]) -> list:
    """The ledger lines crediting each promotion's fund (the caller debits the chips in play)."""
    return [
        (account_for(kind=AccountKind.PROMOTION_FUND, owner=promotion.reference), -amount)
        for promotion, amount in drops
    ]


def promotion_drops_record(*, hand: Hand, drops: list[tuple[Promotion, int]]) -> None:
    """The drops kept with the hand (in the transaction of its end and its posting)."""
    PromotionDrop.objects.bulk_create(
        [PromotionDrop(promotion=promotion, hand=hand, amount_cents=amount) for promotion, amount in drops]
    )
