"""The house fee of one hand at a game, from the game's settings: the rake (RAK-1..RAK-4), the
jackpot drop (JKP-1, JKP-2), and both charged to the hand's pots (RAK-6). One place for the hand
log and the floor's side-pot calculator; the mathematics is poker.rake's. Amounts are cents.
"""

from dataclasses import dataclass

from cashgame.models import Game
from poker.rake import fee_split, jackpot_drop_for_hand, rake_for_pot


@dataclass(frozen=True)
class HandFees:
    """The rake and jackpot drop of a hand and each pot's share of them, main pot first."""

    rake: int
    drop: int
    rake_shares: list[int]
    drop_shares: list[int]


def split_fees(pots_cents: list[int], *, rake_cents: int, drop_cents: int, chip_cents: int) -> HandFees:
    """A hand's rake and drop charged to its pots in proportion, in whole chips (RAK-6)."""
    if not pots_cents:  # nothing was contested, so nothing is raked
        return HandFees(rake=0, drop=0, rake_shares=[], drop_shares=[])
    rake_shares, drop_shares = fee_split(
        pots_cents, rake_cents=rake_cents, drop_cents=drop_cents, chip_cents=chip_cents
    )
    return HandFees(rake=rake_cents, drop=drop_cents, rake_shares=rake_shares, drop_shares=drop_shares)


def hand_fees(
    game: Game,
    *,
    pots_cents: list[int],
    small_blind_cents: int,
    big_blind_cents: int,
    players_dealt: int,
    saw_flop: bool,
) -> HandFees:
    """The fees of a hand dealt at `game` with these pots (main first; one pot if no side pots).

    The rake is computed once on the whole pot and capped once per hand (RAK-3), the drop on the
    whole pot too (JKP-2); the drop never takes more than the rake left. The stakes are the ones
    the hand was dealt at (JKP-1), which a hand keeps if the game changes meanwhile. Raises
    PokerError for settings or pots that make no sense.
    """
    pot_cents = sum(pots_cents)
    rake = rake_for_pot(
        pot_cents=pot_cents,
        rate_bp=game.rake_rate_bp,
        cap_cents=game.rake_cap_cents,
        rounding_cents=game.rake_rounding_cents,
        saw_flop=saw_flop,
        voided=False,
    )
    drop = jackpot_drop_for_hand(
        pot_cents=pot_cents,
        small_blind_cents=small_blind_cents,
        big_blind_cents=big_blind_cents,
        players_dealt=players_dealt,
        saw_flop=saw_flop,
        voided=False,
        eligible_sb_cents=game.jackpot_small_blind_cents,
        eligible_bb_cents=game.jackpot_big_blind_cents,
        min_players=game.jackpot_min_players,
        drop_cents=game.jackpot_drop_cents,
        threshold_cents=game.jackpot_threshold_cents,
    )
    # The fees never take more than the pot (only possible with extreme settings).
    drop = min(drop, pot_cents - rake)
    return split_fees(pots_cents, rake_cents=rake, drop_cents=drop, chip_cents=game.rake_rounding_cents)
