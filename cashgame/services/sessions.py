"""Player sessions at cash tables: seat, buy in, top up, change seat or table, seat states and
cash out (CSH-1..CSH-6).

Money goes through the cashier's services (cash_buy_in, cash_top_up, cash_out) with the table's
chips-in-play account "table:<id>" as the reference; this module decides whether the house
rules allow it. A money service is a cashier's operation; seating, moves and seat states are
the floor's. Each service locks the table first (see _common for the lock order), so a top-up
and the start of a hand at the same table are ordered.
"""

from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import Conflict, DomainError
from cardroom.money import MAX_CENTS, format_eur
from cardroom.roles import CASHIER_ROLES, FLOOR_ROLES, require_role
from cardroom.services import audit_record
from cashgame.models import (
    CashTable,
    Game,
    Hand,
    HandStatus,
    PlayerSession,
    SeatState,
    SessionEvent,
    SessionEventKind,
)
from cashgame.services._common import lock_table, lock_tables, require_open
from cashier.models import AccountKind, PaymentMethod, Shift
from cashier.selectors import account_amount
from cashier.services import account_for, cash_buy_in, cash_out, cash_top_up, ledger_post
from players.models import Player
from players.services import player_require_eligible

# Seat states from which a player may be dealt in; the others wait (CSH-5, CSH-6).
DEALABLE = {SeatState.PLAYING}


def half_min_buy_in(game: Game) -> int:
    """CSH-5: chips on the table plus new chips must reach half the minimum buy-in (rounded up,
    so "half" is never a cent short)."""
    return (game.min_buy_in_cents + 1) // 2


def check_first_buy_in(game: Game, amount_cents: int) -> None:
    """CSH-1: a first buy-in is at least the minimum and at most the maximum."""
    if amount_cents < game.min_buy_in_cents:
        raise DomainError(
            "buy_in_below_minimum",
            _("The minimum buy-in at %(game)s is %(min)s; %(amount)s is not enough.")
            % {"game": game, "min": format_eur(game.min_buy_in_cents), "amount": format_eur(amount_cents)},
            rule="CSH-1",
        )
    if game.max_buy_in_cents is not None and amount_cents > game.max_buy_in_cents:
        raise DomainError(
            "buy_in_above_maximum",
            _("The maximum buy-in at %(game)s is %(max)s; buy in for at most that.")
            % {"game": game, "max": format_eur(game.max_buy_in_cents)},
            rule="CSH-1",
        )


def _open_session(session_id: int) -> PlayerSession:
    """The session re-read under its table's lock (the caller holds it)."""
    session = PlayerSession.objects.select_related("player").get(pk=session_id)
    if not session.is_open:
        raise DomainError("session_ended", _("This session has ended."), status_code=409)
    return session


def _current_hand(table: CashTable) -> Hand | None:
    if not table.hand_in_progress:
        return None
    return Hand.objects.filter(table=table, status=HandStatus.IN_PROGRESS).first()


def _check_seat_free(table: CashTable, seat: int, *, exclude: int | None = None) -> None:
    if not 1 <= seat <= table.seats:
        raise DomainError(
            "invalid_seat", _("%(table)s has seats 1 to %(seats)d.") % {"table": table, "seats": table.seats}
        )
    taken = PlayerSession.objects.filter(table=table, seat=seat, ended_at__isnull=True)
    if exclude is not None:
        taken = taken.exclude(pk=exclude)
    if taken.exists():
        raise DomainError(
            "seat_taken",
            _("Seat %(seat)d at %(table)s is taken.") % {"seat": seat, "table": table},
            status_code=409,
        )


def _check_not_seated(player: Player) -> None:
    other = PlayerSession.objects.filter(player=player, ended_at__isnull=True).select_related("table").first()
    if other is not None:
        raise DomainError(
            "already_seated",
            _("%(player)s already has seat %(seat)d at %(table)s.")
            % {"player": player.full_name, "seat": other.seat, "table": other.table},
            status_code=409,
        )


def _replayed(*, idempotency_key: str, kind: str, fields: dict) -> PlayerSession | None:
    """CAG-2 for the session's money services: the session this key already served, or None.
    The same key with a different request is a 409, as at the cashier."""
    event = (
        SessionEvent.objects.filter(transaction__idempotency_key=idempotency_key)
        .select_related("session", "transaction")
        .first()
    )
    if event is None:
        return None
    mine = {"kind": event.kind, "amount": event.amount_cents, "player": event.session.player_id}
    if mine != {"kind": kind, **fields}:
        raise Conflict(
            "idempotency_key_reused",
            _("This idempotency key was already used for a different request. Use a new key."),
            rule="CAG-2",
        )
    event.session.replayed = True
    return event.session


def _event(session: PlayerSession, kind: str, *, actor, now: datetime, **fields) -> SessionEvent:
    return SessionEvent.objects.create(session=session, kind=kind, actor=actor, at=now, **fields)


@transaction.atomic
def session_seat(
    *, actor, table: CashTable, player: Player, seat: int, now: datetime | None = None
) -> PlayerSession:
    """The floor seats a player (from the waiting list or directly); the seat is his, waiting
    for his first buy-in at the cage (CSH-1)."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    table = lock_table(table.pk)
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
    return session


def session_buy_in(
    *,
    actor,
    shift: Shift,
    table: CashTable,
    player: Player,
    amount_cents: int,
    idempotency_key: str,
    seat: int | None = None,
    method: str = PaymentMethod.CASH,
    now: datetime | None = None,
) -> PlayerSession:
    """The cashier sells a player his first chips at a table (CSH-1): at least the minimum, at
    most the maximum buy-in. The player takes the seat the floor gave him, or `seat` directly;
    he then waits for the button unless he posts (CSH-6)."""
    require_role(actor, *CASHIER_ROLES)
    now = now or timezone.now()
    replay = _replayed(
        idempotency_key=idempotency_key,
        kind=SessionEventKind.BUY_IN,
        fields={"amount": amount_cents, "player": player.pk},
    )
    if replay is not None:
        return replay
    # PLY-1 before the transaction opens: the logged refusal must survive the rollback.
    player_require_eligible(actor=actor, player=player, purpose=_("buy in"), now=now)
    with transaction.atomic():
        table = lock_table(table.pk)
        require_open(table)
        session = (
            PlayerSession.objects.filter(player=player, ended_at__isnull=True).select_related("table").first()
        )
        if session is not None:
            if session.table_id != table.pk or session.state != SeatState.AWAITING_BUY_IN:
                raise DomainError(
                    "already_seated",
                    _("%(player)s is already playing at %(table)s: chips are added with a top-up.")
                    % {"player": player.full_name, "table": session.table},
                    rule="CSH-1",
                    status_code=409,
                )
            if seat is not None and seat != session.seat:
                raise DomainError(
                    "seat_mismatch",
                    _("The floor gave %(player)s seat %(seat)d.")
                    % {"player": player.full_name, "seat": session.seat},
                    status_code=409,
                )
        elif seat is None:
            raise DomainError("seat_required", _("Say which seat the player takes."))
        else:
            _check_seat_free(table, seat)
        check_first_buy_in(table.game, amount_cents)
        record = cash_buy_in(
            actor=actor,
            shift=shift,
            player=player,
            amount_cents=amount_cents,
            method=method,
            reference=table.reference,
            idempotency_key=idempotency_key,
            now=now,
        )
        if session is None:
            session = PlayerSession.objects.create(
                table=table, seat=seat, player=player, state=SeatState.WAITING_FOR_BUTTON, started_at=now
            )
        session.state = SeatState.WAITING_FOR_BUTTON
        session.started_at = now
        session.buy_in_cents = amount_cents
        session.last_counted_cents = amount_cents
        session.save(update_fields=["state", "started_at", "buy_in_cents", "last_counted_cents"])
        _event(
            session,
            SessionEventKind.BUY_IN,
            actor=actor,
            now=now,
            amount_cents=amount_cents,
            transaction=record,
        )
    session.replayed = False
    return session


def session_top_up(
    *,
    actor,
    shift: Shift,
    session: PlayerSession,
    amount_cents: int,
    chips_on_table_cents: int,
    idempotency_key: str,
    method: str = PaymentMethod.CASH,
    now: datetime | None = None,
) -> PlayerSession:
    """More chips for a seated player, between hands only (CSH-3: refused, not queued, while the
    table has a hand in progress). The dealer counts the chips in front of him; those plus the
    new chips must reach half the minimum buy-in (CSH-5) and stay within the maximum (CSH-1).
    A player sitting out for want of a big blind is back in play once he has topped up."""
    require_role(actor, *CASHIER_ROLES)
    now = now or timezone.now()
    replay = _replayed(
        idempotency_key=idempotency_key,
        kind=SessionEventKind.TOP_UP,
        fields={"amount": amount_cents, "player": session.player_id},
    )
    if replay is not None:
        return replay
    if not isinstance(chips_on_table_cents, int) or not 0 <= chips_on_table_cents <= MAX_CENTS:
        raise DomainError(
            "invalid_chip_count", _("Count the chips on the table: 0.00 EUR or more."), rule="CSH-5"
        )
    player_require_eligible(actor=actor, player=session.player, purpose=_("top up"), now=now)
    with transaction.atomic():
        table = lock_table(session.table_id)
        session = _open_session(session.pk)
        game = table.game
        if session.state == SeatState.AWAITING_BUY_IN:
            raise DomainError(
                "first_buy_in_needed",
                _("The player has no chips yet: this is his first buy-in."),
                rule="CSH-1",
            )
        if table.hand_in_progress:
            raise DomainError(
                "hand_in_progress",
                _(
                    "A hand is in progress at %s: chips are added only between hands. "
                    "Repeat the top-up after it."
                )
                % table,
                rule="CSH-3",
                status_code=409,
            )
        total = chips_on_table_cents + amount_cents
        if total < half_min_buy_in(game):
            raise DomainError(
                "top_up_below_half_buy_in",
                _("Top-up needs at least %(half)s on the table in total (chips %(chips)s + new %(amount)s).")
                % {
                    "half": format_eur(half_min_buy_in(game)),
                    "chips": format_eur(chips_on_table_cents),
                    "amount": format_eur(amount_cents),
                },
                rule="CSH-5",
            )
        if game.max_buy_in_cents is not None and total > game.max_buy_in_cents:
            raise DomainError(
                "top_up_above_maximum",
                _("With this top-up the player would have %(total)s on the table; the maximum is %(max)s.")
                % {"total": format_eur(total), "max": format_eur(game.max_buy_in_cents)},
                rule="CSH-1",
            )
        record = cash_top_up(
            actor=actor,
            shift=shift,
            player=session.player,
            amount_cents=amount_cents,
            method=method,
            reference=table.reference,
            idempotency_key=idempotency_key,
            now=now,
        )
        if session.state == SeatState.SITTING_OUT and chips_on_table_cents < game.big_blind_cents:
            session.state = SeatState.PLAYING
        session.top_up_cents += amount_cents
        session.last_counted_cents = total
        session.save(update_fields=["state", "top_up_cents", "last_counted_cents"])
        _event(
            session,
            SessionEventKind.TOP_UP,
            actor=actor,
            now=now,
            amount_cents=amount_cents,
            chips_on_table_cents=chips_on_table_cents,
            transaction=record,
        )
    session.replayed = False
    return session


def session_cash_out(
    *,
    actor,
    shift: Shift,
    session: PlayerSession,
    amount_cents: int,
    idempotency_key: str,
    leaving: bool = True,
    now: datetime | None = None,
) -> PlayerSession:
    """The player leaves the seat and his chips become cash (CSH-2): the session ends. Taking
    part of the stack off the table while staying seated is refused. A player who lost all his
    chips leaves with 0.00 EUR: the session ends and no money moves."""
    require_role(actor, *CASHIER_ROLES)
    now = now or timezone.now()
    if not leaving:
        raise DomainError(
            "partial_cash_out",
            _("Chips stay on the table until the player leaves: cash out only when he gives up the seat."),
            rule="CSH-2",
        )
    if not isinstance(amount_cents, int) or not 0 <= amount_cents <= MAX_CENTS:
        raise DomainError("invalid_amount", _("The cash-out is 0.00 EUR or more."))
    if amount_cents:
        replay = _replayed(
            idempotency_key=idempotency_key,
            kind=SessionEventKind.CASH_OUT,
            fields={"amount": amount_cents, "player": session.player_id},
        )
        if replay is not None:
            return replay
    with transaction.atomic():
        table = lock_table(session.table_id)
        session = _open_session(session.pk)
        hand = _current_hand(table)
        if hand is not None and session.seat in hand.dealt_seats:
            raise DomainError(
                "in_hand",
                _("The player is dealt in the hand in progress: cash out after it ends."),
                rule="CSH-2",
                status_code=409,
            )
        record = None
        if amount_cents:
            record = cash_out(
                actor=actor,
                shift=shift,
                player=session.player,
                amount_cents=amount_cents,
                reference=table.reference,
                idempotency_key=idempotency_key,
                now=now,
            )
        session.ended_at = max(now, session.started_at)
        session.cash_out_cents = amount_cents
        session.last_counted_cents = amount_cents
        session.save(update_fields=["ended_at", "cash_out_cents", "last_counted_cents"])
        _event(
            session,
            SessionEventKind.CASH_OUT,
            actor=actor,
            now=now,
            amount_cents=amount_cents,
            transaction=record,
        )
    session.replayed = False
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
    tables = lock_tables(source_id, table.pk)
    source, target = tables[source_id], tables[table.pk]
    session = _open_session(session.pk)
    if session.table_id != source_id:
        raise DomainError("session_moved", _("The player was just moved; reload."), status_code=409)
    require_open(target)
    hand = _current_hand(source)
    if hand is not None and session.seat in hand.dealt_seats:
        raise DomainError(
            "in_hand", _("The player is dealt in the hand in progress: move him after it."), status_code=409
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
    before = {"table": source.pk, "seat": session.seat}
    session.table = target
    session.seat = seat
    session.save(update_fields=["table", "seat", "state", "last_counted_cents"])
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


# action -> (states it applies to, state it leads to)
STATE_ACTIONS: dict[str, tuple[set[str], str]] = {
    "posted": ({SeatState.OWES_BLINDS, SeatState.WAITING_FOR_BUTTON}, SeatState.PLAYING),
    "button_passed": ({SeatState.WAITING_FOR_BUTTON}, SeatState.PLAYING),
    "sit_out": (
        {SeatState.PLAYING, SeatState.WAITING_FOR_BUTTON, SeatState.OWES_BLINDS},
        SeatState.SITTING_OUT,
    ),
    "missed_blinds": ({SeatState.SITTING_OUT}, SeatState.OWES_BLINDS),
    "back": ({SeatState.SITTING_OUT}, SeatState.PLAYING),
}


@transaction.atomic
def session_state_change(
    *, actor, session: PlayerSession, action: str, now: datetime | None = None
) -> PlayerSession:
    """The dealer's taps on a seat (CSH-5, CSH-6): a player who missed his blinds while away
    owes them and is dealt in again only after posting; a new player waits for the button to
    pass unless he posts; a player short of one big blind stays out until he tops up."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    if action not in STATE_ACTIONS:
        raise DomainError("unknown_action", _("Unknown seat action: %s") % action)
    table = lock_table(session.table_id)
    session = _open_session(session.pk)
    allowed, target = STATE_ACTIONS[action]
    if session.state not in allowed:
        if session.state == SeatState.OWES_BLINDS:
            message = _("The player owes his missed blinds: he is back in only after posting them.")
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
            _("The player has less than one big blind (%s): he tops up first.")
            % format_eur(table.game.big_blind_cents),
            rule="CSH-5",
            status_code=409,
        )
    session.state = target
    session.save(update_fields=["state"])
    _event(session, SessionEventKind.STATE, actor=actor, now=now, detail=f"{action}: {target}")
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
    table = lock_table(session.table_id)
    session = _open_session(session.pk)
    if session.state == SeatState.AWAITING_BUY_IN:
        raise DomainError(
            "no_chips_yet", _("The player has not bought in yet."), rule="CSH-1", status_code=409
        )
    session.last_counted_cents = chips_cents
    if chips_cents < table.game.big_blind_cents:
        session.state = SeatState.SITTING_OUT
    session.save(update_fields=["state", "last_counted_cents"])
    _event(
        session,
        SessionEventKind.STATE,
        actor=actor,
        now=now,
        chips_on_table_cents=chips_cents,
        detail=f"counted: {session.state}",
    )
    return session
