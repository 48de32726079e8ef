"""Reads of the leagues (SER-4): the league's tournaments, its points, and the standings.

The standings are computed, never stored. Each time they are read, every finish is taken from
the tournaments' own rows: the entries that make the field (bought in and not given back) and
their finishing places (TRN-10). So points are "awarded when the tournament is finalised and
corrected with it" by construction: a bust-out undone, a late registration reopened (places
taken back), an entry given back at the cage, all show in the very next reading, and no stored
copy can disagree with the tournament. The price is one query for the league's tournaments and
one for their entries, whatever the number of players; a room's season is a few thousand rows.

What counts, as the house rule reads:
- A tournament of the league scores once its payouts are finalised (the field is final: late
  registration over, the payout table fixed). From then each entry that has its finishing
  place scores; while it runs, the players still in score when they bust or win. A cancelled
  tournament scores nothing.
- The number of entrants is the number of entries that make the field, re-entries included:
  the same count the payout table and the places use (place N is the first entry out), so a
  place is never above the entrants.
- A player's result in a tournament is his best finish over his entries (a re-entry that went
  deeper replaces the first bust-out); he has one result per tournament.
- A tournament the floor ended with several players still in (a deal) gives each of them the
  place of the number left (three left: each third), the shared place they all reached.
"""

from collections import Counter, defaultdict
from dataclasses import dataclass

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from leagues.models import League, LeaguePointsRow, LeagueTournament, PointsKind
from players.models import Player
from players.selectors import public_names
from poker.leagues import Result, Standing, TableRow, formula_points, standings, table_points
from tournaments.models import COUNTED_STATUSES, Entry, EntryStatus, Tournament, TournamentStatus


def league_list() -> QuerySet[League]:
    return League.objects.order_by("-active", "-season_start", "name", "pk")


def league_active_list() -> list[League]:
    return list(League.objects.filter(active=True).order_by("-season_start", "name", "pk"))


def league_get(*, pk: int) -> League | None:
    return League.objects.filter(pk=pk).first()


def league_table_rows(league: League) -> list[TableRow]:
    return [
        TableRow(
            place=row.place, min_entrants=row.min_entrants, max_entrants=row.max_entrants, points=row.points
        )
        for row in LeaguePointsRow.objects.filter(league=league).order_by("min_entrants", "place", "pk")
    ]


def league_tournaments(league: League) -> list[Tournament]:
    return [
        membership.tournament
        for membership in LeagueTournament.objects.filter(league=league)
        .select_related("tournament", "tournament__rules")
        .order_by("tournament__start_at", "tournament__pk")
    ]


def league_candidate_tournaments(league: League) -> QuerySet[Tournament]:
    """The tournaments a manager may pick: the venue's, not cancelled, starting in the season."""
    return (
        Tournament.objects.exclude(status=TournamentStatus.CANCELLED)
        .filter(start_at__date__gte=league.season_start, start_at__date__lte=league.season_end)
        .order_by("start_at", "pk")
    )


def tournament_scores(tournament: Tournament) -> bool:
    """A league tournament scores once its payouts are finalised, unless it was cancelled."""
    if tournament.status == TournamentStatus.CANCELLED:
        return False
    rules = getattr(tournament, "rules", None)
    return rules is not None and rules.payouts_finalised_at is not None


@dataclass(frozen=True)
class Finish:
    tournament: int
    player: int
    place: int
    entrants: int


def league_finishes(tournaments: list[Tournament]) -> list[Finish]:
    """Each player's best finish in each scoring tournament, with the tournament's entrants."""
    scoring = {t.pk: t for t in tournaments if tournament_scores(t)}
    rows = Entry.objects.filter(tournament_id__in=list(scoring), status__in=COUNTED_STATUSES).values_list(
        "tournament_id", "player_id", "status", "finish_place"
    )
    entrants: dict[int, int] = defaultdict(int)
    best: dict[tuple[int, int], int] = {}
    survivors: dict[int, set[int]] = defaultdict(set)
    for tournament_id, player_id, status, place in rows:
        entrants[tournament_id] += 1
        if place is not None:
            key = (tournament_id, player_id)
            best[key] = min(place, best.get(key, place))
        elif status == EntryStatus.ACTIVE and scoring[tournament_id].status == TournamentStatus.FINISHED:
            survivors[tournament_id].add(player_id)
    for tournament_id, players in survivors.items():
        # Ended with several players in (a deal): each reached the place of the number left.
        for player_id in players:
            key = (tournament_id, player_id)
            best[key] = min(len(players), best.get(key, len(players)))
    return [
        Finish(tournament=t, player=p, place=place, entrants=entrants[t])
        for (t, p), place in sorted(best.items())
    ]


def finish_points(league: League, finish: Finish, table: list[TableRow] | None) -> int:
    if league.kind == PointsKind.TABLE:
        return table_points(table or [], entrants=finish.entrants, place=finish.place)
    return formula_points(
        scale=league.formula_scale, base=league.formula_base, entrants=finish.entrants, place=finish.place
    )


def league_standings(league: League) -> dict:
    """The league's standings (SER-4): every player with a result, ranked (see poker.leagues),
    with the tournaments and how many have scored. Names are not included: the caller adds the
    public names (screens) or the full names (the manager's CSV) through `standing_names`."""
    tournaments = league_tournaments(league)
    table = league_table_rows(league) if league.kind == PointsKind.TABLE else None
    results: dict[int, list[Result]] = defaultdict(list)
    for finish in league_finishes(tournaments):
        points = finish_points(league, finish, table)
        results[finish.player].append(Result(tournament=finish.tournament, place=finish.place, points=points))
    rows: list[Standing] = standings(dict(results), best_n=league.best_n)
    return {
        "league": league,
        "tournaments": tournaments,
        "scored": sum(1 for t in tournaments if tournament_scores(t)),
        "rows": rows,
    }


def standing_names(rows: list[Standing], *, public: bool) -> dict[int, str]:
    """{player id: name}: the public name (WTL-3) for screens, the full name for staff."""
    players = list(Player.objects.filter(pk__in=[row.player for row in rows]))
    if public:
        return public_names(players)
    return {player.pk: player.full_name for player in players}


def league_standings_named(league: League, *, public: bool) -> dict:
    """The standings with a name per row, rows with the same rank listed by name."""
    answer = league_standings(league)
    names = standing_names(answer["rows"], public=public)
    answer["rows"] = sorted(answer["rows"], key=lambda row: (row.rank, names.get(row.player, "").casefold()))
    answer["names"] = names
    per_rank = Counter(row.rank for row in answer["rows"])
    answer["table"] = [
        {
            "rank": row.rank,
            "shared": per_rank[row.rank] > 1,
            "player": row.player,
            "name": names.get(row.player, ""),
            "total": row.total,
            "best_finish": row.best_finish,
            "played": len(row.results),
            "counted": len(row.counted),
        }
        for row in answer["rows"]
    ]
    return answer


def league_csv_rows(league: League) -> tuple[list[str], list[list]]:
    """The standings as a spreadsheet's header and rows (full names: a staff export)."""
    answer = league_standings_named(league, public=False)
    header = [_("Rank"), _("Player"), _("Points"), _("Best finish"), _("Results"), _("Counted")]
    rows = [
        [row["rank"], row["name"], row["total"], row["best_finish"], row["played"], row["counted"]]
        for row in answer["table"]
    ]
    return header, rows
