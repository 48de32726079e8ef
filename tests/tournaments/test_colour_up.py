"""Colour-ups (CHP-1): the TV's announcement, the floor's sheet and the race entered seat by seat."""

import random
from datetime import timedelta

import pytest

from cardroom.errors import Conflict, DomainError
from cardroom.models import AuditRecord
from screens.tv import tv_state_get
from tests.tournaments.conftest import LEVELS
from tests.tournaments.factories import T0, TournamentFactory, seat_players
from tournaments.models import BlindStructure, ColourUpRace, Entry
from tournaments.selectors.colour_up import colour_up_sheet_get
from tournaments.services.colour_up import SeatRace, colour_up_race_record
from tournaments.services.registration import tournament_start
from tournaments.services.tournaments import tournament_create

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("blind_presets")]


@pytest.fixture
def running(floor):
    """Four players at one table, the clock at level 1 of LEVELS: the 25s leave at level 6."""
    tournament = TournamentFactory(levels=LEVELS, min_players=2)
    seat_players(tournament, 4)
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(3))
    entries = list(Entry.objects.filter(tournament=tournament).order_by("seat"))
    tournament.refresh_from_db()
    return tournament, entries[0].table, [entry.seat for entry in entries]


def written() -> tuple[int, int]:
    return ColourUpRace.objects.count(), AuditRecord.objects.filter(
        action="tournament.colour_up_race"
    ).count()


def test_tv_announces_the_turbo_presets_first_colour_up__CHP_1(floor) -> None:
    tournament = tournament_create(
        actor=floor,
        name="Turbo",
        structure=BlindStructure.objects.get(name="Turbo"),
        start_at=T0,
        prize_cents=9_000,
        fee_cents=1_000,
        starting_stack_chips=20_000,
    )
    assert tournament.chip_set.name == "Tournament chips"
    state = tv_state_get(tournament=tournament, now=T0)
    assert state["colour_up"]["text"] == "Next colour-up: 25 chips leave at level 7"
    assert (state["colour_up"]["leaving"], state["colour_up"]["chip_up"]) == ([25], 100)


def test_tv_says_colour_up_now_at_its_level__CHP_1(floor, running) -> None:
    tournament, _table, _seats = running
    # LEVELS' 25s leave at level 6 (no break after it): at level 6 the screen says so.
    state = tv_state_get(tournament=tournament, now=T0 + timedelta(seconds=5 * 600 + 300 + 1))
    assert state["level"]["number"] == 6
    assert state["colour_up"]["text"] == "Colour-up now: the 25 chips leave play at level 6"


def test_race_recorded_seat_by_seat_and_audited__CHP_1(floor, running) -> None:
    tournament, table, seats = running
    s1, s2, s3, s4 = seats
    race = colour_up_race_record(
        actor=floor,
        table=table,
        seats=[
            SeatRace(s1, {25: 7}, card="Kd"),  # 175: one chip of 100, 75 odd
            SeatRace(s2, {25: 2}, card="Ah", got_chip=True),
            SeatRace(s3, {25: 1}, card="As", got_chip=True),  # the ace of spades beats the ace of hearts
        ],
        now=T0,
    )
    assert (race.level_order, race.leaving, race.chip_up) == (7, [25], 100)
    assert (race.odd_total, race.raced, race.chips_to_bring, race.chips_back) == (150, 2, 3, 250)
    assert [
        (row["seat"], row["exchanged"], row["won"], row["saved"], row["chips_up"]) for row in race.seats
    ] == [
        (s1, 1, False, False, 1),
        (s2, 0, True, False, 1),
        (s3, 0, True, False, 1),
        (s4, 0, False, False, 0),
    ]
    assert written() == (1, 1)
    sheet = colour_up_sheet_get(tournament=tournament, now=T0)
    assert sheet["active"]["leaving_text"] == "25"
    assert [row["result"]["chips_up"] for row in sheet["tables"][0]["seats"]] == [1, 1, 1, 0]
    with pytest.raises(Conflict):
        colour_up_race_record(actor=floor, table=table, seats=[], now=T0)
    assert written() == (1, 1)


def test_race_that_would_knock_a_player_out_refused__CHP_1(floor, running) -> None:
    _tournament, table, seats = running
    s1, s2, _s3, _s4 = seats
    with pytest.raises(DomainError) as refused:
        colour_up_race_record(
            actor=floor,
            table=table,
            seats=[
                SeatRace(s1, {25: 1}, card="2c", last_chips=True),  # loses with his last chip
                SeatRace(s2, {25: 1}, card="Ks", got_chip=True),
            ],
            now=T0,
        )
    assert (refused.value.code, refused.value.rule) == ("raced_out", "CHP-1")
    assert f"Seat {s1} would be raced out" in refused.value.message
    assert written() == (0, 0)
    race = colour_up_race_record(
        actor=floor,
        table=table,
        seats=[
            SeatRace(s1, {25: 1}, card="2c", last_chips=True, got_chip=True),
            SeatRace(s2, {25: 1}, card="Ks", got_chip=True),
        ],
        now=T0,
    )
    assert [row["saved"] for row in race.seats[:2]] == [True, False]


def test_race_against_the_cards_refused__CHP_1(floor, running) -> None:
    _tournament, table, seats = running
    with pytest.raises(DomainError) as refused:
        colour_up_race_record(
            actor=floor,
            table=table,
            seats=[
                SeatRace(seats[0], {25: 2}, card="2c", got_chip=True),
                SeatRace(seats[1], {25: 1}, card="Ks"),
            ],
            now=T0,
        )
    assert (refused.value.code, refused.value.rule) == ("race_mismatch", "CHP-1")
    assert written() == (0, 0)


def test_structure_names_its_chip_set_tournament_chips_only__CHP_1(manager) -> None:
    from chips.models import ChipSet
    from tournaments.services.structures import structure_create, structure_update

    levels = [{"kind": "level", "small_blind_chips": 25, "big_blind_chips": 50, "minutes": 20}]
    structure = structure_create(actor=manager, name="Nightly", levels=levels)
    assert structure.chip_set.name == "Tournament chips"
    cash = ChipSet.objects.get(kind="cash")
    with pytest.raises(DomainError) as refused:
        structure_update(actor=manager, structure=structure, chip_set=cash)
    assert (refused.value.code, refused.value.rule) == ("not_tournament_chips", "CHP-1")
    structure.refresh_from_db()
    assert structure.chip_set.name == "Tournament chips"
