"""The public pages' tests use the cash games' fixtures: the 1/2 and 2/5 games, a shift."""

from tests.cashgame.conftest import game12, game25, shift  # noqa: F401
