"""The house fee of one hand at a game: the game's settings handed to `poker.rake.hand_fees`,
which computes the rake (RAK-1..RAK-4), the jackpot drop (JKP-1, JKP-2) and both charged to the
hand's pots (RAK-6) in one call. One place for the hand log and the floor's side-pot
calculator. Amounts are cents.
"""

from cashgame.models import Game
from poker import rake as poker_rake
from poker.rake import HandFees


def hand_fees(
    game: Game,
    *,
    pots_cents: list[int],
    small_blind_cents: int,
    big_blind_cents: int,
    players_dealt: int,
    saw_flop: bool,
) -> HandFees:
    """The fees of a hand dealt at `game` with these pots (main first; one pot if no side pots),
    at the stakes the hand was dealt at (JKP-1), which a hand keeps if the game changes
    meanwhile. Raises PokerError for settings or pots that make no sense."""
    return poker_rake.hand_fees(
        pots_cents=pots_cents,
        rate_bp=game.rake_rate_bp,
        cap_cents=game.rake_cap_cents,
        rounding_cents=game.rake_rounding_cents,
        small_blind_cents=small_blind_cents,
        big_blind_cents=big_blind_cents,
        players_dealt=players_dealt,
        saw_flop=saw_flop,
        eligible_sb_cents=game.jackpot_small_blind_cents,
        eligible_bb_cents=game.jackpot_big_blind_cents,
        min_players=game.jackpot_min_players,
        drop_cents=game.jackpot_drop_cents,
        threshold_cents=game.jackpot_threshold_cents,
    )
