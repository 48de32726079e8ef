"""The floor view's tests use the cash games' fixtures: the 1/2 and 2/5 games, table 1, a shift."""

from tests.cashgame.conftest import game12, game25, shift, table12  # noqa: F401
