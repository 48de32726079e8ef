"""A tournament's public page uses the tournaments' fixtures: their shift (opened at their T0,
in place of the cash games'), a tournament maker and the cashier's registration."""

from tests.tournaments.conftest import make_tournament, register, shift  # noqa: F401
