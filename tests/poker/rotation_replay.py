"""Replays a night of the dealer rotation the way the dealers' services run it (DLR-2): the first
round of each plan is carried out at its times, and the room is replanned after every round and
after every change (a table opens or closes, a dealer clocks in or out). Shared by the property
tests and bench/dealer_rotation.py; `check` asserts the rotation's invariants at every step."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from poker.rotation import DEAL, DealerState, Plan, Rules, apply, next_push, plan


@dataclass(frozen=True)
class Change:
    at: datetime
    kind: str  # "open" / "close" a table, "in" / "out" a dealer
    key: str | int


@dataclass
class Replay:
    tables: list[str]
    dealers: list[DealerState]
    rules: Rules = field(default_factory=Rules)
    plans: int = 0
    plan_seconds: list[float] = field(default_factory=list)
    checks: list[Callable[[Replay, datetime, Plan], None]] = field(default_factory=list)
    pending: tuple = ()

    def replan(self, at: datetime) -> None:
        """Plan as of `at`, carry out what is due at `at` at once, until nothing more is."""
        for _ in range(10):
            started = time.perf_counter()
            result = plan(now=at, tables=self.tables, dealers=self.dealers, rules=self.rules)
            self.plan_seconds.append(time.perf_counter() - started)
            self.plans += 1
            due = [move for move in result.first_round() if move.at <= at]
            self.pending = tuple(move for move in result.first_round() if move.at > at)
            if not due:
                for check in self.checks:
                    check(self, at, result)
                return
            self._carry_out(due)
        raise AssertionError(f"the plan at {at} never settles")

    def _carry_out(self, moves) -> None:
        states = {d.dealer: d for d in self.dealers}
        for move in moves:
            state = states[move.dealer]
            if move.kind == DEAL:
                assert state.available_at is None or state.available_at <= move.at, ("dealt on a break", move)
        self.dealers = apply(self.dealers, moves, rules=self.rules)

    def run(self, start: datetime, end: datetime, changes: Sequence[Change]) -> None:
        changes = sorted(changes, key=lambda c: c.at)
        at = start
        self.replan(at)
        index = 0
        while at < end:
            upcoming = [move.at for move in self.pending]
            if index < len(changes):
                upcoming.append(changes[index].at)
            at = min([*upcoming, end, next_push(at, self.rules.push)])
            if at >= end:
                break
            due = [move for move in self.pending if move.at <= at]
            if due:
                self._carry_out(due)
            while index < len(changes) and changes[index].at <= at:
                self._change(changes[index])
                index += 1
            self.replan(at)

    def _change(self, change: Change) -> None:
        if change.kind == "open" and change.key not in self.tables:
            self.tables.append(change.key)
        elif change.kind == "close" and change.key in self.tables:
            self.tables.remove(change.key)
        elif change.kind == "in" and all(d.dealer != change.key for d in self.dealers):
            self.dealers.append(DealerState(change.key, None, change.at))
        elif change.kind == "out":
            self.dealers = [d for d in self.dealers if d.dealer != change.key]


def seated(dealers: Sequence[DealerState]) -> dict[str, int]:
    tables: dict[str, int] = {}
    for dealer in dealers:
        if dealer.table is not None:
            assert dealer.table not in tables, ("two dealers at one table", dealer.table)
            tables[dealer.table] = dealer.dealer
    return tables


def dealt_at(dealer: DealerState, at: datetime, rules: Rules) -> timedelta:
    if dealer.table is not None:
        return dealer.dealt + (at - dealer.since)
    return timedelta(0) if at - dealer.since >= rules.rest else dealer.dealt
