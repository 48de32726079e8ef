"""The cashier's session services: the first buy-in, top-ups and the cash-out (CSH-1..CSH-5)."""

from datetime import datetime

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.idempotency import run_once
from cardroom.money import MAX_CENTS, format_eur
from cardroom.roles import CASHIER_ROLES, require_role
from cashgame.models import CashTable, Game, PlayerSession, SeatState, SessionEventKind
from cashgame.services._common import lock_table, require_open
from cashgame.services.sessions._common import _check_seat_free, _current_hand, _event, _open_session
from cashier.models import PaymentMethod, Shift
from cashier.services import cash_buy_in, cash_out, cash_top_up
from chips.services import cash_chips_redeem, cash_chips_sell
from players.models import Player
from players.services import player_require_eligible


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


def _chips(move, *, actor, table: CashTable, amount_cents: int, now: datetime):
    """The chips that go with the money (CHP-2): from the cage to the player, or back. Called
    under the table's lock, before the cashier's rows are locked (the order every desk keeps)."""
    return move(
        actor=actor, amount_cents=amount_cents, table_key=f"cash:{table.pk}", table_label=str(table), now=now
    )


def _load_session(pk: int) -> PlayerSession:
    return PlayerSession.objects.select_related("player", "table").get(pk=pk)


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

    def buy_in() -> PlayerSession:
        locked = lock_table(table.pk)
        require_open(locked)
        # The player's open session and the seat's, in one read.
        wanted = Q(player=player) | Q(table=locked, seat=seat) if seat is not None else Q(player=player)
        # In every venue (VEN-1): a player seated in another venue is refused here, not by the
        # one-open-session index as a failure.
        found = list(PlayerSession.all_venues.filter(wanted, ended_at__isnull=True).select_related("table"))
        session = next((open_one for open_one in found if open_one.player_id == player.pk), None)
        if session is not None:
            if session.table_id != locked.pk or session.state != SeatState.AWAITING_BUY_IN:
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
            raise DomainError(
                "seat_required",
                _("%(player)s has no seat at %(table)s: say which seat they take, or seat them first.")
                % {"player": player.full_name, "table": locked},
                rule="CSH-1",
            )
        else:
            _check_seat_free(locked, seat, taken=bool(found))
        check_first_buy_in(locked.game, amount_cents)
        chips = _chips(cash_chips_sell, actor=actor, table=locked, amount_cents=amount_cents, now=now)
        record = cash_buy_in(
            actor=actor,
            shift=shift,
            player=player,
            amount_cents=amount_cents,
            method=method,
            reference=locked.reference,
            idempotency_key=idempotency_key,
            now=now,
        )
        bought = {
            "state": SeatState.WAITING_FOR_BUTTON,
            "started_at": now,
            "buy_in_cents": amount_cents,
            "last_counted_cents": amount_cents,
        }
        if session is None:
            session = PlayerSession.objects.create(table=locked, seat=seat, player=player, **bought)
        else:  # the seat the floor gave him while he went to the cage
            for field, value in bought.items():
                setattr(session, field, value)
            session.save(update_fields=list(bought))
        _event(
            session,
            SessionEventKind.BUY_IN,
            actor=actor,
            now=now,
            amount_cents=amount_cents,
            transaction=record,
            chip_posting=chips,
        )
        return session

    return run_once(
        key=idempotency_key,
        operation="cashgame.session_buy_in",
        request={
            "shift": shift.pk,
            "table": table.pk,
            "player": player.pk,
            "amount_cents": amount_cents,
            "seat": seat,
            "method": method,
        },
        run=buy_in,
        load=_load_session,
        # PLY-1 before the transaction opens: the logged refusal must survive the rollback.
        before=lambda: player_require_eligible(actor=actor, player=player, purpose=_("buy in"), now=now),
        now=now,
    )


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
    if not isinstance(chips_on_table_cents, int) or not 0 <= chips_on_table_cents <= MAX_CENTS:
        raise DomainError(
            "invalid_chip_count", _("Count the chips on the table: 0.00 EUR or more."), rule="CSH-5"
        )

    def top_up() -> PlayerSession:
        table = lock_table(session.table_id)
        locked = _open_session(session.pk)
        game = table.game
        if locked.state == SeatState.AWAITING_BUY_IN:
            raise DomainError(
                "first_buy_in_needed",
                _("%(player)s has no chips yet: this is the first buy-in.")
                % {"player": locked.player.full_name},
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
                _("With this top-up %(player)s would have %(total)s on the table; the maximum is %(max)s.")
                % {
                    "player": locked.player.full_name,
                    "total": format_eur(total),
                    "max": format_eur(game.max_buy_in_cents),
                },
                rule="CSH-1",
            )
        chips = _chips(cash_chips_sell, actor=actor, table=table, amount_cents=amount_cents, now=now)
        record = cash_top_up(
            actor=actor,
            shift=shift,
            player=locked.player,
            amount_cents=amount_cents,
            method=method,
            reference=table.reference,
            idempotency_key=idempotency_key,
            now=now,
        )
        if locked.state == SeatState.SITTING_OUT and chips_on_table_cents < game.big_blind_cents:
            locked.state = SeatState.PLAYING
        locked.top_up_cents += amount_cents
        locked.last_counted_cents = total
        locked.save(update_fields=["state", "top_up_cents", "last_counted_cents"])
        _event(
            locked,
            SessionEventKind.TOP_UP,
            actor=actor,
            now=now,
            amount_cents=amount_cents,
            chips_on_table_cents=chips_on_table_cents,
            transaction=record,
            chip_posting=chips,
        )
        return locked

    return run_once(
        key=idempotency_key,
        operation="cashgame.session_top_up",
        request={
            "shift": shift.pk,
            "session": session.pk,
            "amount_cents": amount_cents,
            "chips_on_table_cents": chips_on_table_cents,
            "method": method,
        },
        run=top_up,
        load=_load_session,
        before=lambda: player_require_eligible(
            actor=actor, player=session.player, purpose=_("top up"), now=now
        ),
        now=now,
    )


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
            _("Chips stay on the table until the player leaves: cash out only when giving up the seat."),
            rule="CSH-2",
        )
    if not isinstance(amount_cents, int) or not 0 <= amount_cents <= MAX_CENTS:
        raise DomainError("invalid_amount", _("The cash-out is 0.00 EUR or more."))

    def cash_out_session() -> PlayerSession:
        table = lock_table(session.table_id)
        locked = _open_session(session.pk)
        hand = _current_hand(table)
        if hand is not None and locked.seat in hand.dealt_seats:
            raise DomainError(
                "in_hand",
                _("%(player)s is dealt in the hand in progress: cash out after it ends.")
                % {"player": locked.player.full_name},
                rule="CSH-2",
                status_code=409,
            )
        record = chips = None
        if amount_cents:
            chips = _chips(cash_chips_redeem, actor=actor, table=table, amount_cents=amount_cents, now=now)
            record = cash_out(
                actor=actor,
                shift=shift,
                player=locked.player,
                amount_cents=amount_cents,
                reference=table.reference,
                idempotency_key=idempotency_key,
                now=now,
            )
        locked.ended_at = max(now, locked.started_at)
        locked.state = SeatState.ENDED
        locked.cash_out_cents = amount_cents
        locked.last_counted_cents = amount_cents
        locked.save(update_fields=["state", "ended_at", "cash_out_cents", "last_counted_cents"])
        _event(
            locked,
            SessionEventKind.CASH_OUT,
            actor=actor,
            now=now,
            amount_cents=amount_cents,
            transaction=record,
            chip_posting=chips,
        )
        return locked

    return run_once(
        key=idempotency_key,
        operation="cashgame.session_cash_out",
        request={"shift": shift.pk, "session": session.pk, "amount_cents": amount_cents},
        run=cash_out_session,
        load=_load_session,
        now=now,
    )
