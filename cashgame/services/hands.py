"""The hand log (dealer tablet): start a hand, mark the flop (or the draw), end it with the pot,
or void it (FLR-1 misdeal, FLR-2 duplicate card).

At the end of a hand the rake (RAK-1..RAK-4) and the jackpot drop (JKP-1, JKP-2) are computed by
`poker.rake` and posted together in one ledger posting: the table's chips in play are debited,
rake revenue and the jackpot fund credited. A hand with no flop, or a voided one, posts nothing.
Starting, ending and voiding a hand lock the table row, so a hand and a top-up at the same table
never interleave (CSH-3); ending, voiding and the flop lock the hand row, so a hand is ended at
most once and never while its flop is being recorded.
"""

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cardroom.errors import DomainError, NotFound
from cardroom.money import format_eur
from cardroom.roles import FLOOR_ROLES, require_role
from cardroom.rows import insert_row, lock_row, update_row
from cardroom.services import audit_record
from cashgame.models import CashTable, Hand, HandStatus, PlayerSession, SeatState, VoidReason
from cashgame.services._common import lock_hand, lock_table, poker_rules, require_open
from cashier.models import AccountKind
from cashier.selectors import account_balance
from cashier.services import account_for, ledger_post
from poker.rake import jackpot_drop_for_hand, rake_for_pot

NOT_DEALABLE = {
    SeatState.AWAITING_BUY_IN: ("CSH-1", gettext_lazy("has not bought in yet")),
    SeatState.WAITING_FOR_BUTTON: (
        "CSH-6",
        gettext_lazy("is new and waits for the button to pass (or posts)"),
    ),
    SeatState.OWES_BLINDS: (
        "CSH-6",
        gettext_lazy("owes his missed blinds: he is dealt in after posting them"),
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
    between the blinds, not one who owes blinds (CSH-6), not one sitting out (CSH-5)."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    table = lock_table(table.pk)
    require_open(table)
    if table.hand_in_progress:
        raise DomainError(
            "hand_in_progress",
            _("A hand is in progress at %s: end or void it first.") % table,
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
            "seat", "state", "player_id"
        )
    }
    for seat in seats:
        session = sessions.get(seat)
        if session is None:
            raise DomainError(
                "empty_seat",
                _("Seat %d is empty: a card dealt to an empty seat is a misdeal.") % seat,
                rule="FLR-1",
            )
        if session.state != SeatState.PLAYING:
            rule, why = NOT_DEALABLE[session.state]
            raise DomainError(
                "not_dealable",
                _("Seat %(seat)d %(why)s.") % {"seat": seat, "why": why},
                rule=rule,
                status_code=409,
            )
    table.hands_dealt += 1
    table.hand_in_progress = True
    update_row(table, "hands_dealt", "hand_in_progress")
    return insert_row(
        Hand(
            table=table,
            number=table.hands_dealt,
            dealt_in=[[seat, sessions[seat].player_id] for seat in seats],
            players_dealt=len(seats),
            button_seat=button_seat,
            small_blind_cents=table.game.small_blind_cents,
            big_blind_cents=table.game.big_blind_cents,
            started_at=now,
            started_by=actor,
        )
    )


@transaction.atomic
def hand_flop(*, actor, hand: Hand, now: datetime | None = None) -> Hand:
    """The flop (in draw games: the draw) was dealt, so the hand will be raked (RAK-2). A second
    tap changes nothing."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    # The hand row alone is locked: a flop never meets a top-up, and ending or voiding the hand
    # locks this row too, so neither can read it half-way.
    hand = lock_row(Hand, hand.pk)
    if hand is None:
        raise NotFound("unknown_hand", _("Unknown hand."))
    _require_in_progress(hand)
    if not hand.saw_flop:
        hand.saw_flop = True
        hand.flop_at = now
        update_row(hand, "saw_flop", "flop_at")
    return hand


@transaction.atomic
def hand_end(*, actor, hand: Hand, pot_cents: int, now: datetime | None = None) -> Hand:
    """End the hand with its final pot (all pots together, uncalled bets returned) and post the
    rake and the jackpot drop in one posting (RAK-1..RAK-4, JKP-1, JKP-2). A hand is ended once;
    a pot of nothing, or more than the chips in play at the table, is refused."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    table, hand = lock_hand(hand.pk)
    _require_in_progress(hand)
    if not isinstance(pot_cents, int) or isinstance(pot_cents, bool) or pot_cents <= 0:
        raise DomainError("invalid_pot", _("The pot must be more than 0.00 EUR."), rule="RAK-1")
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
    game = table.game
    with poker_rules():
        rake = rake_for_pot(
            pot_cents=pot_cents,
            rate_bp=game.rake_rate_bp,
            cap_cents=game.rake_cap_cents,
            rounding_cents=game.rake_rounding_cents,
            saw_flop=hand.saw_flop,
            voided=False,
        )
        drop = jackpot_drop_for_hand(
            pot_cents=pot_cents,
            small_blind_cents=hand.small_blind_cents,
            big_blind_cents=hand.big_blind_cents,
            players_dealt=hand.players_dealt,
            saw_flop=hand.saw_flop,
            voided=False,
            eligible_sb_cents=game.jackpot_small_blind_cents,
            eligible_bb_cents=game.jackpot_big_blind_cents,
            min_players=game.jackpot_min_players,
            drop_cents=game.jackpot_drop_cents,
            threshold_cents=game.jackpot_threshold_cents,
        )
    # The fees never take more than the pot (only possible with extreme settings).
    drop = min(drop, pot_cents - rake)
    if rake or drop:
        hand.posting = ledger_post(
            lines=[
                (chips_account, rake + drop),
                (account_for(kind=AccountKind.RAKE_REVENUE), -rake),
                (account_for(kind=AccountKind.JACKPOT_FUND), -drop),
            ],
            description=f"Rake and jackpot drop, table {table.number} hand {hand.number}",
            actor=actor,
            now=now,
        )
    hand.status = HandStatus.ENDED
    hand.pot_cents = pot_cents
    hand.rake_cents = rake
    hand.jackpot_drop_cents = drop
    hand.ended_at = now
    hand.ended_by = actor
    ended = ("status", "pot_cents", "rake_cents", "jackpot_drop_cents", "ended_at", "ended_by", "posting")
    update_row(hand, *ended)
    table.hand_in_progress = False
    update_row(table, "hand_in_progress")
    return hand


@transaction.atomic
def hand_void(*, actor, hand: Hand, reason: str, now: datetime | None = None) -> Hand:
    """Void the hand in progress: a misdeal (FLR-1) or a duplicate card (FLR-2). Nothing is
    raked and no jackpot drop is taken (RAK-4); the chips go back to the bettors."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    if reason not in VoidReason.values:
        raise DomainError(
            "invalid_void_reason", _("A hand is void for a misdeal or a duplicate card."), rule="RAK-4"
        )
    table, hand = lock_hand(hand.pk)
    _require_in_progress(hand)
    hand.status = HandStatus.VOIDED
    hand.void_reason = reason
    hand.ended_at = now
    hand.ended_by = actor
    update_row(hand, "status", "void_reason", "ended_at", "ended_by")
    table.hand_in_progress = False
    update_row(table, "hand_in_progress")
    audit_record(
        actor=actor,
        action="cashgame.hand_void",
        obj=hand,
        after={"reason": reason, "rule": "FLR-1" if reason == VoidReason.MISDEAL else "FLR-2"},
        now=now,
    )
    return hand
