"""A tournament entry that has played keeps its buy-in (CAG-6): the cage's reversal is refused
once the entry sat down in a running tournament, busted, or won. Every test ends with the books
checked."""

from datetime import timedelta

import pytest

from cage.services import correction_request
from cardroom.errors import DomainError
from reports.selectors.books import books_problems
from tests.cage.test_one_door import route
from tests.cashgame.conftest import T0
from tests.factories import PlayerFactory
from tournaments.models import EntryStatus, TournamentStatus
from tournaments.services.payouts.eliminations import entry_bust
from tournaments.services.registration import tournament_start
from tournaments.services.tournaments import tournament_finish

pytestmark = pytest.mark.django_db


def test_reversing_an_entry_that_has_played_is_refused__CAG_6(cashier, floor, manager, shift, tournament):
    records = [
        route(
            cashier,
            shift,
            kind="tournament_buy_in",
            player_id=PlayerFactory().pk,
            tournament_id=tournament.pk,
        )
        for _ in range(2)
    ]
    tournament_start(actor=floor, tournament=tournament, now=T0)
    with pytest.raises(DomainError) as error:
        correction_request(actor=manager, posting=records[0].posting, reason="Changed his mind")
    assert (error.value.code, error.value.rule) == ("entry_has_played", "CAG-6")
    assert "has played" in error.value.message
    assert tournament.entries.filter(status=EntryStatus.ACTIVE).count() == 2
    assert books_problems() == []


def test_reversing_the_winners_buy_in_after_the_finish_is_refused__CAG_6(
    cashier, floor, manager, shift, tournament
):
    """The winner is still "playing" when the tournament ends; it has played all the same, and
    its buy-in is in the prizes already paid out."""
    records = [
        route(
            cashier,
            shift,
            kind="tournament_buy_in",
            player_id=PlayerFactory().pk,
            tournament_id=tournament.pk,
        )
        for _ in range(2)
    ]
    tournament_start(actor=floor, tournament=tournament, now=T0)
    loser, winner = tournament.entries.order_by("pk")
    entry_bust(actor=floor, tournament=tournament, busted=[(loser.pk, None)], now=T0 + timedelta(minutes=5))
    tournament_finish(actor=floor, tournament=tournament, now=T0 + timedelta(minutes=6))
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    with pytest.raises(DomainError) as error:
        correction_request(actor=manager, posting=records[1].posting, reason="Changed his mind")
    assert (error.value.code, error.value.rule) == ("entry_has_played", "CAG-6")
    winner.refresh_from_db()
    assert (winner.status, winner.finish_place) == (EntryStatus.ACTIVE, 1)
    assert books_problems() == []
