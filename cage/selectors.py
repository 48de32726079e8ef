"""What the cage's desk reads about one player across both games: his seat and session at a
cash table, his tournament entries, and everything he is owed (prizes, bounties, refunds,
jackpot shares). The cage is the one module that knows both games, so this is where the
player-centric desk's picture is put together; the games' own selectors stay game-only."""

from dataclasses import dataclass, field

from django.db.models import Q, Sum
from django.utils.translation import gettext as _

from cashgame.models import (
    CashTable,
    Hand,
    HandStatus,
    HighHandAward,
    JackpotShare,
    PlayerSession,
    SeatState,
    SessionEvent,
)
from cashier.models import CashierTransaction, ReversalRequest, TransactionKind
from chips.models import ChipSet, ChipSetKind
from chips.selectors import cash_chips_in_cage, chip_set_default
from players.models import Player
from tournaments.models import Entry, EntryPayment, EntryStatus, TournamentStatus
from tournaments.models import Table as TournamentTable
from tournaments.models import TableStatus as TournamentTableStatus

# Tournaments whose entries the desk still shows: the ones not yet over, and finished or
# cancelled ones while something is still owed (those are listed under "owed" instead).
LIVE_TOURNAMENT = ~Q(tournament__status__in=[TournamentStatus.FINISHED, TournamentStatus.CANCELLED])


@dataclass
class Owed:
    """One payment due to the player, ready for a one-tap pay button."""

    kind: str  # a TransactionKind the cage's one door takes
    amount_cents: int
    label: str
    tournament_id: int | None = None
    share_id: int | None = None


@dataclass
class PlayerDesk:
    player: Player
    session: PlayerSession | None
    entries: list[Entry]
    owed: list[Owed] = field(default_factory=list)
    transactions: list[CashierTransaction] = field(default_factory=list)
    # What the cage's cash-game chips are worth (CHP-2: a buy-in or top-up takes them).
    cage_chips_cents: int = 0
    # The player's seat is dealt in the hand in progress at his table (CSH-2: no cash-out now).
    dealt_in: bool = False

    @property
    def owed_cents(self) -> int:
        return sum(item.amount_cents for item in self.owed)


def player_desk_get(*, player: Player, transactions: int = 8) -> PlayerDesk:
    """The desk's picture of one player, in a fixed number of queries (pinned in the tests)."""
    session = (
        PlayerSession.objects.select_related("table__game")
        .filter(player=player, ended_at__isnull=True)
        .first()
    )
    entries = list(
        Entry.objects.filter(player=player)
        .filter(LIVE_TOURNAMENT, status__in=[EntryStatus.ACTIVE, EntryStatus.BUSTED])
        .select_related("tournament__rules", "table")
        .order_by("-tournament__start_at", "-number")[:10]
    )
    owed: list[Owed] = []
    for entry in (
        Entry.objects.filter(player=player, prize_cents__gt=0, prize_transaction__isnull=True)
        .select_related("tournament")
        .order_by("pk")
    ):
        owed.append(
            Owed(
                kind=TransactionKind.PRIZE_PAYOUT,
                amount_cents=entry.prize_cents,
                label=_("Prize, %(place)s. place, %(tournament)s")
                % {"place": entry.finish_place or "—", "tournament": entry.tournament.name},
                tournament_id=entry.tournament_id,
            )
        )
    for entry in (
        Entry.objects.filter(player=player)
        .annotate(due=Sum("bounties_won__amount_cents", filter=Q(bounties_won__transaction__isnull=True)))
        .filter(due__gt=0)
        .select_related("tournament")
        .order_by("pk")
    ):
        owed.append(
            Owed(
                kind=TransactionKind.BOUNTY_PAYOUT,
                amount_cents=entry.due,
                label=_("Bounties, %(tournament)s") % {"tournament": entry.tournament.name},
                tournament_id=entry.tournament_id,
            )
        )
    for entry in (
        Entry.objects.filter(player=player, status=EntryStatus.REFUND_DUE)
        .select_related("tournament")
        .order_by("pk")
    ):
        owed.append(
            Owed(
                kind=TransactionKind.REFUND,
                amount_cents=entry.refund_cents or 0,
                label=_("Refund, %(tournament)s") % {"tournament": entry.tournament.name},
                tournament_id=entry.tournament_id,
            )
        )
    # The cage's door pays the oldest unpaid share first; one button per share, oldest first.
    for share in JackpotShare.objects.filter(
        player=player, transaction__isnull=True, amount_cents__gt=0
    ).order_by("pk"):
        owed.append(
            Owed(
                kind=TransactionKind.JACKPOT_PAYOUT,
                amount_cents=share.amount_cents,
                label=_("Jackpot share (%(role)s)") % {"role": share.get_role_display()},
                share_id=share.pk,
            )
        )
    # LOY-2: high-hand prizes awarded at a period's end, paid from the promotion's fund.
    for award in (
        HighHandAward.objects.filter(player=player, transaction__isnull=True, amount_cents__gt=0)
        .select_related("period__promotion")
        .order_by("pk")
    ):
        owed.append(
            Owed(
                kind=TransactionKind.HIGH_HAND_PAYOUT,
                amount_cents=award.amount_cents,
                label=_("High-hand prize, %(promotion)s") % {"promotion": award.period.promotion.name},
            )
        )
    recent = list(
        CashierTransaction.objects.filter(player=player)
        .select_related("player")
        .order_by("-pk")[:transactions]
    )
    dealt_in = False
    if session is not None and session.table.hand_in_progress:
        hand = Hand.objects.filter(table=session.table_id, status=HandStatus.IN_PROGRESS).first()
        dealt_in = hand is not None and session.seat in hand.dealt_seats
    return PlayerDesk(
        player=player,
        session=session,
        entries=entries,
        owed=owed,
        transactions=recent,
        cage_chips_cents=cash_chips_in_cage(),
        dealt_in=dealt_in,
    )


def receipt_where(facts: "ReceiptFacts") -> str:
    """What a transaction was for, as its success message names it: the table and seat, or the
    tournament with the entry and, once drawn, its table and seat."""
    if facts.tournament:
        if facts.table:
            return _("%(tournament)s, entry %(entry)s, %(table)s, seat %(seat)s") % {
                "tournament": facts.tournament,
                "entry": facts.entry_number,
                "table": facts.table,
                "seat": facts.seat,
            }
        return _("%(tournament)s, entry %(entry)s") % {
            "tournament": facts.tournament,
            "entry": facts.entry_number,
        }
    if facts.table:
        return _("%(table)s, seat %(seat)s") % {"table": facts.table, "seat": facts.seat}
    return ""


def session_needs_buy_in(session: PlayerSession | None) -> bool:
    return session is not None and session.state == SeatState.AWAITING_BUY_IN


def entry_buys_open(entry: Entry) -> tuple[bool, bool]:
    """(rebuy, add-on) open for this live entry now (TRN-6), from the rules read with it."""
    rules = getattr(entry.tournament, "rules", None)
    if rules is None or entry.status != EntryStatus.ACTIVE:
        return False, False
    rebuy = rules.rebuy_level > 0 and rules.rebuys_closed_at is None and entry.rebuys < rules.max_rebuys
    add_on = rules.add_on_level > 0 and rules.add_ons_closed_at is None and not entry.add_ons
    return rebuy, add_on


@dataclass
class ReceiptFacts:
    """What a receipt says the money was for, beyond the ledger's reference: the tournament,
    the entry number and its table and seat; or the cash table and seat."""

    tournament: str = ""
    entry_number: int | None = None
    table: str = ""
    seat: int | None = None


def receipt_facts_get(*, record: CashierTransaction) -> ReceiptFacts:
    payment = (
        EntryPayment.objects.filter(cashier_transaction=record)
        .select_related("entry__tournament", "entry__table")
        .first()
    )
    entry = payment.entry if payment is not None else None
    if entry is None:
        entry = (
            Entry.objects.filter(Q(prize_transaction=record) | Q(refund_transaction=record))
            .select_related("tournament", "table")
            .first()
        )
    if entry is not None:
        return ReceiptFacts(
            tournament=entry.tournament.name,
            entry_number=entry.number,
            table=str(entry.table) if entry.table is not None else "",
            seat=entry.seat,
        )
    if record.reference.startswith("table:"):
        session = (
            PlayerSession.objects.filter(player_id=record.player_id, table_id=record.reference[6:] or None)
            .filter(started_at__lte=record.created_at)
            .select_related("table")
            .order_by("-started_at")
            .first()
        )
        if session is not None:
            return ReceiptFacts(table=str(session.table), seat=session.seat)
    return ReceiptFacts()


def posting_transaction(*, posting) -> CashierTransaction | None:
    """The cashier's transaction (receipt, amount, player) a correction reverses, if any."""
    return CashierTransaction.objects.select_related("player").filter(posting=posting).first()


def correction_next_step(*, posting) -> str:
    """What happens next at the table once a cash-game purchase or cash-out is reversed (CAG-6):
    the seat waits for a buy-in again, or the player is back in it, sitting out."""
    event = (
        SessionEvent.objects.filter(transaction__posting=posting)
        .select_related("session__player", "session__table")
        .first()
    )
    session = event.session if event is not None else None
    if session is None or not session.is_open:
        return ""
    values = {"player": session.player.full_name, "table": session.table, "seat": session.seat}
    if session.state == SeatState.AWAITING_BUY_IN:
        return (
            _(
                "%(table)s, seat %(seat)d waits for %(player)s to buy in again: the player buys in at "
                "the cage, or the floor frees the seat."
            )
            % values
        )
    if event.kind == "cash_out":
        return _("%(player)s is back at %(table)s, seat %(seat)d, sitting out, with the chips.") % values
    return ""


def reversal_list() -> list[ReversalRequest]:
    """Corrections newest first, each with the transaction it reverses (amount, player,
    receipt) so a manager sees what is being approved."""
    return list(
        ReversalRequest.objects.select_related(
            "posting__cashier_transaction__player", "requested_by", "decided_by"
        ).order_by("-requested_at")[:200]
    )


def chip_tables_list(*, chip_set: ChipSet) -> list[dict]:
    """The tables that play with `chip_set`, open ones first (CHP-2): {key, label, is_open}.
    Cash chips go to the cash tables; a tournament set to the open tables of the tournaments
    that play with it (the house's default set for tournaments that name none)."""
    if chip_set.kind == ChipSetKind.CASH:
        rows = [
            {"key": f"cash:{table.pk}", "label": str(table), "is_open": table.is_open}
            for table in CashTable.objects.order_by("number")
        ]
    else:
        default = chip_set_default(kind=ChipSetKind.TOURNAMENT)
        sets = Q(tournament__chip_set=chip_set)
        if default is not None and default.pk == chip_set.pk:
            sets |= Q(tournament__chip_set__isnull=True)
        rows = [
            {
                "key": f"tournament:{table.pk}",
                "label": f"{table.tournament.name} · {table}",
                "is_open": table.status == TournamentTableStatus.OPEN
                and table.tournament.status not in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED),
            }
            for table in TournamentTable.objects.filter(sets)
            .exclude(tournament__status__in=[TournamentStatus.FINISHED, TournamentStatus.CANCELLED])
            .select_related("tournament")
            .order_by("tournament_id", "number")
        ]
    return sorted(rows, key=lambda row: not row["is_open"])


def chip_table_names(*, keys) -> dict[str, str]:
    """{"cash:3": "Table 3", "tournament:12": "Friday Freezeout · Table 2"}: the tables of chip
    trays and slips named in the active language (the chip ledger keeps only their keys)."""
    cash, tournament = set(), set()
    for key in keys:
        game, _sep, number = (key or "").partition(":")
        if number.isdigit():
            (cash if game == "cash" else tournament if game == "tournament" else set()).add(int(number))
    names = {f"cash:{table.pk}": str(table) for table in CashTable.objects.filter(pk__in=cash)}
    names.update(
        {
            f"tournament:{table.pk}": f"{table.tournament.name} · {table}"
            for table in TournamentTable.objects.filter(pk__in=tournament).select_related("tournament")
        }
    )
    return names
