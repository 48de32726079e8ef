"""The cage's one door to every game's money (CAG-6).

A cashier asks for a transaction by its kind: a cash-game buy-in, a tournament entry, a prize.
Each kind goes to the service of its game, which checks that game's rules (CSH-1..5, TRN-2/6/10)
and makes the cashier transaction itself; this module only finds the player's seat, session or
entry the request is about. The desk's form and `POST /api/cashier/transactions/` both come
here, so no page or endpoint can move game money around the game's rules.

Corrections go the same way: a reversal of a game's transaction is refused when the game cannot
follow it (an entry that has played), and otherwise the game's records change in the same
transaction as the reversal posting.
"""

from dataclasses import asdict, dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cage import printouts
from cardroom.errors import DomainError, NotFound
from cardroom.idempotency import run_once
from cardroom.money import format_eur
from cashgame.models import CashTable, HighHandAward, JackpotShare, PlayerSession
from cashgame.services import sessions as cash_sessions
from cashgame.services.highhand import highhand_award_pay
from cashgame.services.jackpot import jackpot_share_pay
from cashier.models import (
    CashierTransaction,
    PaymentMethod,
    Posting,
    ReversalRequest,
    Shift,
    TransactionKind,
)
from cashier.services import reversal_approve, reversal_request
from chips import services as chips_services
from chips.models import ChipPosting, ChipPostingKind, ChipSet, ChipSetKind
from chips.services import TableRef
from players.models import Player
from tournaments.models import Entry, EntryStatus, Tournament, TournamentStatus
from tournaments.models import Table as TournamentTable
from tournaments.models import TableStatus as TournamentTableStatus
from tournaments.services import registration
from tournaments.services.payouts import bounty_pay, prize_pay

CASH_GAME_KINDS = {
    TransactionKind.CASH_BUY_IN,
    TransactionKind.TOP_UP,
    TransactionKind.CASH_OUT,
    TransactionKind.JACKPOT_PAYOUT,
    TransactionKind.HIGH_HAND_PAYOUT,
}


@dataclass(frozen=True)
class DeskRequest:
    """One transaction asked for at the desk, parsed (amounts in cents)."""

    kind: str
    player_id: int
    amount_cents: int | None = None
    method: str = PaymentMethod.CASH
    table_id: int | None = None
    seat: int | None = None
    chips_on_table_cents: int | None = None
    tournament_id: int | None = None
    ticket_id: int | None = None  # a tournament entry paid with this ticket (SER-1)


def _player(request: DeskRequest) -> Player:
    player = Player.objects.filter(pk=request.player_id).first()
    if player is None:
        raise NotFound("unknown_player", _("Unknown player."))
    return player


def _open_session(request: DeskRequest, what: str) -> PlayerSession:
    """The requesting player's open session, read with the player (a top-up or a cash-out needs
    him only with his seat)."""
    session = (
        PlayerSession.objects.select_related("table", "player")
        .filter(player_id=request.player_id, ended_at__isnull=True)
        .first()
    )
    if session is None:
        player = _player(request)  # an unknown player is told so, not that he has no seat
        raise DomainError(
            "no_session",
            _("%(player)s has no seat at a cash table: there is no %(what)s to make.")
            % {"player": player.full_name, "what": what},
            rule="CAG-6",
            status_code=409,
        )
    if request.table_id is not None and session.table_id != request.table_id:
        raise DomainError(
            "other_table",
            _("%(player)s plays at %(table)s, not at the table given.")
            % {"player": session.player.full_name, "table": session.table},
            rule="CAG-6",
            status_code=409,
        )
    return session


def _require_amount(request: DeskRequest) -> int:
    if request.amount_cents is None:
        raise DomainError("amount_required", _("Enter the amount."))
    return request.amount_cents


def _tournament(request: DeskRequest) -> Tournament:
    if request.tournament_id is None:
        raise DomainError("tournament_required", _("Say which tournament this is for."))
    tournament = Tournament.objects.filter(pk=request.tournament_id).first()
    if tournament is None:
        raise NotFound("unknown_tournament", _("Unknown tournament."))
    return tournament


def _entry(player: Player, tournament: Tournament, *, statuses, what: str) -> Entry:
    entry = tournament.entries.filter(player=player, status__in=statuses).order_by("-number").first()
    if entry is None:
        raise DomainError(
            "no_entry",
            _("%(player)s has no entry in %(tournament)s for %(what)s.")
            % {"player": player.full_name, "tournament": tournament.name, "what": what},
            rule="CAG-6",
            status_code=409,
        )
    return entry


def _check_typed_amount(request: DeskRequest, owed: int, what: str) -> None:
    """An amount typed for a payment the game computes must be that amount, never another."""
    if request.amount_cents is not None and request.amount_cents != owed:
        raise DomainError(
            "amount_differs",
            _("%(what)s is %(owed)s, not %(typed)s.")
            % {"what": what, "owed": format_eur(owed), "typed": format_eur(request.amount_cents)},
            rule="CAG-6",
        )


def transaction_route(
    *, actor, shift: Shift, request: DeskRequest, idempotency_key: str, now: datetime | None = None
) -> CashierTransaction:
    """Carry out a desk request through its game's service; answer with the cashier
    transaction it made (the same one again for a repeated key, CAG-2).

    The key is the desk's: the game's service records it under this door's request, so a
    repeat is answered here even when the first request changed what this module looks up
    before the game's service is reached (a cash-out ended the session; a prize, refund or
    share was paid)."""
    return run_once(
        key=idempotency_key,
        operation="cage.transaction_route",
        request={"shift": shift.pk, **asdict(request)},
        run=lambda: _route(
            actor=actor, shift=shift, request=request, idempotency_key=idempotency_key, now=now
        ),
        load=lambda _game_record_id: _made_with(idempotency_key),
        routes=True,
        now=now,
    )


def _made_with(idempotency_key: str) -> CashierTransaction:
    return CashierTransaction.objects.select_related("cashier", "player").get(idempotency_key=idempotency_key)


def _route(
    *, actor, shift: Shift, request: DeskRequest, idempotency_key: str, now: datetime | None
) -> CashierTransaction:
    now = now or timezone.now()
    common = {"actor": actor, "shift": shift, "idempotency_key": idempotency_key, "now": now}
    kind = request.kind
    # A top-up or a cash-out reads the player with his session; every other kind reads him here.
    player = None if kind in (TransactionKind.TOP_UP, TransactionKind.CASH_OUT) else _player(request)
    if kind == TransactionKind.CASH_BUY_IN:
        if request.table_id is None:
            raise DomainError("table_required", _("Say which table the chips are for."), rule="CSH-1")
        cash_sessions.session_buy_in(
            **common,
            table=CashTable(pk=request.table_id),  # read under its lock (an unknown one is a 404)
            player=player,
            amount_cents=_require_amount(request),
            seat=request.seat,
            method=request.method,
        )
    elif kind == TransactionKind.TOP_UP:
        if request.chips_on_table_cents is None:
            raise DomainError(
                "chips_count_required",
                _("Give the chips the dealer counted in front of the player."),
                rule="CSH-5",
            )
        cash_sessions.session_top_up(
            **common,
            session=_open_session(request, _("top-up")),
            amount_cents=_require_amount(request),
            chips_on_table_cents=request.chips_on_table_cents,
            method=request.method,
        )
    elif kind == TransactionKind.CASH_OUT:
        amount = _require_amount(request)
        if amount <= 0:
            raise DomainError(
                "nothing_to_pay",
                _("A cash-out of 0.00 EUR moves no money: end the session at the table."),
                rule="CSH-2",
            )
        cash_sessions.session_cash_out(
            **common, session=_open_session(request, _("cash-out")), amount_cents=amount
        )
    elif kind == TransactionKind.JACKPOT_PAYOUT:
        share = (
            JackpotShare.objects.filter(player=player, transaction__isnull=True, amount_cents__gt=0)
            .order_by("pk")
            .first()
        )
        if share is None:
            raise DomainError(
                "no_share_due",
                _("%(player)s has no jackpot share to collect.") % {"player": player.full_name},
                rule="JKP-3",
                status_code=409,
            )
        _check_typed_amount(request, share.amount_cents, _("The jackpot share"))
        jackpot_share_pay(**common, share=share)
    elif kind == TransactionKind.HIGH_HAND_PAYOUT:
        # LOY-2: the oldest unpaid high-hand prize of the player, from the promotion's fund.
        award = (
            HighHandAward.objects.filter(player=player, transaction__isnull=True, amount_cents__gt=0)
            .order_by("pk")
            .first()
        )
        if award is None:
            raise DomainError(
                "no_award_due",
                _("%(player)s has no high-hand prize to collect.") % {"player": player.full_name},
                rule="LOY-2",
                status_code=409,
            )
        _check_typed_amount(request, award.amount_cents, _("The high-hand prize"))
        highhand_award_pay(**common, award=award)
    else:
        _tournament_route(player=player, request=request, common=common)
    return _made_with(idempotency_key)


def _tournament_route(*, player: Player, request: DeskRequest, common: dict) -> None:
    tournament = _tournament(request)
    kind = request.kind
    if kind in (TransactionKind.TOURNAMENT_BUY_IN, TransactionKind.RE_ENTRY):
        _check_typed_amount(request, tournament.buy_in_cents, _("The buy-in of %s") % tournament.name)
        registration.entry_register(
            **common, tournament=tournament, player=player, method=request.method, ticket_id=request.ticket_id
        )
    elif kind in (TransactionKind.REBUY, TransactionKind.ADD_ON):
        entry = _entry(player, tournament, statuses=[EntryStatus.ACTIVE], what=_("chips"))
        buy = registration.entry_rebuy if kind == TransactionKind.REBUY else registration.entry_add_on
        buy(**common, entry=entry, method=request.method)
    elif kind == TransactionKind.REFUND:
        entry = _entry(
            player, tournament, statuses=[EntryStatus.REFUND_DUE, EntryStatus.ACTIVE], what=_("a refund")
        )
        if entry.status == EntryStatus.REFUND_DUE:
            _check_typed_amount(request, entry.refund_cents, _("The refund"))
            registration.refund_pay(**common, entry=entry)
        else:
            registration.entry_withdraw(**common, entry=entry, method=request.method)
    elif kind == TransactionKind.PRIZE_PAYOUT:
        entry = _entry(
            player, tournament, statuses=[EntryStatus.ACTIVE, EntryStatus.BUSTED], what=_("a prize")
        )
        _check_typed_amount(request, entry.prize_cents or 0, _("The prize"))
        prize_pay(**common, entry=entry)
    elif kind == TransactionKind.BOUNTY_PAYOUT:
        entry = _entry(
            player, tournament, statuses=[EntryStatus.ACTIVE, EntryStatus.BUSTED], what=_("bounties")
        )
        bounty_pay(**common, entry=entry)
    else:
        raise DomainError("invalid_kind", _("Unknown transaction: %s") % kind)


def _game_of(posting: Posting):
    """The module whose records follow a reversal of this posting (CAG-6)."""
    record = CashierTransaction.objects.filter(posting=posting).first()
    if record is None:
        raise DomainError(
            "not_a_cashier_transaction",
            _(
                "Only a cashier transaction can be reversed here; this posting is corrected "
                "where it was made."
            ),
            rule="CAG-6",
            status_code=409,
        )
    return (cash_sessions if record.kind in CASH_GAME_KINDS else registration), record


def correction_request(
    *, actor, posting: Posting, reason: str, now: datetime | None = None
) -> ReversalRequest:
    """Ask for a reversal; refused at once when the game could not follow it."""
    game, record = _game_of(posting)
    game.transaction_reversal_check(record=record)
    return reversal_request(actor=actor, posting=posting, reason=reason, now=now)


@transaction.atomic
def correction_approve(*, actor, request: ReversalRequest, now: datetime | None = None) -> Posting:
    """A second manager approves: the game's records follow (first, holding the game's locks)
    and the reversal is posted, in one transaction."""
    now = now or timezone.now()
    game, record = _game_of(request.posting)
    game.transaction_reversed(actor=actor, record=record, now=now)
    return reversal_approve(actor=actor, request=request, now=now)


@transaction.atomic
def table_chips_move(
    *,
    actor,
    chip_set: ChipSet,
    table_key: str,
    kind: str,
    chips: dict[int, int],
    dealer_name: str,
    floor_name: str,
    now: datetime | None = None,
    request_key: str | None = None,
) -> ChipPosting:
    """A fill (cage -> the table's tray) or a credit (tray -> cage) of `chip_set` (CHP-2). The
    table's row is locked while its state is read, so a fill cannot pass a table closing at the
    same moment; a closed table gets no fill (chips.services.table_fill)."""
    now = now or timezone.now()
    game, _sep, number = table_key.partition(":")
    if not number.isdigit() or len(number) > 9:
        raise NotFound("unknown_table", _("Unknown table."))
    if game == "cash" and chip_set.kind == ChipSetKind.CASH:
        table = CashTable.objects.select_for_update(of=("self",), no_key=True).filter(pk=int(number)).first()
        ref = table and TableRef(key=table_key, label=str(table), is_open=table.is_open, chip_set=chip_set)
    elif game == "tournament" and chip_set.kind == ChipSetKind.TOURNAMENT:
        table = (
            TournamentTable.objects.select_for_update(of=("self",))
            .select_related("tournament")
            .filter(pk=int(number))
            .first()
        )
        ref = table and TableRef(
            key=table_key,
            label=f"{table.tournament.name} · {table}",
            is_open=table.status == TournamentTableStatus.OPEN
            and table.tournament.status not in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED),
            chip_set=chip_set,
        )
    else:
        ref = None
    if not ref:
        raise NotFound("unknown_table", _("Unknown table."))
    move = chips_services.table_fill if kind == ChipPostingKind.FILL else chips_services.table_credit
    posting = move(
        actor=actor,
        table=ref,
        chips=chips,
        dealer_name=dealer_name,
        floor_name=floor_name,
        now=now,
        request_key=request_key,
    )
    printouts.chip_slip_print(actor=actor, posting_id=posting.pk)
    return posting
