"""The leagues' pages (SER-4): a manager sets a league up and picks its tournaments (audited);
a formula or table that would give negative points is refused naming the rule with nothing
written; the floor and the cashiers read but cannot edit; the CSV's exact rows, made safe for a
spreadsheet; the TV and the players' pages show public names only."""

import re
from datetime import date

import pytest
from django.core.cache import cache
from django.utils import translation

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from leagues.models import League, LeaguePointsRow, LeagueTournament, PointsKind
from leagues.services import league_create, league_tournaments_set
from poker.leagues import TableRow
from tests.factories import PlayerFactory
from tests.leagues.conftest import SEASON
from tests.tournaments.factories import TournamentFactory

pytestmark = pytest.mark.django_db

FORM = {
    "name": "Spring league",
    "season_start": "2026-03-01",
    "season_end": "2026-05-31",
    "best_n": "8",
    "kind": "formula",
    "scale": "10",
    "base": "0",
    "active": "1",
    "rows": "0",
    "op": "save",
}


def written() -> tuple[int, int, int, int]:
    return (
        League.objects.count(),
        LeaguePointsRow.objects.count(),
        LeagueTournament.objects.count(),
        AuditRecord.objects.filter(action__startswith="league.").count(),
    )


def error_text(response) -> str:
    return " ".join(
        re.sub(r"<[^>]+>", "", m)
        for m in re.findall(r'class="[^"]*error[^"]*"[^>]*>(.*?)</', response.content.decode(), re.S)
    )


def test_a_manager_creates_a_league_with_a_table_and_it_is_audited__SER_4(client, manager):
    client.force_login(manager)
    data = FORM | {"kind": "table", "rows": "2"}
    data |= {"place_0": "1", "low_0": "2", "high_0": "", "points_0": "1,000"}
    data |= {"place_1": "2", "low_1": "2", "high_1": "", "points_1": "600"}
    response = client.post("/leagues/new/", data)
    league = League.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/leagues/{league.pk}/"
    assert (league.name, league.best_n, league.kind, league.season_start) == (
        "Spring league",
        8,
        "table",
        date(2026, 3, 1),
    )
    assert list(LeaguePointsRow.objects.values_list("place", "min_entrants", "max_entrants", "points")) == [
        (1, 2, None, 1000),
        (2, 2, None, 600),
    ]
    record = AuditRecord.objects.get(action="league.create")
    assert (record.actor, record.after["kind"], record.after["best_n"]) == (manager, "table", 8)
    assert client.get(f"/leagues/{league.pk}/").status_code == 200


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"scale": "10", "base": "-15"},
            "This formula gives negative points (-5 to the last place): league points cannot be negative.",
        ),
        ({"scale": "-3"}, "This formula gives negative points"),
        ({"best_n": "0"}, "Count between 1 and 1000 best results per player."),
        (
            {"kind": "table", "rows": "1", "place_0": "1", "low_0": "2", "points_0": "-10"},
            "Row 1 gives -10 points: league points cannot be negative.",
        ),
        (
            {
                "kind": "table",
                "rows": "2",
                "place_0": "1",
                "low_0": "2",
                "high_0": "20",
                "points_0": "50",
                "place_1": "1",
                "low_1": "10",
                "high_1": "",
                "points_1": "80",
            },
            "Row 2 and row 1 both give points for place 1 in the same number of entries",
        ),
        ({"season_end": "2026-02-01"}, "The season ends before it starts"),
    ],
)
def test_a_league_that_would_give_negative_points_is_refused_with_nothing_written__SER_4(
    client, manager, changes, message
):
    client.force_login(manager)
    before = written()
    response = client.post("/leagues/new/", FORM | changes)
    assert response.status_code == 400
    assert message in response.content.decode().replace("&#x27;", "'")
    assert written() == before == (0, 0, 0, 0)


def test_the_service_refuses_a_negative_formula_naming_the_rule__SER_4(manager):
    league = league_create(
        actor=manager,
        name="L",
        season_start=SEASON[0],
        season_end=SEASON[1],
        best_n=3,
        kind=PointsKind.FORMULA,
    )
    before = written()
    with pytest.raises(DomainError) as error:
        league_create(
            actor=manager,
            name="M",
            season_start=SEASON[0],
            season_end=SEASON[1],
            best_n=3,
            kind=PointsKind.FORMULA,
            formula_scale=5,
            formula_base=-6,
        )
    assert (error.value.code, error.value.rule) == ("league_formula_negative", "SER-4")
    with pytest.raises(DomainError) as table_error:
        league_create(
            actor=manager,
            name="N",
            season_start=SEASON[0],
            season_end=SEASON[1],
            best_n=3,
            kind=PointsKind.TABLE,
            table=[TableRow(1, 2, None, 5), TableRow(1, 3, 9, 4)],
        )
    assert (table_error.value.code, table_error.value.rule) == ("league_table_overlap", "SER-4")
    assert written() == before
    assert League.objects.get().pk == league.pk


def test_floor_and_cashier_read_the_league_but_cannot_edit_it__SER_4(client, floor, cashier, manager):
    league = league_create(
        actor=manager,
        name="L",
        season_start=SEASON[0],
        season_end=SEASON[1],
        best_n=3,
        kind=PointsKind.FORMULA,
    )
    for user in (floor, cashier):
        client.force_login(user)
        page = client.get(f"/leagues/{league.pk}/").content.decode()
        assert '<button type="button" disabled aria-describedby="why-edit">Edit league</button>' in page
        assert "Managers set up leagues." in page
        assert client.get(f"/leagues/{league.pk}/edit/").status_code == 403
        assert client.post("/leagues/new/", FORM | {"name": "Other"}).status_code == 403
        assert client.post(f"/leagues/{league.pk}/tournaments/", {"tournament": []}).status_code == 403
        with pytest.raises(DomainError) as error:
            league_tournaments_set(actor=user, league=league, tournament_ids=[])
        assert error.value.rule == "ROL-1"
    assert League.objects.count() == 1 and AuditRecord.objects.filter(action="league.update").count() == 0
    client.force_login(manager)
    assert client.get(f"/leagues/{league.pk}/edit/").status_code == 200


def test_a_manager_picks_the_seasons_tournaments_only_audited__SER_4(client, manager):
    league = league_create(
        actor=manager,
        name="L",
        season_start=SEASON[0],
        season_end=SEASON[1],
        best_n=3,
        kind=PointsKind.FORMULA,
    )
    inside = TournamentFactory(name="Tuesday")  # 6 March 2026
    outside = TournamentFactory(
        name="Winter",
        start_at=TournamentFactory._meta.model._meta.get_field("start_at").default
        if False
        else inside.start_at.replace(year=2025),
    )
    client.force_login(manager)
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert "Tuesday" in page and "Winter" not in page
    response = client.post(f"/leagues/{league.pk}/tournaments/", {"tournament": [str(inside.pk)]})
    assert response.status_code == 302
    assert list(LeagueTournament.objects.values_list("tournament_id", flat=True)) == [inside.pk]
    record = AuditRecord.objects.get(action="league.tournaments")
    assert record.after == {"tournaments": [inside.pk], "added": [inside.pk], "removed": []}
    # A tournament outside the season is refused, and the league keeps what it had.
    client.post(f"/leagues/{league.pk}/tournaments/", {"tournament": [str(inside.pk), str(outside.pk)]})
    assert list(LeagueTournament.objects.values_list("tournament_id", flat=True)) == [inside.pk]
    assert AuditRecord.objects.filter(action="league.tournaments").count() == 1


def test_standings_csv_exact_rows_safe_for_a_spreadsheet__SER_4(client, manager, people, play, make_league):
    p = people
    sly = PlayerFactory(first_name='=HYPERLINK("http://evil.example")', last_name="X", nickname="")
    first = play([p["Bob"], sly, p["Ann"]], day=0)
    league = make_league([first], best_n=3)
    client.force_login(manager)
    response = client.get(f"/leagues/{league.pk}/standings.csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="spring-league-standings.csv"'
    assert response.content.decode().splitlines() == [
        "Rank,Player,Points,Best finish,Results,Counted",
        "1,Ann Test,17,1,1,1",
        '2,"\'=HYPERLINK(""http://evil.example"") X",12,2,1,1',
        "3,Bob Test,10,3,1,1",
    ]


def test_tv_and_room_pages_show_the_standings_with_public_names__SER_4(
    client, people, play, make_league, manager
):
    p = people
    first = play([p["Bob"], p["Cyril"], p["Ann"]], day=0)
    league = make_league([first], best_n=3)
    page = client.get(f"/tv/leagues/{league.pk}/").content.decode()
    row = r'<li[^>]*><span class="tvl-rank">(.*?)</span><span class="tvl-name">(.*?)</span>'
    rows = re.findall(row + r'.*?<span class="tvl-points">(.*?)</span>', page)
    assert rows == [("1", "Ann", "17"), ("2", "Cyril", "12"), ("3", "Bob", "10")]
    assert "Test" not in page  # public names only: no last names
    assert "1 of 1 tournaments played" in page
    room = client.get("/room/").content.decode()
    assert 'hx-get="/room/leagues/?lang=en"' in room
    leagues = client.get("/room/leagues/").content.decode()
    assert "Spring league" in leagues and f'href="/room/leagues/{league.pk}/?lang=en"' in leagues
    assert re.findall(r'<span class="lobby-player">(.*?)</span>', leagues) == ["Ann", "Cyril", "Bob"]
    full = client.get(f"/room/leagues/{league.pk}/?lang=sk").content.decode()
    assert "1 z 1 turnajov odohraných" in full
    translation.activate("en")
    # A hidden league is on no public screen.
    league.active = False
    league.save(update_fields=["active"])
    cache.clear()
    assert client.get(f"/tv/leagues/{league.pk}/").status_code == 404
    assert "Spring league" not in client.get("/room/leagues/").content.decode()


def test_the_tv_pages_long_standings__SER_4(client, manager, play, make_league):
    players = [PlayerFactory(nickname=f"P{n:02d}") for n in range(14)]
    first = play(players, day=0)
    league = make_league([first], best_n=3)
    page = client.get(f"/tv/leagues/{league.pk}/").content.decode()
    assert page.count('<ol class="tvl-rows" data-page=') == 2
    assert '<ol class="tvl-rows" data-page="2" hidden>' in page
    assert "Page <span data-page-current>1</span> / 2" in page
