"""The floor's session services: seating, seat and table changes, seat states, stack counts."""

from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.money import MAX_CENTS, format_eur
from cardroom.roles import FLOOR_ROLES, require_role
from cardroom.services import audit_record
from cashgame.locks import table_for_update, tables_for_update
from cashgame.models import STATE_ACTIONS, CashTable, PlayerSession, SeatState, SessionEventKind
from cashgame.services._common import require_open
from cashgame.services.sessions._common import _check_seat_free, _current_hand, _event, _open_session
from cashier.models import AccountKind
from cashier.selectors import account_amount
from cashier.services import account_for, ledger_post
from players.models import Player

# Seat states from which a player may be dealt in; the others wait (CSH-5, CSH-6).
DEALABLE = {SeatState.PLAYING}


def _check_not_seated(player: Player) -> None:
    # In every venue (VEN-1): the player is the operator's and sits at one table at a time.
    other = (
        PlayerSession.all_venues.filter(player=player, ended_at__isnull=True).select_related("table").first()
    )
    if other is not None:
        raise DomainError(
            "already_seated",
            _("%(player)s already has seat %(seat)d at %(table)s.")
            % {"player": player.full_name, "seat": other.seat, "table": other.table},
            status_code=409,
        )


@transaction.atomic
def session_seat(
    *, actor, table: CashTable, player: Player, seat: int, now: datetime | None = None
) -> PlayerSession:
    """The floor seats a player (from the waiting list or directly); the seat is his, waiting
    for his first buy-in at the cage (CSH-1)."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    table = table_for_update(table.pk)
    require_open(table)
    _check_seat_free(table, seat)
    _check_not_seated(player)
    try:
        with transaction.atomic():
            session = PlayerSession.objects.create(
                table=table, seat=seat, player=player, state=SeatState.AWAITING_BUY_IN, started_at=now
            )
    except IntegrityError:  # a racing request took the seat or seated the player elsewhere
        raise DomainError(
            "seat_taken", _("The seat or the player was just taken."), status_code=409
        ) from None
    _event(session, SessionEventKind.SEATED, actor=actor, now=now, detail=f"seat {seat}")
    audit_record(
        actor=actor,
        action="cashgame.session_seat",
        obj=session,
        after={"table": table.pk, "seat": seat, "player": player.pk, "state": session.state},
        now=now,
    )
    return session


@transaction.atomic
def session_move(
    *,
    actor,
    session: PlayerSession,
    table: CashTable,
    seat: int,
    chips_cents: int | None = None,
    now: datetime | None = None,
) -> PlayerSession:
    """Change seat, or table. A change of table moves the counted chips between the tables'
    chips-in-play accounts in one posting, and the player waits for the button at the new table
    (CSH-6). Refused while he is dealt in a hand in progress."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    source_id = session.table_id
    tables = tables_for_update(source_id, table.pk)
    source, target = tables[source_id], tables[table.pk]
    session = _open_session(session.pk)
    if session.table_id != source_id:
        raise DomainError("session_moved", _("The player was just moved; reload."), status_code=409)
    require_open(target)
    hand = _current_hand(source)
    if hand is not None and session.seat in hand.dealt_seats:
        raise DomainError(
            "in_hand",
            _("The player is dealt in the hand in progress: move them after it."),
            rule="CSH-2",
            status_code=409,
        )
    _check_seat_free(target, seat, exclude=session.pk)
    posting = None
    if target.pk != source.pk and session.state != SeatState.AWAITING_BUY_IN:
        if chips_cents is None or not isinstance(chips_cents, int) or chips_cents < 0:
            raise DomainError("chips_required", _("Count the chips the player takes to the new table."))
        available = account_amount(kind=AccountKind.CHIPS_IN_PLAY, owner=source.reference)
        if chips_cents > available:
            raise DomainError(
                "chips_exceed_table",
                _("%(table)s has %(available)s in play; the player cannot take %(chips)s.")
                % {"table": source, "available": format_eur(available), "chips": format_eur(chips_cents)},
                rule="CAG-1",
            )
        if chips_cents:
            posting = ledger_post(
                lines=[
                    (account_for(kind=AccountKind.CHIPS_IN_PLAY, owner=source.reference), chips_cents),
                    (account_for(kind=AccountKind.CHIPS_IN_PLAY, owner=target.reference), -chips_cents),
                ],
                description=f"Table change {source.number} -> {target.number} session {session.pk}",
                actor=actor,
                now=now,
            )
        session.last_counted_cents = chips_cents
        session.state = SeatState.WAITING_FOR_BUTTON
    if target.pk != source.pk:
        session.dead_blind_cents = 0  # a blind posted at the old table stays out of its pots
    before = {"table": source.pk, "seat": session.seat}
    session.table = target
    session.seat = seat
    session.save(update_fields=["table", "seat", "state", "last_counted_cents", "dead_blind_cents"])
    _event(
        session,
        SessionEventKind.MOVE,
        actor=actor,
        now=now,
        amount_cents=chips_cents if posting else None,
        posting=posting,
        detail=f"table {source.number} seat {before['seat']} -> table {target.number} seat {seat}",
    )
    audit_record(
        actor=actor,
        action="cashgame.session_move",
        obj=session,
        before=before,
        after={"table": target.pk, "seat": seat, "chips_cents": chips_cents},
        now=now,
    )
    return session


@transaction.atomic
def session_release(*, actor, session: PlayerSession, now: datetime | None = None) -> PlayerSession:
    """Free a seat whose player never came to buy in (a no-show): the session ends with no
    chips and no money. A player with chips on the table leaves through the cage's cash-out
    instead (CSH-2; the floor posts no money, ROL-1)."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    table_for_update(session.table_id)
    session = _open_session(session.pk)
    if session.state != SeatState.AWAITING_BUY_IN or session.invested_cents:
        raise DomainError(
            "has_chips",
            _("%(player)s has chips on the table: they leave through a cash-out at the cage.")
            % {"player": session.player.full_name},
            rule="CSH-2",
            status_code=409,
        )
    before = {"state": session.state, "seat": session.seat}
    session.state = SeatState.ENDED
    session.ended_at = max(now, session.started_at)
    session.save(update_fields=["state", "ended_at"])
    _event(session, SessionEventKind.STATE, actor=actor, now=now, detail="no-show: seat freed")
    audit_record(
        actor=actor,
        action="cashgame.session_release",
        obj=session,
        before=before,
        after={"state": session.state, "ended_at": session.ended_at},
        now=now,
    )
    return session


@transaction.atomic
def session_state_change(
    *, actor, session: PlayerSession, action: str, now: datetime | None = None
) -> PlayerSession:
    """The dealer's taps on a seat (CSH-5, CSH-6): a player who missed his blinds while away
    owes them and is dealt in again only after posting; a new player waits for the button to
    pass unless he posts; a player short of one big blind stays out until he tops up. Posting
    missed blinds records the small blind as dead money for the next hand (POT-4)."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    if action not in STATE_ACTIONS:
        raise DomainError("unknown_action", _("Unknown seat action: %s") % action)
    table = table_for_update(session.table_id)
    session = _open_session(session.pk)
    allowed, target = STATE_ACTIONS[action]
    if session.state not in allowed:
        if session.state == SeatState.OWES_BLINDS:
            message = _("The player owes missed blinds and is back in only after posting them.")
        elif session.state == SeatState.WAITING_FOR_BUTTON:
            message = _("A new player waits for the button to pass, or posts.")
        elif session.state == SeatState.AWAITING_BUY_IN:
            message = _("The player has not bought in yet.")
        else:
            message = _("This does not apply to a player who is %s.") % session.get_state_display().lower()
        raise DomainError("illegal_seat_state", message, rule="CSH-6", status_code=409)
    short = session.last_counted_cents is not None and session.last_counted_cents < table.game.big_blind_cents
    if target == SeatState.PLAYING and short:
        raise DomainError(
            "short_stack",
            _("The player has less than one big blind (%s): a top-up comes first.")
            % format_eur(table.game.big_blind_cents),
            rule="CSH-5",
            status_code=409,
        )
    detail = f"{action}: {target}"
    if action == "posted" and session.state == SeatState.OWES_BLINDS:
        # He posts both missed blinds: the big blind plays live, the small blind is dead money in
        # the next hand he is dealt in (POT-4).
        session.dead_blind_cents = table.game.small_blind_cents
        detail += f"; dead blind {session.dead_blind_cents}"
    elif target == SeatState.SITTING_OUT:
        session.dead_blind_cents = 0  # he leaves before the hand: the posted chips come back
    before = {"state": session.state}
    session.state = target
    session.save(update_fields=["state", "dead_blind_cents"])
    _event(session, SessionEventKind.STATE, actor=actor, now=now, detail=detail)
    audit_record(
        actor=actor,
        action="cashgame.session_state",
        obj=session,
        before=before,
        after={"state": target, "action": action, "dead_blind_cents": session.dead_blind_cents},
        now=now,
    )
    return session


@transaction.atomic
def session_stack_report(
    *, actor, session: PlayerSession, chips_cents: int, now: datetime | None = None
) -> PlayerSession:
    """The dealer counts a player's chips; with less than one big blind he sits out until he
    tops up (CSH-5)."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    if not isinstance(chips_cents, int) or not 0 <= chips_cents <= MAX_CENTS:
        raise DomainError(
            "invalid_chip_count", _("Count the chips on the table: 0.00 EUR or more."), rule="CSH-5"
        )
    table = table_for_update(session.table_id)
    session = _open_session(session.pk)
    if session.state == SeatState.AWAITING_BUY_IN:
        raise DomainError(
            "no_chips_yet", _("The player has not bought in yet."), rule="CSH-1", status_code=409
        )
    session.last_counted_cents = chips_cents
    if chips_cents < table.game.big_blind_cents:
        session.state = SeatState.SITTING_OUT
        session.dead_blind_cents = 0  # as when he sits out himself
    session.save(update_fields=["state", "last_counted_cents", "dead_blind_cents"])
    _event(
        session,
        SessionEventKind.STATE,
        actor=actor,
        now=now,
        chips_on_table_cents=chips_cents,
        detail=f"counted: {session.state}",
    )
    return session
