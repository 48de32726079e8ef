"""Seating (TRN-9): the seat draw, seats for late entries, balancing and breaking tables after
bust-outs with move slips, the final table draw, and the button draw (HND-2).

The algorithms are poker.seating's; this module reads the layout from the entries, applies the
moves to the database (the seat changes at once; a move slip waits for the floor to confirm the
player moved) and audits every change. Callers hold the tournament's row lock.
"""

import random
from datetime import datetime

from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.roles import FLOOR_ROLES, require_role
from cardroom.services import audit_record
from poker.common import PokerError
from poker.hands import button_draw
from poker.seating import (
    Layout,
    Move,
    apply_moves,
    balance_tables,
    draw_seats,
    final_table_draw,
    net_moves,
    table_break_order,
)
from tournaments import refusals
from tournaments.models import Entry, EntryStatus, MoveReason, MoveSlip, Table, TableStatus, Tournament
from tournaments.selectors.seating import bust_plan, seating_state, waiting_slips
from tournaments.services import clock
from tournaments.services._common import lock_tournament
from tournaments.services.player_notices import draw_told


def _rng(rng: random.Random | None) -> random.Random:
    return rng or random.SystemRandom()


def _apply(
    tournament: Tournament, moves: list[Move], *, layout: Layout, reason: str, actor, now: datetime
) -> list[MoveSlip]:
    """Write the moves made from `layout` (in order) and one slip per player who ends somewhere
    else than the seat they sit in (TRN-9). A player whose earlier slip still waits sits in that
    slip's seat: the waiting slip is marked replaced and the new one starts from its seat, or
    there is none when the player ends in it (the move is called off). So the floor never holds
    two slips for one player (the database refuses two waiting slips for one entry)."""
    if not moves:
        return []
    tables = {table.number: table for table in tournament.tables.all()}
    waiting = {
        slip.entry_id: slip
        for slip in waiting_slips(tournament)
        .select_for_update(of=("self",))
        .filter(entry_id__in={move.player_id for move in moves})
        .order_by("pk")
    }
    origins = {pk: (slip.from_table, slip.from_seat) for pk, slip in waiting.items()}
    # Players per table as each move is made, so each slip says why: "table 3 has 9, table 5 has 7".
    counts = {number: len(seats) for number, seats in layout.items()}
    why: dict[int, tuple[int, int]] = {}
    last: dict[int, tuple[int, int]] = {}
    for move in moves:
        why.setdefault(move.player_id, (counts.get(move.from_table, 0), counts.get(move.to_table, 0)))
        counts[move.from_table] = counts.get(move.from_table, 0) - 1
        counts[move.to_table] = counts.get(move.to_table, 0) + 1
        last[move.player_id] = (move.to_table, move.to_seat)
    entries = {entry.pk: entry for entry in Entry.objects.filter(pk__in=last)}
    # Everyone moving stands up first, then sits down: a seat may pass from one mover to another.
    for entry in entries.values():
        entry.table, entry.seat = None, None
    Entry.objects.bulk_update(entries.values(), ["table", "seat"])
    for pk, (table_number, seat) in last.items():
        entries[pk].table, entries[pk].seat = tables[table_number], seat
    Entry.objects.bulk_update(entries.values(), ["table", "seat"])
    MoveSlip.objects.filter(pk__in=[slip.pk for slip in waiting.values()]).update(replaced_at=now)
    slips = MoveSlip.objects.bulk_create(
        [
            MoveSlip(
                tournament=tournament,
                entry=entries[move.player_id],
                from_table=move.from_table,
                from_seat=move.from_seat,
                to_table=move.to_table,
                to_seat=move.to_seat,
                reason=reason,
                from_table_players=why[move.player_id][0],
                to_table_players=why[move.player_id][1],
                created_at=now,
            )
            for move in net_moves(moves, origins)
        ]
    )
    audit_record(
        actor=actor,
        action=f"seating.{reason}",
        obj=tournament,
        after={
            "moves": [[entries[s.entry_id].number, str(s)] for s in slips],
            "replaced": [[entries[pk].number, str(slip)] for pk, slip in waiting.items()],
        },
        now=now,
    )
    return slips


def seating_draw(
    *, actor, tournament: Tournament, now: datetime | None = None, rng: random.Random | None = None
) -> list[Table]:
    """Draw every live entry a random seat (TRN-9) on as few tables as hold them, sizes within
    one of each other, and draw the order in which the tables will break."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    rng = _rng(rng)
    with transaction.atomic():
        tournament = lock_tournament(tournament.pk)
        refusal = refusals.seat_draw_refusal(tournament)
        if refusal is not None:
            raise refusal
        entries = list(tournament.entries.filter(status=EntryStatus.ACTIVE).order_by("pk"))
        layout = draw_seats([e.pk for e in entries], seats_per_table=tournament.table_size, rng=rng)
        order = table_break_order(layout, rng)
        tables = Table.objects.bulk_create(
            [
                Table(tournament=tournament, number=number, seats=tournament.table_size, break_rank=rank)
                for rank, number in enumerate(order, start=1)
            ]
        )
        by_number = {table.number: table for table in tables}
        by_id = {entry.pk: entry for entry in entries}
        for number, seats in layout.items():
            for seat, pk in seats.items():
                by_id[pk].table, by_id[pk].seat = by_number[number], seat
        Entry.objects.bulk_update(entries, ["table", "seat"])
        audit_record(
            actor=actor,
            action="seating.draw",
            obj=tournament,
            after={
                "tables": sorted(layout),
                "break_order": order,
                "seats": {e.number: [e.table.number, e.seat] for e in entries},
            },
            now=now,
        )
        draw_told(tournament, now=now)
    return sorted(tables, key=lambda table: table.number)


def _open_table(tournament: Tournament, *, actor, now: datetime) -> int:
    """A new table, numbered after every table so far. It goes first in the break order: the
    players just moved to it are the first to go back, often before they have moved at all, so
    breaking it costs the fewest moves (TRN-9). The caller holds the lock."""
    before = list(
        tournament.tables.filter(status=TableStatus.OPEN)
        .order_by("break_rank")
        .values_list("number", flat=True)
    )
    number = (tournament.tables.aggregate(top=Max("number"))["top"] or 0) + 1
    tournament.tables.update(break_rank=F("break_rank") + 1)
    Table.objects.create(tournament=tournament, number=number, seats=tournament.table_size, break_rank=1)
    audit_record(
        actor=actor,
        action="seating.table_open",
        obj=tournament,
        before={"break_order": before},
        after={"table": number, "break_order": [number, *before]},
        now=now,
    )
    return number


def seat_new_entry(
    *, actor, tournament: Tournament, entry: Entry, now: datetime, rng: random.Random | None = None
) -> list[MoveSlip]:
    """A late entry or re-entry takes a free seat at one of the shortest tables in play (TRN-9);
    a new table opens only when no seat is free, and the others are balanced onto it. A seat that
    a player with a waiting move slip has not left yet is taken last. The caller holds the lock."""
    rng = _rng(rng)
    state = seating_state(tournament=tournament)
    slips: list[MoveSlip] = []
    if all(len(seats) >= state.size for seats in state.layout.values()):
        number = _open_table(tournament, actor=actor, now=now)
        layout = {**state.layout, number: {}}
        moves = balance_tables(layout, seats_per_table=state.size, buttons=state.buttons)
        slips = _apply(tournament, moves, layout=layout, reason=MoveReason.LATE, actor=actor, now=now)
        state = seating_state(tournament=tournament)
    free = {number: seats for number, seats in state.layout.items() if len(seats) < state.size}
    fewest = min(len(seats) for seats in free.values())
    number = rng.choice(sorted(n for n, seats in free.items() if len(seats) == fewest))
    open_seats = [s for s in range(1, state.size + 1) if s not in state.layout[number]]
    still_taken = set(state.origins.values())
    seat = rng.choice([s for s in open_seats if (number, s) not in still_taken] or open_seats)
    entry.table = tournament.tables.get(number=number)
    entry.seat = seat
    entry.save(update_fields=["table", "seat"])
    audit_record(
        actor=actor, action="seating.seat", obj=entry, after={"table": number, "seat": seat}, now=now
    )
    return slips


@transaction.atomic
def seating_table_open(*, actor, tournament: Tournament, now: datetime | None = None) -> list[MoveSlip]:
    """The floor opens a new table while seats are still free (TRN-9), for the late entries it
    expects: the tables are balanced onto it, moving the next big blind of the fullest table each
    time, and it breaks first when the field shrinks again."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    tournament = lock_tournament(tournament.pk)
    clock.advance_locked(tournament, now=now)
    refusal = refusals.table_open_refusal(tournament)
    if refusal is not None:
        raise refusal
    state = seating_state(tournament=tournament)
    number = _open_table(tournament, actor=actor, now=now)
    layout = {**state.layout, number: {}}
    moves = balance_tables(layout, seats_per_table=state.size, buttons=state.buttons)
    return _apply(tournament, moves, layout=layout, reason=MoveReason.OPEN, actor=actor, now=now)


def slips_call_off(*, actor, tournament: Tournament, entry_ids: list[int], now: datetime) -> None:
    """Players out of the tournament move nowhere: their waiting slips are called off (marked
    replaced). The caller holds the lock."""
    slips = list(waiting_slips(tournament).filter(entry_id__in=entry_ids).select_related("entry"))
    if not slips:
        return
    MoveSlip.objects.filter(pk__in=[slip.pk for slip in slips]).update(replaced_at=now)
    audit_record(
        actor=actor,
        action="seating.slips_called_off",
        obj=tournament,
        after={"moves": [[slip.entry.number, str(slip)] for slip in slips]},
        now=now,
    )


def rebalance(
    *, actor, tournament: Tournament, now: datetime, rng: random.Random | None = None
) -> list[MoveSlip]:
    """After a bust-out: carry out `bust_plan` (the plan the seat panel showed the floor): close a
    table left empty, break every table the others can absorb, taken in the pre-drawn order, all
    in one pass, then balance so no table has two players more than another (TRN-9). The caller
    holds the lock."""
    state = seating_state(tournament=tournament)
    plan = bust_plan(state, rng=_rng(rng))
    slips: list[MoveSlip] = []
    if plan.closed:
        # A table whose last player busted is broken as it stands; no one moves.
        tournament.tables.filter(number__in=plan.closed).update(status=TableStatus.BROKEN)
        audit_record(
            actor=actor, action="seating.close_empty", obj=tournament, after={"tables": plan.closed}, now=now
        )
    layout = {number: seats for number, seats in state.layout.items() if number not in plan.closed}
    if plan.breaking:
        slips += _apply(
            tournament, plan.break_moves, layout=layout, reason=MoveReason.BREAK, actor=actor, now=now
        )
        tournament.tables.filter(number__in=plan.breaking).update(status=TableStatus.BROKEN)
        for number in plan.breaking:
            audit_record(
                actor=actor, action="seating.break_table", obj=tournament, after={"table": number}, now=now
            )
        layout = {
            n: seats for n, seats in apply_moves(layout, plan.break_moves).items() if n not in plan.breaking
        }
    slips += _apply(
        tournament, plan.balance_moves, layout=layout, reason=MoveReason.BALANCE, actor=actor, now=now
    )
    return slips


@transaction.atomic
def seating_final_table_draw(
    *, actor, tournament: Tournament, now: datetime | None = None, rng: random.Random | None = None
) -> list[MoveSlip]:
    """Everyone left draws a new seat at the final table (TRN-9); the button is drawn after."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    tournament = lock_tournament(tournament.pk)
    clock.advance_locked(tournament, now=now)
    refusal = refusals.final_table_refusal(tournament)
    if refusal is not None:
        raise refusal
    state = seating_state(tournament=tournament)
    layout = {number: seats for number, seats in state.layout.items() if seats}
    # The final table is the one drawn to break last.
    final = [number for number in state.break_order if number in layout][-1]
    try:
        moves = final_table_draw(layout, final_table=final, seats_per_table=state.size, rng=_rng(rng))
    except PokerError as error:  # the refusal above checked the count; the layout is the database's
        raise DomainError("too_many_for_final", str(error), rule="TRN-9", status_code=409) from error
    slips = _apply(tournament, moves, layout=layout, reason=MoveReason.FINAL, actor=actor, now=now)
    tournament.tables.filter(status=TableStatus.OPEN).exclude(number=final).update(status=TableStatus.BROKEN)
    tournament.tables.filter(number=final).update(button_seat=None)
    return slips


@transaction.atomic
def table_button_draw(*, actor, table: Table, cards: dict[int, str], now: datetime | None = None) -> Table:
    """Record the button draw (HND-2): each seated player's card; highest card, ties by suit
    (spades > hearts > diamonds > clubs), takes the button."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    tournament = lock_tournament(table.tournament_id)
    table = Table.objects.select_for_update().get(pk=table.pk)
    seats = occupied_seats(tournament, table)
    if set(cards) != seats:
        raise DomainError(
            "draw_needs_every_seat",
            _("Every seated player draws one card: seats %s.") % ", ".join(map(str, sorted(seats))),
            rule="HND-2",
        )
    try:
        seat = button_draw(cards)
    except PokerError as error:
        raise DomainError("invalid_cards", str(error), rule="HND-2") from error
    cards_drawn = {str(k): v for k, v in cards.items()}
    return button_move(
        actor=actor, table=table, seat=seat, action="seating.button_draw", now=now, cards=cards_drawn
    )


def occupied_seats(tournament: Tournament, table: Table) -> set[int]:
    """The seats of the table's players still in."""
    return set(
        tournament.entries.filter(table=table, status=EntryStatus.ACTIVE).values_list("seat", flat=True)
    )


def button_move(*, actor, table: Table, seat: int, action: str, now: datetime, **detail) -> Table:
    """Put the button on `seat` (the caller holds the table's lock), with its audit record; the
    card draw and "button at seat N" both end here."""
    before = {"button_seat": table.button_seat}
    table.button_seat = seat
    table.save(update_fields=["button_seat"])
    audit_record(
        actor=actor, action=action, obj=table, before=before, after={"button_seat": seat, **detail}, now=now
    )
    return table


@transaction.atomic
def move_slip_confirm(*, actor, slip: MoveSlip, now: datetime | None = None) -> MoveSlip:
    """The floor confirms the player moved as the slip says."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    lock_tournament(slip.tournament_id)
    slip = MoveSlip.objects.select_for_update().get(pk=slip.pk)
    if slip.confirmed_at is not None:
        return slip
    if slip.replaced_at is not None:
        raise DomainError(
            "slip_replaced",
            _("This move was replaced by a later one; the player follows the slip now waiting."),
            rule="TRN-9",
            status_code=409,
        )
    slip.confirmed_at = now
    slip.confirmed_by = actor
    slip.save(update_fields=["confirmed_at", "confirmed_by"])
    audit_record(actor=actor, action="seating.slip_confirmed", obj=slip, after={"slip": str(slip)}, now=now)
    return slip
