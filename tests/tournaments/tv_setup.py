"""A tournament as the TV shows it at its end: five entries of 90.00 EUR and 20,000 chips, paid
50/30/20 % (225.00, 135.00 and 90.00 EUR), two out in one hand (places 4 and 5, no prize), and a
chip-chop deal among the three left: 270.00, 112.50 and 67.50 EUR, not the payouts before it."""

import random
from datetime import timedelta

from tests.factories import PlayerFactory
from tests.tournaments.factories import T0
from tournaments.services.payouts import deal_accept, entry_bust, payout_table_set
from tournaments.services.registration import tournament_start
from tournaments.services.tournaments import tournament_finish

S = timedelta(seconds=1)
CLOSED = T0 + 1800 * S  # the end of level 3: registration is closed
PLAYERS = [
    ("Peter", "Kováč", "Nits"),  # two "Nits": told apart by the last name's initial (WTL-3)
    ("Marek", "Mráz", "Nits"),
    ("Eva", "Kollárová", ""),
    ("Ivana", "Šimková", ""),
    ("Jozef", "Novák", "Shark"),
]


def finished_with_deal(floor, register, make_tournament, *, finish: bool = True):
    """(tournament, entries); the deal is made at CLOSED + 2 s and the floor finishes at + 3 s."""
    tournament = make_tournament(name="Sunday Bounty", late_registration_level=1)
    entries = [
        register(tournament, player=PlayerFactory(first_name=first, last_name=last, nickname=nick))
        for first, last, nick in PLAYERS
    ]
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(2))
    payout_table_set(actor=floor, tournament=tournament, percentages=[5_000, 3_000, 2_000], now=T0)
    # Ivana (800 chips) finishes 4th, Jozef (500) 5th: out of the money.
    entry_bust(
        actor=floor,
        tournament=tournament,
        busted=[(entries[4].pk, 500), (entries[3].pk, 800)],
        now=CLOSED + S,
    )
    a, b, c = (entry.pk for entry in entries[:3])
    stacks = {a: 60_000, b: 25_000, c: 15_000}
    shares = {a: 27_000, b: 11_250, c: 6_750}
    deal_accept(
        actor=floor,
        tournament=tournament,
        amounts=shares,
        method="chip_chop",
        stacks=stacks,
        now=CLOSED + 2 * S,
    )
    if finish:
        tournament_finish(actor=floor, tournament=tournament, now=CLOSED + 3 * S)
    tournament.refresh_from_db()
    return tournament, entries
