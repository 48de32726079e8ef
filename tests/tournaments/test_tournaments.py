from datetime import timedelta

import pytest

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from tests.tournaments.factories import T0, TournamentFactory, structure_with
from tournaments.models import Tournament, TournamentLevel, TournamentStatus
from tournaments.services.clock import clock_start
from tournaments.services.structures import structure_update
from tournaments.services.tournaments import (
    tournament_cancel,
    tournament_create,
    tournament_finish,
    tournament_level_update,
    tournament_open_registration,
)

pytestmark = pytest.mark.django_db


def create(actor, structure, **overrides):
    data = {
        "name": "Friday",
        "structure": structure,
        "start_at": T0,
        "prize_cents": 9_000,
        "fee_cents": 1_000,
        "starting_stack_chips": 20_000,
    }
    return tournament_create(actor=actor, **{**data, **overrides})


@pytest.fixture
def structure():
    return structure_with([(25, 50, 20), (50, 100, 20), ("break", 10, "Colour up"), (100, 200, 15)])


def test_create_copies_levels_with_defaults__TRN_7(floor, structure):
    tournament = create(floor, structure)
    assert tournament.status == TournamentStatus.SCHEDULED
    assert tournament.structure_name == structure.name
    assert (tournament.min_players, tournament.table_size, tournament.guarantee_player_count) == (9, 9, 15)
    assert tournament.guarantee_deadline_level == 3
    assert tournament.buy_in_cents == 10_000
    rows = list(
        tournament.levels.values_list(
            "order", "kind", "small_blind_chips", "big_blind_chips", "duration_seconds", "note"
        )
    )
    assert rows == [
        (1, "level", 25, 50, 1200, ""),
        (2, "level", 50, 100, 1200, ""),
        (3, "break", 0, 0, 600, "Colour up"),
        (4, "level", 100, 200, 900, ""),
    ]
    record = AuditRecord.objects.get(action="tournament.create")
    assert record.after["status"] == "scheduled"
    assert record.after["prize_cents"] == 9_000


def test_editing_template_never_changes_tournament__TRN_7(floor, manager, structure):
    tournament = create(floor, structure)
    structure_update(
        actor=manager,
        structure=structure,
        levels=[{"small_blind_chips": 100, "big_blind_chips": 200, "minutes": 5}],
    )
    assert list(tournament.levels.values_list("big_blind_chips", "duration_seconds")) == [
        (50, 1200),
        (100, 1200),
        (0, 600),
        (200, 900),
    ]
    assert list(structure.levels.values_list("big_blind_chips", flat=True)) == [200]


@pytest.mark.parametrize(
    ("overrides", "code"),
    [
        ({"guarantee_cents": 100_000}, "guarantee_without_mode"),
        ({"guarantee_mode": "conditional"}, "guarantee_amount_missing"),
        (
            {"guarantee_mode": "conditional", "guarantee_cents": 1, "guarantee_deadline_level": 4},
            "invalid_guarantee_deadline",
        ),
        ({"late_registration_level": 4}, "invalid_late_registration"),
        ({"table_size": 11}, "invalid_table_size"),
        ({"min_players": 1}, "invalid_min_players"),
        ({"fee_cents": -1}, "invalid_buy_in"),
        ({"starting_stack_chips": 0}, "invalid_starting_stack"),
        ({"name": " "}, "tournament_name_required"),
    ],
)
def test_bad_settings_refused_nothing_written(floor, structure, overrides, code):
    with pytest.raises(DomainError) as error:
        create(floor, structure, **overrides)
    assert error.value.code == code
    assert Tournament.objects.count() == 0
    assert TournamentLevel.objects.count() == 0


def test_cashier_cannot_create__ROL_1(cashier, structure):
    with pytest.raises(DomainError) as error:
        create(cashier, structure)
    assert error.value.rule == "ROL-1"


@pytest.mark.parametrize(
    ("status", "service"),
    [
        ("scheduled", clock_start),
        ("registering", tournament_open_registration),
        ("registering", tournament_finish),
        ("finished", tournament_cancel),
        ("cancelled", tournament_open_registration),
        ("cancelled", clock_start),
    ],
)
def test_illegal_transition_refused(floor, status, service):
    tournament = TournamentFactory(status=status, levels=[(25, 50, 60)])
    with pytest.raises(DomainError) as error:
        service(actor=floor, tournament=tournament)
    assert error.value.code == "illegal_transition"
    assert error.value.status_code == 409
    tournament.refresh_from_db()
    assert tournament.status == status
    assert tournament.clock_version == 0
    assert not AuditRecord.objects.exists()


def test_status_path_scheduled_to_finished(floor):
    tournament = TournamentFactory(status="scheduled", levels=[(25, 50, 60)])
    tournament = tournament_open_registration(actor=floor, tournament=tournament, now=T0)
    assert tournament.status == "registering"
    tournament = clock_start(actor=floor, tournament=tournament, now=T0)
    tournament = tournament_finish(actor=floor, tournament=tournament, now=T0 + timedelta(minutes=30))
    assert (tournament.status, tournament.level_ends_at, tournament.finished_at) == (
        "finished",
        None,
        T0 + timedelta(minutes=30),
    )
    assert list(AuditRecord.objects.order_by("id").values_list("action", flat=True)) == [
        "tournament.open_registration",
        "clock.start",
        "tournament.registration_closed",  # late registration of 0 levels closes at the start (TRN-6)
        "tournament.finish",
    ]


def test_editing_played_level_refused_current_and_later_levels_editable__TRN_7(floor):
    tournament = TournamentFactory(levels=[(25, 50, 600), (50, 100, 600), (100, 200, 600)])
    clock_start(actor=floor, tournament=tournament, now=T0)
    for order in (1,):
        with pytest.raises(DomainError) as error:
            tournament_level_update(
                actor=floor,
                tournament=tournament,
                order=order,
                big_blind_chips=75,
                now=T0 + timedelta(minutes=25),
            )
        assert (error.value.code, error.value.rule) == ("past_level_locked", "TRN-7")
    assert TournamentLevel.objects.get(tournament=tournament, order=1).big_blind_chips == 50
    # Level 3 is being played at 25 minutes; its new length moves its end (TRN-8).
    level = tournament_level_update(
        actor=floor,
        tournament=tournament,
        order=3,
        big_blind_chips=300,
        small_blind_chips=150,
        minutes=25,
        now=T0 + timedelta(minutes=25),
    )
    assert (level.small_blind_chips, level.big_blind_chips, level.duration_seconds) == (150, 300, 1500)
    record = AuditRecord.objects.get(action="tournament.level_update")
    assert record.before["big_blind_chips"] == 200
    assert record.after["duration_seconds"] == 1500


def test_future_level_edit_must_not_decrease__TRN_7(floor):
    tournament = TournamentFactory(levels=[(25, 50, 600), (50, 100, 600), (100, 200, 600)])
    with pytest.raises(DomainError) as error:
        tournament_level_update(
            actor=floor, tournament=tournament, order=2, small_blind_chips=20, big_blind_chips=40
        )
    assert (error.value.code, error.value.rule) == ("level_decreases", "TRN-7")
    assert TournamentLevel.objects.get(tournament=tournament, order=2).big_blind_chips == 100


def test_api_create_tournament(api, floor, structure):
    response = api(floor).post(
        "/api/tournaments/",
        {
            "name": "Api",
            "structure": structure.pk,
            "start_at": "2026-03-06T19:00:00+01:00",
            "prize_cents": 9000,
            "fee_cents": 1000,
            "starting_stack_chips": 20000,
            "guarantee_mode": "own_count",
            "guarantee_cents": 500000,
            "guarantee_player_count": 20,
        },
        format="json",
    )
    assert response.status_code == 201
    body = response.json()
    assert body["start_at"] == "2026-03-06T19:00:00+01:00"
    assert Tournament.objects.get().start_at == T0
    assert (body["status"], body["guarantee_mode"], body["guarantee_player_count"]) == (
        "scheduled",
        "own_count",
        20,
    )
    assert [level["duration_seconds"] for level in body["levels"]] == [1200, 1200, 600, 900]
    assert api(None).get("/api/tournaments/").status_code in (401, 403)
