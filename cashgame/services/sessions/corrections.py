"""What a reversal of a cash-game cashier transaction does to the player's session (CAG-6).

A reversal puts the money back where it came from in the ledger; the session must say the same,
or the table's chips in play and its sessions disagree. A buy-in or top-up is reversed only
while its chips have not played (no hand dealt to the seat since, no cash-out since, and the
table still holds as many chips as it bought); a cash-out only while the player can sit down
again in his seat, to be cashed out for the right amount.
"""

from datetime import datetime

from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.services import audit_record, snapshot
from cashgame.models import (
    Hand,
    HighHandAward,
    JackpotShare,
    PlayerSession,
    SeatState,
    SessionEvent,
    SessionEventKind,
)
from cashgame.services._common import lock_table
from cashgame.services.sessions._common import _event
from cashier.models import AccountKind, CashierTransaction
from cashier.selectors import account_amount
from chips.services import cash_chips_reversal_check, cash_chips_reverse

SESSION_FIELDS = ["state", "buy_in_cents", "top_up_cents", "cash_out_cents", "ended_at", "last_counted_cents"]


def _dealt_since(session: PlayerSession, event: SessionEvent) -> bool:
    hands = Hand.objects.filter(table_id=session.table_id, started_at__gte=event.at).only("dealt_in")
    return any(
        seat == session.seat and player == session.player_id
        for hand in hands
        for seat, player in hand.dealt_in
    )


def _jackpot_share_due_again(*, record: CashierTransaction, actor, now: datetime) -> None:
    share = (
        JackpotShare.objects.select_for_update(of=("self",), no_key=True).filter(transaction=record).first()
    )
    if share is None:
        return
    share.transaction = None
    share.paid_at = None
    share.save(update_fields=["transaction", "paid_at"])
    audit_record(
        actor=actor,
        action="cashgame.jackpot_share_due_again",
        obj=share,
        before={"paid_by_receipt": record.receipt_number},
        after={"paid_by_receipt": None},
        now=now,
    )


def _high_hand_award_due_again(*, record: CashierTransaction, actor, now: datetime) -> None:
    """LOY-2: a reversed high-hand payout leaves the prize owed again, back in the fund."""
    award = (
        HighHandAward.objects.select_for_update(of=("self",), no_key=True).filter(transaction=record).first()
    )
    if award is None:
        return
    award.transaction = None
    award.paid_at = None
    award.save(update_fields=["transaction", "paid_at"])
    audit_record(
        actor=actor,
        action="cashgame.high_hand_due_again",
        obj=award,
        before={"paid_by_receipt": record.receipt_number},
        after={"paid_by_receipt": None},
        now=now,
    )


def _cashed_out_since(session: PlayerSession, event: SessionEvent) -> bool:
    """A cash-out after the purchase took its chips off the table (even if it was reversed since,
    what came back is the counted cash-out, not the purchase)."""
    return session.events.filter(pk__gt=event.pk, kind=SessionEventKind.CASH_OUT).exists()


def _left_the_table(session: PlayerSession, event: SessionEvent) -> bool:
    """The table holds fewer chips in play than the purchase: others took chips to the cage
    since. Taking the purchase back would leave the table's chips in play below zero (CSH-4);
    found by the books state machine (three buy-ins, one player cashing out all 600.00 EUR, then
    a reversal of another's buy-in)."""
    in_play = account_amount(kind=AccountKind.CHIPS_IN_PLAY, owner=session.table.reference)
    return in_play < event.amount_cents


def _cannot_sit_down_again(session: PlayerSession) -> bool:
    still_open = PlayerSession.objects.filter(ended_at__isnull=True)
    return (
        still_open.filter(player=session.player_id).exists()
        or still_open.filter(table_id=session.table_id, seat=session.seat).exists()
    )


def _reversal_effect(*, record: CashierTransaction, actor, now: datetime | None, apply: bool) -> None:
    if apply:
        _jackpot_share_due_again(record=record, actor=actor, now=now)
        _high_hand_award_due_again(record=record, actor=actor, now=now)
    event = (
        SessionEvent.objects.select_related("session__player", "chip_posting")
        .filter(transaction=record)
        .first()
    )
    if event is None:
        return
    session = event.session
    if apply:
        lock_table(session.table_id)
        session = PlayerSession.objects.select_related("player").get(pk=session.pk)
    who = session.player.full_name
    if event.kind in (SessionEventKind.BUY_IN, SessionEventKind.TOP_UP):
        if (
            not session.is_open
            or session.table.reference != record.reference
            or _dealt_since(session, event)
            or _cashed_out_since(session, event)
            or _left_the_table(session, event)
        ):
            raise DomainError(
                "chips_have_played",
                _(
                    "The chips %(player)s bought with receipt %(n)s have played: the purchase can "
                    "no longer be reversed."
                )
                % {"player": who, "n": record.receipt_number},
                rule="CAG-6",
                status_code=409,
            )
    elif event.kind == SessionEventKind.CASH_OUT and _cannot_sit_down_again(session):
        raise DomainError(
            "seat_not_free",
            _(
                "%(player)s cannot sit down again in seat %(seat)d at %(table)s: the cash-out can no "
                "longer be reversed."
            )
            % {"player": who, "seat": session.seat, "table": session.table},
            rule="CAG-6",
            status_code=409,
        )
    if not apply:
        if event.chip_posting_id is not None:
            # The cage gives the chips of a reversed cash-out back: refused now if it cannot.
            cash_chips_reversal_check(posting=event.chip_posting)
        return
    # The chips go back with the money (CHP-2): under the table's lock, before the ledger's rows.
    chips_back = (
        cash_chips_reverse(actor=actor, posting=event.chip_posting, now=now)
        if event.chip_posting_id is not None
        else None
    )
    before = snapshot(session, SESSION_FIELDS)
    if event.kind == SessionEventKind.BUY_IN:
        session.buy_in_cents -= event.amount_cents
        session.state = SeatState.AWAITING_BUY_IN
        session.last_counted_cents = None
    elif event.kind == SessionEventKind.TOP_UP:
        session.top_up_cents -= event.amount_cents
        session.last_counted_cents = event.chips_on_table_cents
    else:
        # Back in his seat with the chips he brought to the cage, to be cashed out again.
        session.ended_at = None
        session.cash_out_cents = None
        session.state = SeatState.SITTING_OUT
        session.last_counted_cents = event.amount_cents
    session.save(update_fields=SESSION_FIELDS)
    _event(
        session,
        SessionEventKind.CORRECTION,
        actor=actor,
        now=now,
        amount_cents=event.amount_cents,
        detail=f"receipt {record.receipt_number} reversed",
        chip_posting=chips_back,
    )
    audit_record(
        actor=actor,
        action="cashgame.session_correct",
        obj=session,
        before=before,
        after=snapshot(session, SESSION_FIELDS),
        note=f"receipt {record.receipt_number} reversed",
        now=now,
    )


def transaction_reversal_check(*, record: CashierTransaction) -> None:
    """Refuse, before a correction is asked for, a reversal the session cannot follow (CAG-6)."""
    _reversal_effect(record=record, actor=None, now=None, apply=False)


def transaction_reversed(*, actor, record: CashierTransaction, now: datetime) -> None:
    """The session's side of a reversal, in the reversal's transaction (CAG-6)."""
    _reversal_effect(record=record, actor=actor, now=now, apply=True)
