"""Demo data of the cash games: NLHE at 1/2 EUR and 2/5 EUR, and open tables for both.

Idempotent: games are found by name and tables by number first, so running it again adds nothing.
"""

from django.db import transaction

from cashgame.models import CashTable, Game, GameType
from cashgame.services.games import game_create
from cashgame.services.tables import table_create, table_open

GAMES = [
    # name, small blind, big blind, min buy-in, max buy-in (cents)
    ("NLHE 1/2 EUR", 100, 200, 10_000, 30_000),
    ("NLHE 2/5 EUR", 200, 500, 20_000, 100_000),
]
TABLES = [(1, "NLHE 1/2 EUR"), (2, "NLHE 1/2 EUR"), (3, "NLHE 2/5 EUR")]


@transaction.atomic
def load(*, actor, stdout) -> None:
    games = {}
    for name, small, big, minimum, maximum in GAMES:
        game = Game.objects.filter(name=name).first()
        if game is None:
            game = game_create(
                actor=actor,
                name=name,
                game_type=GameType.NLHE,
                small_blind_cents=small,
                big_blind_cents=big,
                min_buy_in_cents=minimum,
                max_buy_in_cents=maximum,
            )
        games[name] = game
    opened = 0
    for number, name in TABLES:
        table = CashTable.objects.filter(number=number).first()
        if table is None:
            table = table_create(actor=actor, number=number, game=games[name], seats=9)
            table_open(actor=actor, table=table)
            opened += 1
    if opened:
        stdout.write(f"Demo cash tables open: {opened} (waiting-list board: /board/).")
