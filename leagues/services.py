"""Writes of the leagues (SER-4): a manager creates and edits a league, its points table or
formula, and picks its tournaments. Every write is audited; a table or formula that could give
negative points, overlapping rows, a best N below 1 or a tournament outside the season is
refused naming the rule, and nothing is written.

The points themselves are never written: the standings are read from the tournaments' places
each time (leagues.selectors), so a finish corrected in its tournament is corrected in the
league too.
"""

from datetime import date, datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.roles import MANAGER_ROLES, require_role
from cardroom.services import audit_record
from leagues.models import League, LeaguePointsRow, LeagueTournament, PointsKind
from leagues.selectors import league_candidate_tournaments, league_table_rows
from poker.leagues import LeagueInputError, TableRow, formula_check, table_check

RULE = "SER-4"
MAX_BEST_N = 1000
MAX_TABLE_ROWS = 500
# Points and parameters far beyond any league's, so a typing slip is refused, not stored.
MAX_POINTS = 1_000_000


def _refuse(code: str, message: str) -> DomainError:
    return DomainError(code, message, rule=RULE)


def _table_error(error: LeagueInputError) -> DomainError:
    values = {"row": error.row, **error.values}
    messages = {
        "bad_place": _("Row %(row)s: a place is 1 or more."),
        "bad_range": _(
            "Row %(row)s: the entries go from 1 or more up to a number no smaller than the start."
        ),
        "place_out_of_range": _(
            "Row %(row)s: place %(place)s cannot happen in a field of at most %(high)s entries; fix the "
            "place or the range."
        ),
        "negative_points": _("Row %(row)s gives %(points)s points: league points cannot be negative."),
        "overlap": _(
            "Row %(row)s and row %(other)s both give points for place %(place)s in the same number of "
            "entries: make their ranges of entries apart."
        ),
    }
    return _refuse(f"league_table_{error.code}", messages[error.code] % values)


def _check(
    *,
    name: str,
    season_start: date,
    season_end: date,
    best_n: int,
    kind: str,
    scale: int,
    base: int,
    table: list[TableRow],
) -> None:
    if not name.strip():
        raise _refuse("league_name", _("Give the league a name."))
    if season_end < season_start:
        raise _refuse("league_season", _("The season ends before it starts: check the dates."))
    if not 1 <= best_n <= MAX_BEST_N:
        raise _refuse(
            "league_best_n",
            _("Count between 1 and %(max)s best results per player.") % {"max": MAX_BEST_N},
        )
    if kind not in PointsKind.values:
        raise _refuse("league_kind", _("Choose the points table or the formula."))
    if abs(scale) > MAX_POINTS or abs(base) > MAX_POINTS:
        raise _refuse("league_formula_size", _("The formula's numbers are too large."))
    try:
        formula_check(scale=scale, base=base)
    except LeagueInputError as error:
        least = scale + base if error.code == "negative_points" else None
        raise _refuse(
            "league_formula_negative",
            _(
                "This formula gives negative points (%(points)s to the last place): league points "
                "cannot be negative. Use a scale of 0 or more, and points for every finish no lower "
                "than minus the scale."
            )
            % {"points": least if least is not None else _("less than 0")},
        ) from error
    if len(table) > MAX_TABLE_ROWS:
        raise _refuse(
            "league_table_size", _("A points table has at most %(max)s rows.") % {"max": MAX_TABLE_ROWS}
        )
    if any(row.points > MAX_POINTS for row in table):
        raise _refuse("league_table_size", _("A row's points are too large."))
    try:
        table_check(table)
    except LeagueInputError as error:
        raise _table_error(error) from error
    if kind == PointsKind.TABLE and not table:
        raise _refuse("league_table_empty", _("A league scored by its table needs at least one row."))


def _snapshot(league: League) -> dict:
    return {
        "name": league.name,
        "season_start": league.season_start.isoformat(),
        "season_end": league.season_end.isoformat(),
        "best_n": league.best_n,
        "kind": league.kind,
        "formula_scale": league.formula_scale,
        "formula_base": league.formula_base,
        "active": league.active,
        "points_table": [
            [row.place, row.min_entrants, row.max_entrants, row.points] for row in league_table_rows(league)
        ]
        if league.pk
        else [],
    }


def _write_table(league: League, table: list[TableRow]) -> None:
    LeaguePointsRow.objects.filter(league=league).delete()
    LeaguePointsRow.objects.bulk_create(
        [
            LeaguePointsRow(
                league=league,
                venue_id=league.venue_id,
                place=row.place,
                min_entrants=row.min_entrants,
                max_entrants=row.max_entrants,
                points=row.points,
            )
            for row in table
        ]
    )


def _name_taken(name: str, *, league: League | None) -> DomainError:
    return _refuse("league_name_taken", _("There is already a league named %(name)s.") % {"name": name})


@transaction.atomic
def league_create(
    *,
    actor,
    name: str,
    season_start: date,
    season_end: date,
    best_n: int,
    kind: str,
    formula_scale: int = 10,
    formula_base: int = 0,
    table: list[TableRow] | None = None,
    active: bool = True,
    now: datetime | None = None,
) -> League:
    """A new league with its points (the table, or the square-root formula), audited."""
    require_role(actor, *MANAGER_ROLES)
    now = now or timezone.now()
    table = list(table or [])
    name = name.strip()
    _check(
        name=name,
        season_start=season_start,
        season_end=season_end,
        best_n=best_n,
        kind=kind,
        scale=formula_scale,
        base=formula_base,
        table=table,
    )
    if League.objects.filter(name=name).exists():
        raise _name_taken(name, league=None)
    league = League.objects.create(
        name=name,
        season_start=season_start,
        season_end=season_end,
        best_n=best_n,
        kind=kind,
        formula_scale=formula_scale,
        formula_base=formula_base,
        active=active,
    )
    _write_table(league, table)
    audit_record(actor=actor, action="league.create", obj=league, after=_snapshot(league), now=now)
    return league


def _lock(league: League) -> League:
    return League.objects.select_for_update(of=("self",)).get(pk=league.pk)


@transaction.atomic
def league_update(
    *,
    actor,
    league: League,
    name: str,
    season_start: date,
    season_end: date,
    best_n: int,
    kind: str,
    formula_scale: int,
    formula_base: int,
    table: list[TableRow],
    active: bool,
    now: datetime | None = None,
) -> League:
    """Change a league's settings and points; the standings follow at once (they are computed).
    Its tournaments must still start in the season."""
    require_role(actor, *MANAGER_ROLES)
    now = now or timezone.now()
    table = list(table)
    name = name.strip()
    _check(
        name=name,
        season_start=season_start,
        season_end=season_end,
        best_n=best_n,
        kind=kind,
        scale=formula_scale,
        base=formula_base,
        table=table,
    )
    league = _lock(league)
    if League.objects.filter(name=name).exclude(pk=league.pk).exists():
        raise _name_taken(name, league=league)
    before = _snapshot(league)
    outside = (
        LeagueTournament.objects.filter(league=league)
        .exclude(tournament__start_at__date__gte=season_start, tournament__start_at__date__lte=season_end)
        .select_related("tournament")
        .first()
    )
    if outside is not None:
        raise _refuse(
            "league_tournament_outside",
            _("%(tournament)s is in this league but would start outside the season: take it out first.")
            % {"tournament": outside.tournament.name},
        )
    league.name, league.season_start, league.season_end = name, season_start, season_end
    league.best_n, league.kind, league.active = best_n, kind, active
    league.formula_scale, league.formula_base = formula_scale, formula_base
    try:
        with transaction.atomic():
            league.save()
    except IntegrityError as error:
        raise _name_taken(name, league=league) from error
    _write_table(league, table)
    audit_record(
        actor=actor, action="league.update", obj=league, before=before, after=_snapshot(league), now=now
    )
    return league


@transaction.atomic
def league_tournaments_set(
    *, actor, league: League, tournament_ids: list[int], now: datetime | None = None
) -> list[int]:
    """The tournaments that count in the league: the venue's, not cancelled, starting in the
    season. Returns their ids, in order. Audited with what was added and taken out."""
    require_role(actor, *MANAGER_ROLES)
    now = now or timezone.now()
    league = _lock(league)
    wanted = sorted(set(tournament_ids))
    allowed = set(league_candidate_tournaments(league).filter(pk__in=wanted).values_list("pk", flat=True))
    refused = [pk for pk in wanted if pk not in allowed]
    if refused:
        raise _refuse(
            "league_tournament_outside",
            _(
                "Tournament %(id)s cannot count in this league: pick tournaments of this room that start "
                "in the season and are not cancelled."
            )
            % {"id": refused[0]},
        )
    current = set(LeagueTournament.objects.filter(league=league).values_list("tournament_id", flat=True))
    added, removed = sorted(set(wanted) - current), sorted(current - set(wanted))
    if removed:
        LeagueTournament.objects.filter(league=league, tournament_id__in=removed).delete()
    LeagueTournament.objects.bulk_create(
        [LeagueTournament(league=league, tournament_id=pk, venue_id=league.venue_id) for pk in added]
    )
    if added or removed:
        audit_record(
            actor=actor,
            action="league.tournaments",
            obj=league,
            before={"tournaments": sorted(current)},
            after={"tournaments": wanted, "added": added, "removed": removed},
            now=now,
        )
    return wanted
