"""Seating (TRN-9): the seat draw, seats for late entries, balancing and breaking tables after
bust-outs with move slips, the final table draw, and the button draw (HND-2).

The algorithms are poker.seating's; this module reads the layout from the entries, applies the
moves to the database (the seat changes at once; a move slip waits for the floor to confirm the
player moved) and audits every change. Callers hold the tournament's row lock.
"""

import random
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.roles import FLOOR_ROLES, require_role
from cardroom.services import audit_record
from poker.common import PokerError
from poker.hands import button_draw
from poker.seating import (
    Move,
    balance_tables,
    break_tables,
    draw_seats,
    final_table_draw,
    next_tables_to_break,
    table_break_order,
)
from tournaments.models import Entry, EntryStatus, MoveReason, MoveSlip, Table, TableStatus, Tournament
from tournaments.services._common import lock_tournament


def _rng(rng: random.Random | None) -> random.Random:
    return rng or random.SystemRandom()


def _open_tables(tournament: Tournament) -> dict[int, Table]:
    return {table.number: table for table in tournament.tables.filter(status=TableStatus.OPEN)}


def _layout(tournament: Tournament) -> tuple[dict[int, dict[int, int]], dict[int, Entry]]:
    """{table number: {seat: entry id}} of the open tables, and the seated entries by id."""
    layout: dict[int, dict[int, int]] = {number: {} for number in _open_tables(tournament)}
    seated = {
        entry.pk: entry
        for entry in tournament.entries.filter(status=EntryStatus.ACTIVE, table__isnull=False).select_related(
            "table"
        )
    }
    for entry in seated.values():
        layout.setdefault(entry.table.number, {})[entry.seat] = entry.pk
    return layout, seated


def _apply(tournament: Tournament, moves: list[Move], *, reason: str, actor, now: datetime) -> list[MoveSlip]:
    """Write the moves (in order) and one slip per player moved: first seat -> last seat."""
    if not moves:
        return []
    tables = {table.number: table for table in tournament.tables.all()}
    first: dict[int, tuple[int, int]] = {}
    last: dict[int, tuple[int, int]] = {}
    # Players per table as each move is made, so each slip says why: "table 3 has 9, table 5 has 7".
    counts = {number: len(seats) for number, seats in _layout(tournament)[0].items()}
    why: dict[int, tuple[int, int]] = {}
    for move in moves:
        first.setdefault(move.player_id, (move.from_table, move.from_seat))
        last[move.player_id] = (move.to_table, move.to_seat)
        why.setdefault(move.player_id, (counts.get(move.from_table, 0), counts.get(move.to_table, 0)))
        counts[move.from_table] = counts.get(move.from_table, 0) - 1
        counts[move.to_table] = counts.get(move.to_table, 0) + 1
    entries = {entry.pk: entry for entry in Entry.objects.filter(pk__in=last)}
    # Everyone moving stands up first, then sits down: a seat may pass from one mover to another.
    for entry in entries.values():
        entry.table, entry.seat = None, None
    Entry.objects.bulk_update(entries.values(), ["table", "seat"])
    for pk, (table_number, seat) in last.items():
        entries[pk].table, entries[pk].seat = tables[table_number], seat
    Entry.objects.bulk_update(entries.values(), ["table", "seat"])
    slips = MoveSlip.objects.bulk_create(
        [
            MoveSlip(
                tournament=tournament,
                entry=entries[pk],
                from_table=first[pk][0],
                from_seat=first[pk][1],
                to_table=to[0],
                to_seat=to[1],
                reason=reason,
                from_table_players=why[pk][0],
                to_table_players=why[pk][1],
                created_at=now,
            )
            for pk, to in last.items()
            if first[pk] != to
        ]
    )
    audit_record(
        actor=actor,
        action=f"seating.{reason}",
        obj=tournament,
        after={"moves": [[entries[s.entry_id].number, str(s)] for s in slips]},
        now=now,
    )
    return slips


def _buttons(tournament: Tournament) -> dict[int, int]:
    return {
        number: table.button_seat
        for number, table in _open_tables(tournament).items()
        if table.button_seat is not None
    }


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
        if tournament.tables.exists():
            raise DomainError(
                "seats_already_drawn", _("Seats are already drawn."), rule="TRN-9", status_code=409
            )
        entries = list(tournament.entries.filter(status=EntryStatus.ACTIVE).order_by("pk"))
        if not entries:
            raise DomainError("no_entries", _("No one is registered yet."), rule="TRN-9", status_code=409)
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
    return sorted(tables, key=lambda table: table.number)


def seat_new_entry(
    *, actor, tournament: Tournament, entry: Entry, now: datetime, rng: random.Random | None = None
) -> list[MoveSlip]:
    """A late entry draws a seat at one of the shortest tables (TRN-9). When every seat is
    taken a new table opens and the others are balanced onto it. The caller holds the lock."""
    rng = _rng(rng)
    layout, _seated = _layout(tournament)
    free = {number: seats for number, seats in layout.items() if len(seats) < tournament.table_size}
    slips: list[MoveSlip] = []
    if not free:
        all_numbers = list(tournament.tables.values_list("number", flat=True))
        number = max(all_numbers, default=0) + 1
        rank = (max(tournament.tables.values_list("break_rank", flat=True), default=0)) + 1
        # A new table breaks last: it was drawn after the others.
        Table.objects.create(
            tournament=tournament, number=number, seats=tournament.table_size, break_rank=rank
        )
        layout[number] = {}
        moves = balance_tables(layout, seats_per_table=tournament.table_size, buttons=_buttons(tournament))
        slips = _apply(tournament, moves, reason=MoveReason.LATE, actor=actor, now=now)
        layout, _seated = _layout(tournament)
        free = {n: seats for n, seats in layout.items() if len(seats) < tournament.table_size}
    fewest = min(len(seats) for seats in free.values())
    number = rng.choice(sorted(n for n, seats in free.items() if len(seats) == fewest))
    seat = rng.choice([s for s in range(1, tournament.table_size + 1) if s not in layout[number]])
    entry.table = tournament.tables.get(number=number)
    entry.seat = seat
    entry.save(update_fields=["table", "seat"])
    audit_record(
        actor=actor, action="seating.seat", obj=entry, after={"table": number, "seat": seat}, now=now
    )
    return slips


def rebalance(
    *, actor, tournament: Tournament, now: datetime, rng: random.Random | None = None
) -> list[MoveSlip]:
    """After a bust-out: break every table the others can absorb, taken in the pre-drawn order,
    all in one pass, then balance so no table has two players more than another (TRN-9). The
    caller holds the lock."""
    rng = _rng(rng)
    slips: list[MoveSlip] = []
    size = tournament.table_size
    layout, _seated = _layout(tournament)
    empty = [number for number, seats in layout.items() if not seats]
    if empty and len(empty) < len(layout):
        # A table whose last player busted is broken as it stands; no one moves.
        tournament.tables.filter(number__in=empty).update(status=TableStatus.BROKEN)
        audit_record(
            actor=actor, action="seating.close_empty", obj=tournament, after={"tables": empty}, now=now
        )
        layout = {number: seats for number, seats in layout.items() if seats}
    order = list(
        tournament.tables.filter(status=TableStatus.OPEN)
        .order_by("break_rank")
        .values_list("number", flat=True)
    )
    to_break = next_tables_to_break(layout, seats_per_table=size, break_order=order)
    if to_break:
        # All at once: no one is sent to a table that breaks in the same bust-out.
        moves = break_tables(
            layout, breaking=to_break, seats_per_table=size, rng=rng, buttons=_buttons(tournament)
        )
        slips += _apply(tournament, moves, reason=MoveReason.BREAK, actor=actor, now=now)
        tournament.tables.filter(number__in=to_break).update(status=TableStatus.BROKEN)
        for number in to_break:
            audit_record(
                actor=actor, action="seating.break_table", obj=tournament, after={"table": number}, now=now
            )
    layout, _seated = _layout(tournament)
    moves = balance_tables(layout, seats_per_table=size, buttons=_buttons(tournament))
    slips += _apply(tournament, moves, reason=MoveReason.BALANCE, actor=actor, now=now)
    return slips


@transaction.atomic
def seating_final_table_draw(
    *, actor, tournament: Tournament, now: datetime | None = None, rng: random.Random | None = None
) -> list[MoveSlip]:
    """Everyone left draws a new seat at the final table (TRN-9); the button is drawn after."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    tournament = lock_tournament(tournament.pk)
    layout, _seated = _layout(tournament)
    layout = {number: seats for number, seats in layout.items() if seats}
    if not layout:
        raise DomainError("no_players", _("No one is seated."), rule="TRN-9", status_code=409)
    # The final table is the one drawn to break last.
    ranks = dict(tournament.tables.filter(number__in=layout).values_list("number", "break_rank"))
    final = max(layout, key=lambda number: ranks[number])
    try:
        moves = final_table_draw(
            layout, final_table=final, seats_per_table=tournament.table_size, rng=_rng(rng)
        )
    except PokerError as error:
        raise DomainError(
            "too_many_for_final",
            _("More players are left than the final table seats; keep busting players first."),
            rule="TRN-9",
            status_code=409,
        ) from error
    slips = _apply(tournament, moves, reason=MoveReason.FINAL, actor=actor, now=now)
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
    slip.confirmed_at = now
    slip.confirmed_by = actor
    slip.save(update_fields=["confirmed_at", "confirmed_by"])
    audit_record(actor=actor, action="seating.slip_confirmed", obj=slip, after={"slip": str(slip)}, now=now)
    return slip
