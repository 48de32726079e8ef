"""The big blind ante (SER-5, TDA 2024): what a big blind posts to the ante and to his blind.

At a big-blind-ante level the player in the big blind posts the whole table's ante in one amount
(the level's `ante`). It is posted before the big blind, it is never reduced however few players
are dealt in (a short table or heads-up posts the same ante), and a player short of both posts
the ante first and only what is left to the big blind. The ante is dead money; the big blind is
live. Amounts are integer chips.
"""

from __future__ import annotations

from dataclasses import dataclass

from poker.common import PokerError


@dataclass(frozen=True)
class BigBlindAntePost:
    """What the big blind posts: `ante` first (dead, to the pot), then `big_blind` (live)."""

    ante: int
    big_blind: int

    @property
    def total(self) -> int:
        return self.ante + self.big_blind


def big_blind_ante_post(*, stack: int, big_blind: int, ante: int, players_dealt: int) -> BigBlindAntePost:
    """What the player in the big blind with `stack` chips posts at a big-blind-ante level
    (SER-5): the ante first, in full if he has it, then the big blind from what is left; he is
    all in when the two together take his stack. `players_dealt` changes nothing: the ante is
    the level's, never reduced at a short table."""
    if stack < 0 or big_blind <= 0 or ante < 0:
        raise PokerError("bad_amount", "stack and ante must be >= 0 and the big blind > 0", rule="SER-5")
    if players_dealt < 2:
        raise PokerError("bad_players", "a hand needs at least two players dealt in", rule="SER-5")
    ante_posted = min(stack, ante)
    return BigBlindAntePost(ante=ante_posted, big_blind=min(stack - ante_posted, big_blind))
