"""Bad-beat jackpot (JKP-1, JKP-3): the floor enters both hands' hole cards and the board; the
evaluator (pokerkit, through poker.hands) decides; the fund is split 50 % loser, 25 % winner,
25 % shared by the others dealt in; each share is paid in cash by a cashier from the fund.
"""

from datetime import datetime

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.idempotency import run_once
from cardroom.money import format_eur
from cardroom.roles import CASHIER_ROLES, FLOOR_ROLES, require_role
from cardroom.selectors import venue_get
from cardroom.services import audit_record
from cardroom.venues import venue_id_current
from cashgame.locks import table_for_update
from cashgame.models import Hand, HandStatus, JackpotClaim, JackpotShare, ShareRole
from cashgame.services._common import poker_rules
from cashier.models import Account, AccountKind, Shift
from cashier.selectors import jackpot_fund_balance
from cashier.services import account_for, jackpot_payout
from poker.hands import bad_beat_check, jackpot_split, parse_cards
from poker.rake import jackpot_hand_eligible


def jackpot_available() -> int:
    """The venue's fund less its shares already awarded and not yet paid (cents): each venue
    keeps its own fund (VEN-1)."""
    unpaid = JackpotShare.objects.filter(
        claim__venue_id=venue_id_current(), transaction__isnull=True
    ).aggregate(total=Sum("amount_cents"))["total"]
    return jackpot_fund_balance() - (unpaid or 0)


def _refuse(code: str, message: str, rule: str = "JKP-3") -> DomainError:
    return DomainError(code, message, rule=rule)


@transaction.atomic
def jackpot_claim_create(
    *,
    actor,
    hand: Hand,
    loser_seat: int,
    winner_seat: int,
    loser_cards: str,
    winner_cards: str,
    board: str,
    now: datetime | None = None,
) -> JackpotClaim:
    """Check a bad-beat claim and, when it qualifies, award the fund's shares (JKP-3).

    Refused with the reason: a hand that is not eligible (stakes, fewer than 4 dealt in, void:
    JKP-1), seats not dealt in, a card twice (FLR-2), or hands that do not qualify (JKP-3).
    """
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    table = table_for_update(hand.table_id)
    hand = Hand.objects.get(pk=hand.pk)
    game = table.game
    if hand.status != HandStatus.ENDED:
        raise _refuse(
            "hand_not_ended", _("Only a hand that was played to its end can win the jackpot."), "JKP-1"
        )
    eligible = jackpot_hand_eligible(
        small_blind_cents=hand.small_blind_cents,
        big_blind_cents=hand.big_blind_cents,
        players_dealt=hand.players_dealt,
        voided=False,
        eligible_sb_cents=game.jackpot_small_blind_cents,
        eligible_bb_cents=game.jackpot_big_blind_cents,
        min_players=game.jackpot_min_players,
    )
    if not eligible:
        raise _refuse(
            "hand_not_eligible",
            _(
                "Hand %(hand)s does not take part in the jackpot: it needs stakes %(sb)s/%(bb)s and at least "
                "%(min)d players dealt in (it had %(sbh)s/%(bbh)s and %(dealt)d)."
            )
            % {
                "hand": hand.number,
                "sb": format_eur(game.jackpot_small_blind_cents, with_currency=False),
                "bb": format_eur(game.jackpot_big_blind_cents),
                "min": game.jackpot_min_players,
                "sbh": format_eur(hand.small_blind_cents, with_currency=False),
                "bbh": format_eur(hand.big_blind_cents),
                "dealt": hand.players_dealt,
            },
            "JKP-1",
        )
    if not hand.saw_flop:
        raise _refuse("no_flop", _("A hand that ended before the flop cannot win the jackpot."), "JKP-1")
    if loser_seat == winner_seat or loser_seat not in hand.dealt_seats or winner_seat not in hand.dealt_seats:
        raise _refuse(
            "seats_not_dealt_in", _("The losing and the winning seat must be two seats dealt in this hand.")
        )
    if JackpotClaim.objects.filter(hand=hand).exists():
        raise DomainError(
            "claim_exists", _("This hand's jackpot was already awarded."), rule="JKP-3", status_code=409
        )
    with poker_rules():
        loser = parse_cards(loser_cards)
        winner = parse_cards(winner_cards)
        community = parse_cards(board)
        result = bad_beat_check(loser_hole=loser, winner_hole=winner, board=community)
    if not result.qualifies:
        raise _refuse("bad_beat_not_qualifying", _("No bad-beat jackpot: %s.") % result.reason)
    # The fund's row stays locked until commit: two claims cannot share out the same money.
    Account.objects.select_for_update(no_key=True).filter(
        pk=account_for(kind=AccountKind.JACKPOT_FUND).pk
    ).first()
    fund = jackpot_available()
    if fund <= 0:
        raise _refuse("jackpot_empty", _("The jackpot fund is empty."))
    others = [player for seat, player in hand.dealt_in if seat not in (loser_seat, winner_seat)]
    with poker_rules():
        split = jackpot_split(
            jackpot_cents=fund, other_players=len(others), rounding_cents=venue_get().smallest_chip_cents
        )
    claim = JackpotClaim.objects.create(
        hand=hand,
        loser_seat=loser_seat,
        winner_seat=winner_seat,
        loser_cards="".join(loser),
        winner_cards="".join(winner),
        board="".join(community),
        loser_hand=result.loser.label,
        winner_hand=result.winner.label,
        fund_cents=fund,
        created_by=actor,
        created_at=now,
    )
    shares = [
        JackpotShare(
            claim=claim, player_id=hand.player_at(loser_seat), role=ShareRole.LOSER, amount_cents=split.loser
        ),
        JackpotShare(
            claim=claim,
            player_id=hand.player_at(winner_seat),
            role=ShareRole.WINNER,
            amount_cents=split.winner,
        ),
        *(
            JackpotShare(claim=claim, player_id=player, role=ShareRole.TABLE, amount_cents=amount)
            for player, amount in zip(others, split.others, strict=True)
        ),
    ]
    JackpotShare.objects.bulk_create(shares)
    audit_record(
        actor=actor,
        action="cashgame.jackpot_claim",
        obj=claim,
        after={
            "hand": hand.pk,
            "fund_cents": fund,
            "loser": split.loser,
            "winner": split.winner,
            "others": list(split.others),
            "reason": result.reason,
        },
        now=now,
    )
    return claim


def jackpot_share_pay(
    *, actor, shift: Shift, share: JackpotShare, idempotency_key: str, now: datetime | None = None
) -> JackpotShare:
    """A cashier pays one share in cash from the jackpot fund (JKP-3, through the cashier
    ledger). A share is paid once; repeating the same key answers with the same payment."""
    require_role(actor, *CASHIER_ROLES)
    now = now or timezone.now()

    def pay() -> JackpotShare:
        locked = JackpotShare.objects.select_for_update(no_key=True).select_related("player").get(pk=share.pk)
        if locked.transaction_id is not None:
            raise DomainError(
                "share_paid",
                _("The jackpot share of %(player)s was paid already.") % {"player": locked.player.full_name},
                rule="JKP-3",
                status_code=409,
            )
        if locked.amount_cents <= 0:
            raise DomainError("share_empty", _("This share is 0.00 EUR: nothing to pay."), rule="JKP-3")
        locked.transaction = jackpot_payout(
            actor=actor,
            shift=shift,
            player=locked.player,
            amount_cents=locked.amount_cents,
            idempotency_key=idempotency_key,
            reference=f"jackpot:{locked.claim_id}",
            now=now,
        )
        locked.paid_at = now
        locked.save(update_fields=["transaction", "paid_at"])
        return locked

    return run_once(
        key=idempotency_key,
        operation="cashgame.jackpot_share_pay",
        request={"shift": shift.pk, "share": share.pk},
        run=pay,
        load=lambda pk: JackpotShare.objects.select_related("player").get(pk=pk),
        now=now,
    )
