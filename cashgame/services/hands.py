"""The hand log (dealer tablet): start a hand, mark the flop (or the draw), end it with the pot
and its side pots, or void it (FLR-1 misdeal, FLR-2 duplicate card).

At the end of a hand the rake (RAK-1..RAK-4) and the jackpot drop (JKP-1, JKP-2) are computed by
`poker.rake` (through `cashgame.fees`) and posted together in one ledger posting: the table's
chips in play are debited, rake revenue and the jackpot fund credited. With side pots, each pot's
share of both is recorded on the hand (RAK-6). A hand with no flop, or a voided one, posts nothing.
Starting, ending and voiding a hand lock the table row, so a hand and a top-up at the same table
never interleave (CSH-3); ending, voiding and the flop lock the hand row, so a hand is ended at
most once and never while its flop is being recorded.
"""

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cardroom.errors import DomainError
from cardroom.money import format_eur
from cardroom.roles import FLOOR_ROLES, require_role_or_device
from cardroom.services import audit_record
from cashgame.fees import hand_fees
from cashgame.locks import hand_for_update, hand_only_for_update, table_for_update
from cashgame.models import (
    CashTable,
    Hand,
    HandStatus,
    PlayerSession,
    SeatState,
    SessionEvent,
    SessionEventKind,
    VoidReason,
)
from cashgame.selectors.dealing import FIRST_HAND_STATES, dealable, table_game_is_new
from cashgame.services._common import poker_rules, require_open
from cashgame.services.promotions import (
    promotion_drop_lines,
    promotion_drops_for_hand,
    promotion_drops_record,
)
from cashier.models import AccountKind
from cashier.selectors import account_balance
from cashier.services import account_for, ledger_post

NOT_DEALABLE = {
    SeatState.AWAITING_BUY_IN: ("CSH-1", gettext_lazy("has not bought in yet")),
    SeatState.WAITING_FOR_BUTTON: (
        "CSH-6",
        gettext_lazy("is new and waits for the button to pass (or posts)"),
    ),
    SeatState.OWES_BLINDS: (
        "CSH-6",
        gettext_lazy("owes missed blinds: dealt in after posting them"),
    ),
    SeatState.SITTING_OUT: ("CSH-5", gettext_lazy("is sitting out")),
}


def _require_in_progress(hand: Hand) -> None:
    if hand.status != HandStatus.IN_PROGRESS:
        code = "hand_already_voided" if hand.status == HandStatus.VOIDED else "hand_already_ended"
        raise DomainError(
            code,
            _("Hand %(hand)s is %(status)s already; nothing was changed.")
            % {"hand": hand.number, "status": hand.get_status_display().lower()},
            rule="RAK-4" if hand.status == HandStatus.VOIDED else "RAK-1",
            status_code=409,
        )


@transaction.atomic
def hand_start(
    *, actor, table: CashTable, seats: list[int], button_seat: int | None = None, now: datetime | None = None
) -> Hand:
    """Deal a new hand to the given seats. Only players in play are dealt in: not a new player
    between the blinds, not one who owes blinds (CSH-6), not one sitting out (CSH-5). The dead
    blinds the players dealt in posted when they came back go into this hand's pot (POT-4).

    A new game's first hand (no hand ended since the table opened) also deals in the players
    who wait for the button or owe blinds: nobody owes a blind yet, the button is drawn (HND-2)
    and the blinds are posted in the hand. They are in play from then on; CSH-6 applies to the
    players who sit down later."""
    require_role_or_device(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    table = table_for_update(table.pk)
    require_open(table)
    if table.hand_in_progress:
        raise DomainError(
            "hand_in_progress",
            _("A hand is in progress at %s: end or void it first.") % table,
            rule="RAK-1",
            status_code=409,
        )
    seats = sorted(set(seats))
    if len(seats) < 2:
        raise DomainError("too_few_players", _("A hand needs at least two players dealt in."), rule="BET-1")
    if button_seat is not None and button_seat not in seats:
        raise DomainError("bad_button", _("The button must be on a seat dealt in."), rule="BET-1")
    sessions = {
        session.seat: session
        for session in PlayerSession.objects.filter(table=table, ended_at__isnull=True, seat__in=seats).only(
            "seat", "state", "player_id", "dead_blind_cents"
        )
    }
    # Read only when someone would wait: the usual hand costs no query more.
    new_game = any(s.state in FIRST_HAND_STATES for s in sessions.values()) and table_game_is_new(table=table)
    for seat in seats:
        session = sessions.get(seat)
        if session is None:
            raise DomainError(
                "empty_seat",
                _("Seat %d is empty: a card dealt to an empty seat is a misdeal.") % seat,
                rule="FLR-1",
            )
        if not dealable(session, new_game=new_game):
            rule, why = NOT_DEALABLE[session.state]
            raise DomainError(
                "not_dealable",
                _("Seat %(seat)d %(why)s.") % {"seat": seat, "why": why},
                rule=rule,
                status_code=409,
            )
    table.hands_dealt += 1
    table.hand_in_progress = True
    table.save(update_fields=["hands_dealt", "hand_in_progress"])
    hand = Hand.objects.create(
        table=table,
        number=table.hands_dealt,
        dealt_in=[[seat, sessions[seat].player_id] for seat in seats],
        players_dealt=len(seats),
        button_seat=button_seat,
        small_blind_cents=table.game.small_blind_cents,
        big_blind_cents=table.game.big_blind_cents,
        dead_cents=sum(sessions[seat].dead_blind_cents for seat in seats),
        started_at=now,
        started_by=actor,
    )
    if new_game:
        _first_hand_in_play(actor=actor, table=table, hand=hand, now=now)
    return hand


def _first_hand_in_play(*, actor, table: CashTable, hand: Hand, now: datetime) -> None:
    """The players a new game's first hand dealt in while they waited for the button or owed
    blinds are in play from now on (CSH-6): each change is a seat-state event and audited."""
    waiting = PlayerSession.objects.select_related("player").filter(
        table=table, ended_at__isnull=True, seat__in=hand.dealt_seats, state__in=FIRST_HAND_STATES
    )
    for session in waiting:
        session.table = table
        before = {"state": session.state}
        session.state = SeatState.PLAYING
        session.save(update_fields=["state"])
        SessionEvent.objects.create(
            session=session,
            kind=SessionEventKind.STATE,
            actor=actor,
            at=now,
            detail=f"first hand of the game (hand {hand.number}): {SeatState.PLAYING}",
        )
        audit_record(
            actor=actor,
            action="cashgame.session_state",
            obj=session,
            before=before,
            after={"state": SeatState.PLAYING, "action": "first_hand", "hand": hand.number},
            now=now,
        )


@transaction.atomic
def hand_flop(*, actor, hand: Hand, now: datetime | None = None) -> Hand:
    """The flop (in draw games: the draw) was dealt, so the hand will be raked (RAK-2). A second
    tap changes nothing."""
    require_role_or_device(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    hand = hand_only_for_update(hand.pk)
    _require_in_progress(hand)
    if not hand.saw_flop:
        hand.saw_flop = True
        hand.flop_at = now
        hand.save(update_fields=["saw_flop", "flop_at"])
    return hand


def _is_cents(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _hand_pots(hand: Hand, pot_cents: int, side_pots_cents: list[int] | None) -> list[int]:
    """The hand's pots, main first: the side-pot list the dealer gave, or the one pot. Refused:
    pots that are not amounts or do not add up to the pot (RAK-6), and a main pot smaller than
    the dead money, which is part of it (POT-4)."""
    if side_pots_cents is None:
        pots = [pot_cents]
    else:
        pots = list(side_pots_cents)
        if not pots or len(pots) > hand.players_dealt or not all(_is_cents(p) and p > 0 for p in pots):
            raise DomainError(
                "invalid_side_pots",
                _("Give the pots, main pot first, each more than 0.00 EUR, at most one per player dealt in."),
                rule="RAK-6",
            )
        if sum(pots) != pot_cents:
            raise DomainError(
                "side_pots_do_not_add_up",
                _("The pots add up to %(sum)s, not to the pot of %(pot)s: check the amounts.")
                % {"sum": format_eur(sum(pots)), "pot": format_eur(pot_cents)},
                rule="RAK-6",
            )
    if pots[0] < hand.dead_cents:
        raise DomainError(
            "main_pot_below_dead_money",
            _("The main pot (%(main)s) holds the dead money of %(dead)s, so it cannot be smaller: check it.")
            % {"main": format_eur(pots[0]), "dead": format_eur(hand.dead_cents)},
            rule="POT-4",
        )
    return pots


@transaction.atomic
def hand_end(
    *,
    actor,
    hand: Hand,
    pot_cents: int,
    side_pots_cents: list[int] | None = None,
    now: datetime | None = None,
) -> Hand:
    """End the hand with its final pot (all pots together, uncalled bets returned) and post the
    rake and the jackpot drop in one posting (RAK-1..RAK-4, JKP-1, JKP-2). A hand is ended once;
    a pot of nothing, or more than the chips in play at the table, is refused.

    With side pots (`side_pots_cents`, main pot first, adding up to the pot) the rake, capped
    once per hand, and the drop are charged to the pots in proportion to their size (RAK-6).
    Each pot's share is recorded on the hand (`Hand.pots`, one pot without side pots). The dead
    money posted for the hand is in the main pot (POT-4)."""
    require_role_or_device(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    hand = hand_for_update(hand.pk)
    table = hand.table
    _require_in_progress(hand)
    if not _is_cents(pot_cents) or pot_cents <= 0:
        raise DomainError("invalid_pot", _("The pot must be more than 0.00 EUR."), rule="RAK-1")
    pots = _hand_pots(hand, pot_cents, side_pots_cents)
    chips_account = account_for(kind=AccountKind.CHIPS_IN_PLAY, owner=table.reference)
    in_play = -account_balance(account=chips_account)  # chips in play carry a credit balance
    if pot_cents > in_play:
        raise DomainError(
            "pot_exceeds_chips_in_play",
            _(
                "A pot of %(pot)s is more than all the chips in play at %(table)s (%(in_play)s): "
                "check the amount."
            )
            % {"pot": format_eur(pot_cents), "table": table, "in_play": format_eur(in_play)},
            rule="CSH-4",
        )
    with poker_rules():
        fees = hand_fees(
            table.game,
            pots_cents=pots,
            small_blind_cents=hand.small_blind_cents,
            big_blind_cents=hand.big_blind_cents,
            players_dealt=hand.players_dealt,
            saw_flop=hand.saw_flop,
        )
    rake, drop = fees.rake, fees.drop
    # LOY-2: each high-hand promotion's drop, from what the rake and jackpot drop leave.
    promotion_drops = promotion_drops_for_hand(
        table=table, hand=hand, pot_cents=pot_cents, left_cents=pot_cents - rake - drop, now=now
    )
    promoted = sum(amount for _promotion, amount in promotion_drops)
    if rake or drop or promoted:
        hand.posting = ledger_post(
            lines=[
                (chips_account, rake + drop + promoted),
                (account_for(kind=AccountKind.RAKE_REVENUE), -rake),
                (account_for(kind=AccountKind.JACKPOT_FUND), -drop),
                *promotion_drop_lines(promotion_drops),
            ],
            description=f"Rake and jackpot drop, table {table.number} hand {hand.number}",
            actor=actor,
            now=now,
        )
    hand.status = HandStatus.ENDED
    hand.pot_cents = pot_cents
    hand.pots = [
        {"amount_cents": amount, "rake_cents": rake_share, "drop_cents": drop_share}
        for amount, rake_share, drop_share in zip(pots, fees.rake_shares, fees.drop_shares, strict=True)
    ]
    hand.rake_cents = rake
    hand.jackpot_drop_cents = drop
    hand.ended_at = now
    hand.ended_by = actor
    hand.save(
        update_fields=[
            "status",
            "pot_cents",
            "pots",
            "rake_cents",
            "jackpot_drop_cents",
            "ended_at",
            "ended_by",
            "posting",
        ]
    )
    promotion_drops_record(hand=hand, drops=promotion_drops)
    table.hand_in_progress = False
    table.save(update_fields=["hand_in_progress"])
    if hand.dead_cents:
        # The dead blinds are in this hand's pot now; a voided hand leaves them for the next.
        PlayerSession.objects.filter(
            table=table, ended_at__isnull=True, seat__in=hand.dealt_seats, dead_blind_cents__gt=0
        ).update(dead_blind_cents=0)
    audit_record(
        actor=actor,
        action="cashgame.hand_end",
        obj=hand,
        after={
            "pot_cents": hand.pot_cents,
            "pots": hand.pots,
            "rake_cents": hand.rake_cents,
            "jackpot_drop_cents": hand.jackpot_drop_cents,
            "promotion_drop_cents": promoted,
            "posting": hand.posting_id,
        },
        now=now,
    )
    return hand


@transaction.atomic
def hand_void(*, actor, hand: Hand, reason: str, now: datetime | None = None) -> Hand:
    """Void the hand in progress: a misdeal (FLR-1) or a duplicate card (FLR-2). Nothing is
    raked and no jackpot drop is taken (RAK-4); the chips go back to the bettors."""
    require_role_or_device(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    if reason not in VoidReason.values:
        raise DomainError(
            "invalid_void_reason", _("A hand is void for a misdeal or a duplicate card."), rule="RAK-4"
        )
    hand = hand_for_update(hand.pk)
    table = hand.table
    _require_in_progress(hand)
    hand.status = HandStatus.VOIDED
    hand.void_reason = reason
    hand.ended_at = now
    hand.ended_by = actor
    hand.save(update_fields=["status", "void_reason", "ended_at", "ended_by"])
    table.hand_in_progress = False
    table.save(update_fields=["hand_in_progress"])
    audit_record(
        actor=actor,
        action="cashgame.hand_void",
        obj=hand,
        after={"reason": reason, "rule": "FLR-1" if reason == VoidReason.MISDEAL else "FLR-2"},
        now=now,
    )
    return hand
