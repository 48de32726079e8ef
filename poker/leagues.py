"""League points and standings (SER-4): plain integer arithmetic, no Django.

Points for a finish come either from the manager's table (a row per place and a range of
entrants) or from the square-root formula that home and casino leagues commonly use
("points = A x sqrt(entrants / place)", e.g. the formula of many pub and club poker leagues):

    points = round(A * sqrt(entrants / place)) + B

A is the scale (the winner of a 100-entry field gets 10 * A), B a flat amount every finish gets
(0 for none). The square root is taken exactly on integers (math.isqrt), rounding halves up, so
the same finish always earns the same whole points on any machine: no float is ever involved.
The last place of any field earns A + B, the fewest points the formula gives, so a formula is
refused (negative points) exactly when A < 0 or A + B < 0.

A player's season total counts his best `best_n` results. Players with equal totals are ordered
by their finishes: the better best finish first, then the better next best, and so on; a player
who has the same finishes and more of them goes first. Players still equal share the rank
(1, 2, 2, 4).
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from math import isqrt

# A place no finish has, larger than any real place: ends a player's finishes in the tie-break,
# so one with the same finishes and more of them ranks higher.
_NO_MORE = 10**12


@dataclass(frozen=True)
class TableRow:
    """A row of the manager's table: `points` for `place` in a field of `min_entrants` to
    `max_entrants` entries (None: no upper bound)."""

    place: int
    min_entrants: int
    max_entrants: int | None
    points: int

    def covers(self, entrants: int) -> bool:
        return self.min_entrants <= entrants and (self.max_entrants is None or entrants <= self.max_entrants)


class LeagueInputError(ValueError):
    """A table or formula the league cannot use; `code` names the problem, `row` its 1-based row
    in the table (0 for the formula or the league itself)."""

    def __init__(self, code: str, row: int = 0, **values):
        super().__init__(code)
        self.code = code
        self.row = row
        self.values = values


def formula_points(*, scale: int, base: int, entrants: int, place: int) -> int:
    """round(scale * sqrt(entrants / place)) + base, halves rounded up, exactly.

    round(sqrt(x)) is the largest k with (k - 1/2)^2 <= x, i.e. (2k - 1)^2 <= 4x; with
    m = isqrt(floor(4x)) (isqrt of the floor of a rational is the floor of its root),
    k = (m + 1) // 2. For a negative scale the root is taken of |scale| and the sign put back.
    """
    if entrants < 1 or not 1 <= place <= entrants:
        raise LeagueInputError("bad_finish", place=place, entrants=entrants)
    four_x = 4 * scale * scale * entrants // place
    rounded = (isqrt(four_x) + 1) // 2
    return (rounded if scale >= 0 else -rounded) + base


def formula_check(*, scale: int, base: int) -> None:
    """Refuse a formula that gives negative points to some finish: the last place of any field
    gets scale + base, the least the formula gives when scale >= 0."""
    if scale < 0:
        raise LeagueInputError("negative_scale", scale=scale)
    if scale + base < 0:
        raise LeagueInputError("negative_points", points=scale + base)


def table_check(rows: Sequence[TableRow]) -> None:
    """Refuse a table with negative points, a place or range that cannot happen, or two rows for
    the same place whose entrant ranges overlap (which would make a finish's points ambiguous)."""
    for number, row in enumerate(rows, start=1):
        if row.place < 1:
            raise LeagueInputError("bad_place", number, place=row.place)
        if row.min_entrants < 1 or (row.max_entrants is not None and row.max_entrants < row.min_entrants):
            raise LeagueInputError("bad_range", number, low=row.min_entrants, high=row.max_entrants)
        if row.max_entrants is not None and row.place > row.max_entrants:
            raise LeagueInputError("place_out_of_range", number, place=row.place, high=row.max_entrants)
        if row.points < 0:
            raise LeagueInputError("negative_points", number, points=row.points)
    for number, row in enumerate(rows, start=1):
        for other_number, other in enumerate(rows[: number - 1], start=1):
            if other.place != row.place:
                continue
            low = max(row.min_entrants, other.min_entrants)
            highs = [h for h in (row.max_entrants, other.max_entrants) if h is not None]
            if not highs or low <= min(highs):
                raise LeagueInputError("overlap", number, other=other_number, place=row.place)


def table_points(rows: Iterable[TableRow], *, entrants: int, place: int) -> int:
    """The table's points for `place` among `entrants`; 0 when no row covers it."""
    for row in rows:
        if row.place == place and row.covers(entrants):
            return row.points
    return 0


@dataclass(frozen=True)
class Result:
    """One finish of a player in one league tournament: his place and the points it earned."""

    tournament: int
    place: int
    points: int


@dataclass
class Standing:
    player: int
    rank: int
    total: int
    counted: list[Result] = field(default_factory=list)
    results: list[Result] = field(default_factory=list)

    @property
    def best_finish(self) -> int | None:
        return min((result.place for result in self.results), default=None)


def season_total(results: Iterable[Result], *, best_n: int) -> tuple[int, list[Result]]:
    """The total of the best `best_n` results and those results (most points first; equal points
    by the better place, then the tournament)."""
    if best_n < 1:
        raise LeagueInputError("bad_best_n", best_n=best_n)
    ordered = sorted(results, key=lambda r: (-r.points, r.place, r.tournament))
    counted = ordered[:best_n]
    return sum(r.points for r in counted), counted


def _tie_key(results: Sequence[Result]) -> tuple[int, ...]:
    return (*sorted(result.place for result in results), _NO_MORE)


def standings(results_by_player: dict[int, list[Result]], *, best_n: int) -> list[Standing]:
    """Every player's season total of his best N results, ranked: the higher total first; equal
    totals by the better best finish, then the next best, then more results; players equal in
    all of it share the rank (competition ranking: 1, 2, 2, 4) and are listed by their id (the
    caller lists them by name)."""
    rows = []
    for player, results in results_by_player.items():
        total, counted = season_total(results, best_n=best_n)
        rows.append(
            Standing(
                player=player,
                rank=0,
                total=total,
                counted=counted,
                results=sorted(results, key=lambda r: (r.place, r.tournament)),
            )
        )
    rows.sort(key=lambda s: (-s.total, _tie_key(s.results), s.player))
    previous = None
    for position, row in enumerate(rows, start=1):
        key = (row.total, _tie_key(row.results))
        row.rank = position if key != previous else rows[position - 2].rank
        previous = key
    return rows
