"""Two phones joining with one number at once, on PostgreSQL (WTL-1): the game's row lock orders
them, so one joins and the other is told he is on the list already; the list holds him once."""

import threading

import pytest
from django.core.cache import cache
from django.db import connections

from cardroom.errors import DomainError
from cashgame.models import WaitingEntry
from cashgame.services.waiting_remote import waiting_join_remote
from tests.cashgame.conftest import make_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_two_joins_with_one_phone_at_once_make_one_entry__WTL_1():
    cache.clear()
    game, other = make_game(), make_game(name="NLHE 2/5", small=200, big=500)
    barrier = threading.Barrier(4)
    outcomes: list[str] = []

    def join(address: str, games: list[int]) -> None:
        try:
            barrier.wait()
            waiting_join_remote(game_ids=games, nickname="Ace", phone="905123456", address=address)
            outcomes.append("joined")
        except DomainError as error:
            outcomes.append(error.code)
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=join, args=(f"10.0.0.{n}", [game.pk, other.pk] if n % 2 else [game.pk]))
        for n in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["already_waiting", "already_waiting", "already_waiting", "joined"]
    assert WaitingEntry.objects.filter(game=game, phone="905123456").count() == 1
    cache.clear()
