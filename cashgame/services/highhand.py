"""High-hand claims, the settlement of a period and the payment of its awards (LOY-2).

The floor (the floor view or a dealer tablet) claims a high hand for a seat of a hand ended at a
table whose game the promotion covers, during an open period: the evaluator (poker.highhand,
over poker.hands) verifies the cards and ranks the hand against the period's best. At the
period's end the sweep settles it once: the best hands share the prize (the promotion's prize
plus what earlier periods carried), owed to the players until the cage pays them from the
promotion's fund; with no qualifying hand the whole prize carries into the next period. When the
fund holds less than the prize, the house adds the difference from its promotion expense.

Lock order: the promotion row (settlement and claims of one promotion never interleave), then
the period, then the cashier's rows.
"""

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.idempotency import run_once
from cardroom.money import format_eur
from cardroom.roles import CASHIER_ROLES, FLOOR_ROLES, require_role, require_role_or_device
from cardroom.services import audit_record
from cashgame.models import (
    CashTable,
    Hand,
    HandStatus,
    HighHandAward,
    HighHandClaim,
    PeriodStatus,
    Promotion,
    PromotionPeriod,
)
from cashgame.selectors.promotions import (
    next_period_bounds,
    period_bounds_at,
    periods_ended_between,
)
from cashgame.services.promotions import CATCH_UP_DAYS, RULE, period_carry_into, period_get_or_create
from cashier.models import AccountKind, Shift
from cashier.selectors import account_amount
from cashier.services import account_for, high_hand_payout, ledger_post
from poker.hands import HandCategory, HandValue
from poker.highhand import (
    HighHandError,
    HighHandRules,
    claim_cards,
    high_hand_value,
    prize_split,
    rank_against_best,
)


def _refuse(code: str, message: str, status_code: int = 400) -> DomainError:
    return DomainError(code, message, rule=RULE, status_code=status_code)


def _promotion_for_update(promotion_id: int) -> Promotion:
    return Promotion.objects.select_for_update(no_key=True).get(pk=promotion_id)


def promotion_fund_available(promotion: Promotion) -> int:
    """The promotion's fund (cents) less the awards already given and not yet paid."""
    fund = account_amount(kind=AccountKind.PROMOTION_FUND, owner=promotion.reference)
    unpaid = HighHandAward.objects.filter(period__promotion=promotion, transaction__isnull=True).aggregate(
        total=Sum("amount_cents")
    )["total"]
    return fund - (unpaid or 0)


def _best(period: PromotionPeriod) -> HighHandClaim | None:
    return period.claims.order_by("-strength", "created_at", "pk").first()


@transaction.atomic
def highhand_claim_create(
    *,
    actor,
    promotion: Promotion,
    table: CashTable,
    seat: int,
    hole_cards: str,
    board: str,
    hand: Hand | None = None,
    now: datetime | None = None,
) -> tuple[HighHandClaim, str]:
    """Record a high hand for `seat` of `hand` (default: the table's last ended hand) in the
    promotion's open period; returns the claim and how it ranks ("new_best" or "tie").

    Refused, nothing written: a game the promotion does not cover, no open period now, a hand
    ended outside it or a period settled, a seat not dealt in, a pot or players under the
    minimum, cards that are unknown, repeated or do not qualify, a hand beaten by the best."""
    require_role_or_device(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    promotion = _promotion_for_update(promotion.pk)
    table = CashTable.objects.select_related("game").get(pk=table.pk)
    if not promotion.active or not promotion.games.filter(pk=table.game_id).exists():
        raise _refuse(
            "game_not_covered",
            _("%(game)s at %(table)s is not part of %(promotion)s.")
            % {"game": table.game, "table": table, "promotion": promotion},
        )
    bounds = period_bounds_at(promotion, now)
    if bounds is None:
        raise _refuse("no_open_period", _("%s has no period running now.") % promotion)
    if hand is None:
        hand = Hand.objects.filter(table=table, status=HandStatus.ENDED).order_by("-ended_at", "-pk").first()
        if hand is None:
            raise _refuse("no_hand", _("%s has no ended hand to claim.") % table)
    hand = Hand.objects.get(pk=hand.pk)
    if hand.table_id != table.pk or hand.status != HandStatus.ENDED:
        raise _refuse("hand_not_ended", _("Only a hand played to its end at this table can be claimed."))
    if not bounds[0] <= hand.ended_at < bounds[1]:
        raise _refuse(
            "hand_other_period",
            _("Hand %(hand)s ended outside the current period (%(start)s-%(end)s): it cannot be claimed now.")
            % {"hand": hand.number, "start": _local(bounds[0]), "end": _local(bounds[1])},
        )
    period = PromotionPeriod.objects.select_for_update().get(pk=period_get_or_create(promotion, bounds).pk)
    if period.status != PeriodStatus.OPEN:
        raise _refuse("period_settled", _("This period is already settled."), status_code=409)
    if seat not in hand.dealt_seats:
        raise _refuse(
            "seat_not_dealt_in",
            _("Seat %(seat)s was not dealt in hand %(hand)s.") % {"seat": seat, "hand": hand.number},
        )
    if not hand.saw_flop:
        raise _refuse("no_flop", _("A hand that ended before the flop has no high hand."))
    if (hand.pot_cents or 0) < promotion.min_pot_cents:
        raise _refuse(
            "pot_under_minimum",
            _("The pot of %(pot)s is under the promotion's minimum of %(min)s.")
            % {"pot": format_eur(hand.pot_cents or 0), "min": format_eur(promotion.min_pot_cents)},
        )
    if hand.players_dealt < promotion.min_players:
        raise _refuse(
            "too_few_players",
            _("%(dealt)d players were dealt in; the promotion needs at least %(min)d.")
            % {"dealt": hand.players_dealt, "min": promotion.min_players},
        )
    if HighHandClaim.objects.filter(period=period, hand=hand, seat=seat).exists():
        raise _refuse("claim_exists", _("This seat's hand was claimed already."), status_code=409)
    rules = HighHandRules(
        both_hole_cards=promotion.both_hole_cards, min_category=HandCategory(promotion.min_hand)
    )
    try:
        hole, community = claim_cards(hole_cards, board)
        value = high_hand_value(hole, community, rules)
    except HighHandError as error:
        reason = _claim_reasons().get(error.code, error.message)
        raise _refuse(error.code, _("The hand does not qualify: %s.") % reason) from None
    best = _best(period)
    best_value = None if best is None else HandValue(best.strength, HandCategory.HIGH_CARD, ())
    ranking = rank_against_best(value, best_value)
    if ranking == "beaten":
        raise _refuse(
            "beaten",
            _("%(hand)s does not beat the period's best, %(best)s (%(cards)s).")
            % {"hand": value.label, "best": best.hand_label, "cards": best.best_five},
        )
    claim = HighHandClaim.objects.create(
        period=period,
        hand=hand,
        table=table,
        seat=seat,
        player_id=hand.player_at(seat),
        hole_cards="".join(hole),
        board="".join(community),
        best_five="".join(value.cards),
        hand_label=value.label,
        strength=value.strength,
        created_by=actor,
        created_at=now,
    )
    audit_record(
        actor=actor,
        action="cashgame.high_hand_claim",
        obj=claim,
        before=None if best is None else {"hand_label": best.hand_label, "best_five": best.best_five},
        after={
            "period": period.pk,
            "hand": hand.pk,
            "seat": seat,
            "hand_label": value.label,
            "best_five": claim.best_five,
        },
        now=now,
    )
    return claim, ranking


def _claim_reasons() -> dict[str, str]:
    """Why poker.highhand refused the cards, in the page's language (by its codes)."""
    return {
        "hole_cards_do_not_play": _("both hole cards must play in the best five cards, and they do not"),
        "below_minimum_hand": _("the hand is below the promotion's minimum hand"),
        "duplicate_card": _("a card appears twice"),
        "bad_card": _("a card is not one (rank 2-9, T, J, Q, K, A and suit s, h, d, c)"),
        "bad_card_count": _("give the two hole cards and the five cards of the board"),
    }


def _local(moment: datetime) -> str:
    return timezone.localtime(moment).strftime("%H:%M")


@transaction.atomic
def highhand_period_settle(*, period: PromotionPeriod, now: datetime | None = None) -> str:
    """Settle one ended period, once: its best hands share the prize, or the prize carries into
    the next period. Returns "won", "carried", or "" when there was nothing to do."""
    now = now or timezone.now()
    promotion = _promotion_for_update(period.promotion_id)
    period = PromotionPeriod.objects.select_for_update().get(pk=period.pk)
    if period.status != PeriodStatus.OPEN or period.ends_at > now:
        return ""
    total = period.total_prize_cents
    best = _best(period)
    before = {
        "status": period.status,
        "prize_cents": period.prize_cents,
        "carried_in_cents": period.carried_in_cents,
    }
    if best is None:
        following = period_get_or_create(promotion, next_period_bounds(promotion, period.ends_at))
        period_carry_into(following, total)
        period.status = PeriodStatus.CARRIED
        period.settled_at = now
        period.save(update_fields=["status", "settled_at"])
        audit_record(
            actor=None,
            action="cashgame.high_hand_carry",
            obj=period,
            before=before,
            after={"status": period.status, "carried_out_cents": total, "into": following.pk},
            now=now,
        )
        return PeriodStatus.CARRIED
    winners = list(period.claims.filter(strength=best.strength).order_by("created_at", "pk"))
    shares = prize_split(total, [claim.pk for claim in winners])
    short = total - promotion_fund_available(promotion)
    if short > 0:
        period.house_cents = short
        period.house_posting = ledger_post(
            lines=[
                (account_for(kind=AccountKind.PROMOTION_EXPENSE), short),
                (account_for(kind=AccountKind.PROMOTION_FUND, owner=promotion.reference), -short),
            ],
            description=f"High-hand prize beyond the fund, {promotion.name} period {period.pk}",
            now=now,
        )
    HighHandAward.objects.bulk_create(
        [
            HighHandAward(
                period=period, claim=claim, player_id=claim.player_id, amount_cents=shares[claim.pk]
            )
            for claim in winners
        ]
    )
    period.status = PeriodStatus.WON
    period.settled_at = now
    period.save(update_fields=["status", "settled_at", "house_cents", "house_posting"])
    audit_record(
        actor=None,
        action="cashgame.high_hand_award",
        obj=period,
        before=before,
        after={
            "status": period.status,
            "prize_cents": total,
            "players": [claim.player_id for claim in winners],
            "amounts": [shares[claim.pk] for claim in winners],
            "hand": best.hand_label,
            "house_cents": period.house_cents,
        },
        now=now,
    )
    return PeriodStatus.WON


def highhand_sweep(*, now: datetime | None = None) -> int:
    """The beat's sweep: lay out every period of each running promotion that ended since its
    last recorded one (at most CATCH_UP_DAYS back) and settle each ended period, oldest first.
    Idempotent: a settled period is left as it is. Returns the periods settled."""
    now = now or timezone.now()
    settled = 0
    for promotion in Promotion.objects.filter(active=True).order_by("pk"):
        # From the last settled period on: periods with no claim and no row yet are laid out too.
        last = (
            promotion.periods.exclude(status=PeriodStatus.OPEN)
            .order_by("-ends_at")
            .values_list("ends_at", flat=True)
            .first()
        )
        floor = max(promotion.created_at, now - timedelta(days=CATCH_UP_DAYS))
        after = floor if last is None else min(max(last, floor), now)
        for bounds in periods_ended_between(promotion, after, now):
            if bounds[1] > promotion.created_at:
                period_get_or_create(promotion, bounds)
        for period in promotion.periods.filter(status=PeriodStatus.OPEN, ends_at__lte=now).order_by(
            "starts_at"
        ):
            if highhand_period_settle(period=period, now=now):
                settled += 1
    return settled


def highhand_award_pay(
    *, actor, shift: Shift, award: HighHandAward, idempotency_key: str, now: datetime | None = None
) -> HighHandAward:
    """A cashier pays one award in cash from the promotion's fund (the cage's desk calls this).
    An award is paid once; repeating the same key answers with the same payment."""
    require_role(actor, *CASHIER_ROLES)
    now = now or timezone.now()

    def pay() -> HighHandAward:
        locked = (
            HighHandAward.objects.select_for_update(no_key=True)
            .select_related("player", "period")
            .get(pk=award.pk)
        )
        if locked.transaction_id is not None:
            raise _refuse(
                "award_paid",
                _("The high-hand prize of %(player)s was paid already.")
                % {"player": locked.player.full_name},
                status_code=409,
            )
        if locked.amount_cents <= 0:
            raise _refuse("award_empty", _("This prize is 0.00 EUR: nothing to pay."))
        before = {"transaction": None}
        locked.transaction = high_hand_payout(
            actor=actor,
            shift=shift,
            player=locked.player,
            promotion_id=locked.period.promotion_id,
            amount_cents=locked.amount_cents,
            idempotency_key=idempotency_key,
            now=now,
        )
        locked.paid_at = now
        locked.save(update_fields=["transaction", "paid_at"])
        audit_record(
            actor=actor,
            action="cashgame.high_hand_pay",
            obj=locked,
            before=before,
            after={"transaction": locked.transaction_id, "amount_cents": locked.amount_cents},
            now=now,
        )
        return locked

    return run_once(
        key=idempotency_key,
        operation="cashgame.high_hand_pay",
        request={"shift": shift.pk, "award": award.pk},
        run=pay,
        load=lambda pk: HighHandAward.objects.select_related("player").get(pk=pk),
        now=now,
    )
