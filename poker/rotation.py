"""The dealer rotation (DLR-2): from the tables open now and the dealers on shift, the pushes.

Plain values: a table is a key ("c12", "t40"), a dealer an integer id, times aware datetimes.
The planner never changes its input; it simulates the room from `now` over a few pushes and
returns the `Move`s (who goes where, when) and the `Gap`s (which tables go without a dealer or
without relief, and for how long). The caller stores the first round and replans after it.

The rules, as implemented here:
- Pushes fall on a grid: every `push` (30 minutes by default, per venue) from the Unix epoch,
  so a room pushes at :00 and :30. At each push every dealer who deals on moves one table on
  (in the order the tables are given), and rested dealers take the tables left free.
- A dealer deals at most `max_dealt` (90 minutes) without a rest of at least `rest` (15
  minutes). One who would pass it during the next down goes on a break of `rest` minutes and
  deals no hand before its end. Any stretch of at least `rest` minutes away from the tables
  counts as a rest.
- Who deals: the dealers with the least time dealt since their last rest (earliest deadline
  first), resting ones before dealing ones on a tie, then the one resting longest.
- No open table waits while a dealer could sit down: whenever a table has no dealer, the first
  dealer able to deal until the next push takes it, at once.
- When dealers are short, the dealers who may deal on stay where they are (the table goes
  without relief), and the tables nobody can take go without a dealer; both are `Gap`s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

DEAL = "deal"
BREAK = "break"
FREE = "free"
NO_DEALER = "no_dealer"
NO_RELIEF = "no_relief"
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Rules:
    push: timedelta = timedelta(minutes=30)
    rest: timedelta = timedelta(minutes=15)
    max_dealt: timedelta = timedelta(minutes=90)
    rounds: int = 4  # how many pushes ahead the plan looks (gaps are reported over them)


@dataclass(frozen=True)
class DealerState:
    """A dealer on shift: dealing at `table` since `since`, or resting since `since` (table None).

    `dealt` is what he dealt before `since` since his last rest; `available_at` is the end of
    the break he is on (None when he may deal at once).
    """

    dealer: int
    table: str | None
    since: datetime
    dealt: timedelta = timedelta(0)
    available_at: datetime | None = None


@dataclass(frozen=True)
class Move:
    """At `at`, `dealer` leaves `from_table` (None: he was resting) for `table` (DEAL), a break
    until `until` (BREAK) or the pool of free dealers (FREE)."""

    at: datetime
    dealer: int
    kind: str
    table: str | None = None
    from_table: str | None = None
    until: datetime | None = None


@dataclass(frozen=True)
class Gap:
    """`table` has no dealer (NO_DEALER) or its dealer is not relieved (NO_RELIEF), start to end."""

    table: str
    kind: str
    start: datetime
    end: datetime


@dataclass(frozen=True)
class Plan:
    moves: tuple[Move, ...]
    gaps: tuple[Gap, ...]
    next_push_at: datetime
    horizon: datetime = field(default=EPOCH)

    def first_round(self) -> tuple[Move, ...]:
        """The moves up to and including the next push: what is stored and sent."""
        return tuple(move for move in self.moves if move.at <= self.next_push_at)


def next_push(at: datetime, push: timedelta) -> datetime:
    """The first push time strictly after `at`."""
    return EPOCH + ((at - EPOCH) // push + 1) * push


def dealt_in_stretch(
    downs: Sequence[tuple[datetime, datetime]], *, rest: timedelta, at: datetime | None = None
) -> timedelta:
    """Time dealt since the last rest of at least `rest`, from the downs (start, end) in order;
    `at` (when given) counts a rest between the last down's end and `at`."""
    dealt = timedelta(0)
    last_end: datetime | None = None
    for start, end in downs:
        if last_end is not None and start - last_end >= rest:
            dealt = timedelta(0)
        dealt += end - start
        last_end = end
    if at is not None and last_end is not None and at - last_end >= rest:
        return timedelta(0)
    return dealt


class _Dealer:
    __slots__ = ("available_at", "dealer", "dealt", "since", "table")

    def __init__(self, state: DealerState) -> None:
        self.dealer = state.dealer
        self.table = state.table
        self.since = state.since
        self.dealt = state.dealt
        self.available_at = state.available_at

    def dealt_at(self, at: datetime, rest: timedelta) -> timedelta:
        if self.table is not None:
            return self.dealt + (at - self.since)
        return timedelta(0) if at - self.since >= rest else self.dealt

    def free_at(self, at: datetime) -> bool:
        return self.table is None and (self.available_at is None or self.available_at <= at)


class _Room:
    """The simulation: the dealers' states and the tables, with the moves and gaps so far."""

    def __init__(self, now: datetime, tables: Sequence[str], dealers: Sequence[DealerState], rules: Rules):
        self.rules = rules
        self.tables = list(dict.fromkeys(tables))
        self.dealers = [_Dealer(state) for state in sorted(dealers, key=lambda s: s.dealer)]
        self.at_table: dict[str, _Dealer] = {}
        self.moves: list[Move] = []
        self.gaps: list[Gap] = []
        self.uncovered: dict[str, datetime] = {}
        self.unrelieved: dict[str, datetime] = {}
        open_tables = set(self.tables)
        for dealer in self.dealers:
            gone = dealer.table not in open_tables or dealer.table in self.at_table
            if dealer.table is not None and gone:
                self._leave(dealer, now, FREE)  # his table closed (or two on one table: one goes)
            elif dealer.table is not None:
                self.at_table[dealer.table] = dealer
        for table in self.tables:
            if table not in self.at_table:
                self.uncovered[table] = now

    # -- the moves --
    def _leave(self, dealer: _Dealer, at: datetime, kind: str) -> None:
        until = at + self.rules.rest if kind == BREAK else None
        self.moves.append(Move(at, dealer.dealer, kind, from_table=dealer.table, until=until))
        if dealer.table is not None and self.at_table.get(dealer.table) is dealer:
            del self.at_table[dealer.table]
        dealer.dealt = dealer.dealt_at(at, self.rules.rest)
        dealer.table, dealer.since, dealer.available_at = None, at, until

    def _sit(self, dealer: _Dealer, table: str, at: datetime, from_table: str | None) -> None:
        self.moves.append(Move(at, dealer.dealer, DEAL, table=table, from_table=from_table))
        dealer.dealt = dealer.dealt_at(at, self.rules.rest)
        dealer.table, dealer.since, dealer.available_at = table, at, None
        self.at_table[table] = dealer
        started = self.uncovered.pop(table, None)
        if started is not None and started < at:
            self.gaps.append(Gap(table, NO_DEALER, started, at))

    def _end_unrelieved(self, table: str, at: datetime) -> None:
        started = self.unrelieved.pop(table, None)
        if started is not None and started < at:
            self.gaps.append(Gap(table, NO_RELIEF, started, at))

    # -- the steps --
    def stop_overdealt(self, at: datetime) -> None:
        """Dealers who reach the most they may deal go on a break now."""
        for dealer in self.dealers:
            if dealer.table is not None and dealer.dealt_at(at, self.rules.rest) >= self.rules.max_dealt:
                table = dealer.table
                self._end_unrelieved(table, at)
                self._leave(dealer, at, BREAK)
                self.uncovered[table] = at

    def fill(self, at: datetime, push_at: datetime) -> None:
        """Every table without a dealer gets a free dealer able to deal until `push_at`."""
        if not self.uncovered:
            return
        limit = self.rules.max_dealt - (push_at - at)
        free = sorted(
            (d for d in self.dealers if d.free_at(at) and d.dealt_at(at, self.rules.rest) <= limit),
            key=lambda d: (d.dealt_at(at, self.rules.rest), d.since, d.dealer),
        )
        order = {table: i for i, table in enumerate(self.tables)}
        waiting = sorted(self.uncovered, key=lambda t: (self.uncovered[t], order[t]))
        for table, dealer in zip(waiting, free, strict=False):
            self._sit(dealer, table, at, None)

    def push_round(self, at: datetime) -> None:
        """The push at `at`: who deals the next down, each dealer on to the next table."""
        rest, down, most = self.rules.rest, self.rules.push, self.rules.max_dealt
        dealt = {d.dealer: d.dealt_at(at, rest) for d in self.dealers}
        for table in list(self.unrelieved):
            self._end_unrelieved(table, at)
        forced = [d for d in self.dealers if d.table is not None and dealt[d.dealer] + down > most]
        able = [
            d
            for d in self.dealers
            if dealt[d.dealer] + down <= most and (d.table is not None or d.free_at(at))
        ]
        for dealer in forced:
            table = dealer.table
            self._leave(dealer, at, BREAK)
            self.uncovered[table] = at
        if len(able) < len(self.tables):
            # Short: who may deal on stays (no relief); the rested take the tables left.
            for dealer in able:
                if dealer.table is not None:
                    self.unrelieved[dealer.table] = at
            self.fill(at, at + down)
            return
        able.sort(key=lambda d: (dealt[d.dealer], d.table is not None, d.since, d.dealer))
        chosen = able[: len(self.tables)]
        chosen_ids = {d.dealer for d in chosen}
        for dealer in able[len(self.tables) :]:
            if dealer.table is not None:
                table = dealer.table
                self._leave(dealer, at, FREE)
                self.uncovered[table] = at
        staying = [self.at_table.get(table) for table in self.tables]
        if len(staying) > 1:
            staying = staying[-1:] + staying[:-1]  # each dealer on to the next table
        incoming = iter(d for d in chosen if d.table is None)
        arrivals = []
        for table, dealer in zip(self.tables, staying, strict=True):
            if dealer is None or dealer.dealer not in chosen_ids:
                dealer = next(incoming)
            if dealer.table != table:
                arrivals.append((table, dealer))
        for _table, dealer in arrivals:  # everybody stands up, then sits down
            if dealer.table is not None and self.at_table.get(dealer.table) is dealer:
                del self.at_table[dealer.table]
        for table, dealer in arrivals:
            from_table = dealer.table
            if from_table is not None:
                dealer.dealt = dealer.dealt_at(at, rest)
                dealer.table, dealer.since = None, at  # stood up at `at`: no rest in between
            self._sit(dealer, table, at, from_table)

    def next_event(self, after: datetime, push_at: datetime) -> datetime:
        """The next moment before `push_at` when something can change: a dealer reaching the
        most he may deal, or (while a table waits) a dealer becoming able to take it."""
        rest, most = self.rules.rest, self.rules.max_dealt
        times = [push_at]
        for d in self.dealers:
            if d.table is not None:
                times.append(d.since + most - d.dealt)
            elif self.uncovered:
                rested = d.since + rest
                if d.available_at is not None:
                    times.append(d.available_at)
                times.append(rested)
                times.append(push_at - (most - d.dealt))
        return min((t for t in times if after < t <= push_at), default=push_at)

    def close(self, horizon: datetime) -> None:
        for table, started in self.uncovered.items():
            self.gaps.append(Gap(table, NO_DEALER, started, horizon))
        for table, started in self.unrelieved.items():
            self.gaps.append(Gap(table, NO_RELIEF, started, horizon))


def plan(
    *, now: datetime, tables: Sequence[str], dealers: Sequence[DealerState], rules: Rules = Rules()
) -> Plan:
    """The pushes from `now` over `rules.rounds` pushes (DLR-2). `tables` are the open tables in
    the order the rotation walks them; `dealers` the dealers on shift."""
    room = _Room(now, tables, dealers, rules)
    push_at = next_push(now, rules.push)
    horizon = push_at + rules.rounds * rules.push  # the end of the last down planned
    at = now
    while True:
        room.stop_overdealt(at)
        room.fill(at, push_at)
        at = room.next_event(at, push_at)
        if at == push_at:
            if at >= horizon:
                break
            room.push_round(at)
            push_at += rules.push
    room.close(horizon)
    return Plan(
        moves=tuple(room.moves),
        gaps=tuple(_merge(room.gaps)),
        next_push_at=next_push(now, rules.push),
        horizon=horizon,
    )


def _merge(gaps: list[Gap]) -> list[Gap]:
    """Touching gaps of one table and kind become one."""
    merged: list[Gap] = []
    for gap in sorted(gaps, key=lambda g: (g.table, g.kind, g.start)):
        last = merged[-1] if merged else None
        if last and (last.table, last.kind) == (gap.table, gap.kind) and gap.start <= last.end:
            merged[-1] = Gap(gap.table, gap.kind, last.start, max(last.end, gap.end))
        else:
            merged.append(gap)
    return sorted(merged, key=lambda g: (g.start, g.table))


def apply(
    dealers: Sequence[DealerState], moves: Sequence[Move], *, rules: Rules = Rules()
) -> list[DealerState]:
    """The dealers' states after `moves` (in order), as the service applies them."""
    by_id = {d.dealer: _Dealer(d) for d in dealers}
    for move in moves:
        dealer = by_id.get(move.dealer)
        if dealer is None:
            continue
        dealer.dealt = dealer.dealt_at(move.at, rules.rest)
        dealer.since = move.at
        dealer.table = move.table if move.kind == DEAL else None
        dealer.available_at = move.until if move.kind == BREAK else None
    return [
        DealerState(d.dealer, d.table, d.since, d.dealt, d.available_at)
        for d in sorted(by_id.values(), key=lambda d: d.dealer)
    ]
