"""Levels of a running tournament edited on a page (TRN-7) with the clock following the current
level's new length (TRN-8), and late registration reopened while its level allows (TRN-6)."""

import random
from datetime import timedelta
from unittest import mock

import pytest
from django.utils import translation

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from tests.tournaments.factories import T0, TournamentFactory, seat_players
from tournaments import tasks
from tournaments.models import Entry, Tournament, TournamentLevel, TournamentRules
from tournaments.services.clock import clock_advance_due, clock_pause, clock_start
from tournaments.services.floor import registration_reopen
from tournaments.services.levels import tournament_levels_edit
from tournaments.services.payouts import entry_bust
from tournaments.services.registration import tournament_start

pytestmark = pytest.mark.django_db
MIN = timedelta(minutes=1)
LEVELS = [(25, 50, 1200), (50, 100, 1200), (100, 200, 1200), (200, 400, 1200)]


def running(floor, now=T0):
    tournament = TournamentFactory(levels=LEVELS)
    clock_start(actor=floor, tournament=tournament, now=now)
    return Tournament.objects.get(pk=tournament.pk)


def test_current_level_made_longer_moves_its_end_and_the_eta_message__TRN_8(
    floor, django_capture_on_commit_callbacks
):
    tournament = running(floor)
    with mock.patch.object(tasks.clock_tick, "apply_async") as apply_async:
        with django_capture_on_commit_callbacks(execute=True):
            tournament_levels_edit(
                actor=floor, tournament=tournament, changes={1: {"minutes": 25}}, now=T0 + 15 * MIN
            )
        apply_async.assert_called_once_with(
            (),
            {
                "tournament_id": tournament.pk,
                "due": (T0 + 25 * MIN).isoformat(),
                "venue_id": tournament.venue_id,
            },
            eta=T0 + 25 * MIN,
        )
    tournament.refresh_from_db()
    assert (tournament.level_ends_at, tournament.tick_eta_at) == (T0 + 25 * MIN, T0 + 25 * MIN)
    # The message sent for the old end (20 minutes) finds nothing due: the level does not rise.
    assert clock_advance_due(tournament_id=tournament.pk, now=T0 + 20 * MIN) == 0
    assert clock_advance_due(tournament_id=tournament.pk, now=T0 + 25 * MIN) == 1
    tournament.refresh_from_db()
    assert (tournament.current_level_index, tournament.level_started_at) == (1, T0 + 25 * MIN)
    level = AuditRecord.objects.get(action="tournament.level_update")
    assert (level.before["duration_seconds"], level.after["duration_seconds"], level.after["order"]) == (
        1200,
        1500,
        1,
    )
    moved = AuditRecord.objects.get(action="clock.level_duration")
    assert (moved.before["level_ends_at"], moved.after["level_ends_at"], moved.note) == (
        (T0 + 20 * MIN).isoformat(),
        (T0 + 25 * MIN).isoformat(),
        "level 1: 1200 s -> 1500 s",
    )


def test_current_level_made_shorter_keeps_added_time_and_rises_earlier__TRN_8(floor):
    tournament = running(floor)
    tournament.level_ends_at = T0 + 21 * MIN  # the floor added a minute
    tournament.save(update_fields=["level_ends_at"])
    tournament_levels_edit(actor=floor, tournament=tournament, changes={1: {"minutes": 12}}, now=T0 + 5 * MIN)
    tournament.refresh_from_db()
    assert tournament.level_ends_at == T0 + 13 * MIN
    assert clock_advance_due(tournament_id=tournament.pk, now=T0 + 13 * MIN) == 1


def test_current_level_too_short_for_the_time_played_refused_nothing_written__TRN_8(floor):
    tournament = running(floor)
    with pytest.raises(DomainError) as error, translation.override("en"):
        tournament_levels_edit(
            actor=floor,
            tournament=tournament,
            changes={1: {"minutes": 10}, 2: {"big_blind_chips": 150}},
            now=T0 + 15 * MIN,
        )
    assert (error.value.code, error.value.rule) == ("level_time_passed", "TRN-8")
    assert "ended the current level 300 seconds ago" in str(error.value)
    assert list(
        TournamentLevel.objects.filter(tournament=tournament).values_list(
            "duration_seconds", "big_blind_chips"
        )
    ) == [
        (1200, 50),
        (1200, 100),
        (1200, 200),
        (1200, 400),
    ]
    tournament.refresh_from_db()
    assert tournament.level_ends_at == T0 + 20 * MIN
    assert not AuditRecord.objects.filter(
        action__in=["tournament.level_update", "clock.level_duration"]
    ).exists()


def test_paused_clock_keeps_the_new_time_left__TRN_8(floor):
    tournament = running(floor)
    clock_pause(actor=floor, tournament=tournament, now=T0 + 5 * MIN)
    tournament_levels_edit(actor=floor, tournament=tournament, changes={1: {"minutes": 30}}, now=T0 + 9 * MIN)
    tournament.refresh_from_db()
    assert (tournament.status, tournament.paused_remaining_ms, tournament.level_ends_at) == (
        "paused",
        25 * 60_000,
        None,
    )


def test_finished_level_refused_and_later_levels_raised_together__TRN_7(floor):
    tournament = running(floor)
    now = T0 + 25 * MIN  # level 2 is being played
    with pytest.raises(DomainError) as error:
        tournament_levels_edit(
            actor=floor, tournament=tournament, changes={1: {"big_blind_chips": 60}}, now=now
        )
    assert (error.value.code, error.value.rule) == ("past_level_locked", "TRN-7")
    # Raising level 3 above level 4's old blinds works only when both change at once.
    changed = tournament_levels_edit(
        actor=floor,
        tournament=tournament,
        changes={
            3: {"small_blind_chips": 300, "big_blind_chips": 600},
            4: {"small_blind_chips": 400, "big_blind_chips": 800, "ante_chips": 800, "big_blind_ante": True},
        },
        now=now,
    )
    assert [level.order for level in changed] == [3, 4]
    assert list(
        TournamentLevel.objects.filter(tournament=tournament).values_list(
            "small_blind_chips", "big_blind_chips", "ante_chips", "big_blind_ante"
        )
    ) == [
        (25, 50, 0, False),
        (50, 100, 0, False),
        (300, 600, 0, False),
        (400, 800, 800, True),
    ]
    assert AuditRecord.objects.filter(action="tournament.level_update").count() == 2


def test_levels_page_saves_and_names_the_bad_row(client, floor):
    tournament = running(floor, now=T0)
    client.force_login(floor)
    url = f"/tournaments/{tournament.pk}/levels/"
    page = client.get(url).content.decode()
    assert 'name="sb_1"' in page and 'name="sb_4"' in page  # level 1 is being played
    data = {"sb_4": "150", "bb_4": "100", "ante_4": "0", "minutes_4": "20"}
    for order in (1, 2, 3):
        data |= {
            f"sb_{order}": str(LEVELS[order - 1][0]),
            f"bb_{order}": str(LEVELS[order - 1][1]),
            f"ante_{order}": "0",
            f"minutes_{order}": "20",
        }
    with mock.patch("django.utils.timezone.now", return_value=T0 + 5 * MIN):
        response = client.post(url, data)
        assert response.status_code == 400
        body = response.content.decode()
        assert "Row 4: the big blind (100) must be larger than the small blind (150)." in body
        assert 'value="150"' in body  # what was typed stays
        assert TournamentLevel.objects.get(tournament=tournament, order=4).small_blind_chips == 200
        data |= {"sb_4": "300", "bb_4": "600", "minutes_4": "15"}
        response = client.post(url, data)
    assert response.status_code == 302
    assert "Saved: rows 4." in client.get(url).content.decode()
    level = TournamentLevel.objects.get(tournament=tournament, order=4)
    assert (level.small_blind_chips, level.big_blind_chips, level.duration_seconds) == (300, 600, 900)


def late_field(floor, make_tournament, late: int = 2):
    tournament = make_tournament(min_players=2, late_registration_level=late)
    entries = seat_players(tournament, 6)
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(1))
    return Tournament.objects.get(pk=tournament.pk), entries


def test_late_registration_reopened_until_a_level_still_to_end__TRN_6(floor, make_tournament):
    from tournaments.services.clock import clock_next_level

    tournament, entries = late_field(floor, make_tournament, late=1)
    entry_bust(actor=floor, tournament=tournament, busted=[(entries[0].pk, None)], now=T0 + MIN)
    clock_next_level(actor=floor, tournament=tournament, now=T0 + 2 * MIN)  # level 1 ends: closed
    assert Entry.objects.get(pk=entries[0].pk).finish_place == 6
    with pytest.raises(DomainError) as error:  # level 1 has ended
        registration_reopen(actor=floor, tournament=tournament, now=T0 + 3 * MIN)
    assert (error.value.code, error.value.rule) == ("late_registration_over", "TRN-6")
    assert tournament.rules.registration_closed_at is not None
    registration_reopen(actor=floor, tournament=tournament, until_level=3, now=T0 + 3 * MIN)
    tournament.refresh_from_db()
    assert (tournament.late_registration_level, tournament.rules.registration_closed_at) == (3, None)
    assert Entry.objects.get(pk=entries[0].pk).finish_place is None  # given again at the close
    record = AuditRecord.objects.get(action="tournament.registration_reopened")
    assert (
        record.before["late_registration_level"],
        record.before["places"],
        record.after["late_registration_level"],
    ) == (1, [[entries[0].number, 6]], 3)
    with pytest.raises(DomainError) as error:
        registration_reopen(actor=floor, tournament=tournament, now=T0 + 4 * MIN)
    assert error.value.code == "registration_already_open"


def test_reopen_refused_past_the_last_level_and_by_the_cashier__TRN_6(floor, cashier, make_tournament):
    tournament, _entries = late_field(floor, make_tournament, late=0)
    with pytest.raises(DomainError) as error:
        registration_reopen(actor=floor, tournament=tournament, until_level=99, now=T0 + MIN)
    assert (error.value.code, error.value.rule) == ("invalid_level", "TRN-6")
    with pytest.raises(DomainError):
        registration_reopen(actor=cashier, tournament=tournament, until_level=2, now=T0 + MIN)
    assert tournament.rules.registration_closed_at == T0
    assert not AuditRecord.objects.filter(action="tournament.registration_reopened").exists()


def test_dashboard_reopens_late_registration_and_names_the_refusal__TRN_6(client, floor, make_tournament):
    tournament, _entries = late_field(floor, make_tournament, late=2)
    # Closed early, while level 2 has not ended.
    rules, _new = TournamentRules.objects.update_or_create(
        tournament=tournament, defaults={"registration_closed_at": T0}
    )
    client.force_login(floor)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Reopen late registration" in page
    with mock.patch("django.utils.timezone.now", return_value=T0 + MIN):
        response = client.post(f"/tournaments/{tournament.pk}/seating/reopen-registration/", follow=True)
    assert "Late registration is open again." in response.content.decode()
    rules.refresh_from_db()
    assert rules.registration_closed_at is None
    with mock.patch("django.utils.timezone.now", return_value=T0 + 2 * MIN):
        again = client.post(f"/tournaments/{tournament.pk}/seating/reopen-registration/", follow=True)
    assert "Late registration is open already." in again.content.decode()
    assert AuditRecord.objects.filter(action="tournament.registration_reopened").count() == 1
