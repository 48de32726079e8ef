"""Main and side pots, dead money, splitting, odd chips, rake and showdown order (POT-1..POT-4,
RAK-1, RAK-6).

Amounts are integers in one unit chosen by the caller (cents at cash games, chips in
tournaments). Players are listed in seat order clockwise, starting with the first seat left of the
button (the button, if still in, comes last): that order decides odd chips (POT-2) and the
showdown when the river is checked around (POT-3), so callers never pass the button separately.

How the pot is built (POT-1): every level at which a live player is all-in closes a pot; each pot
holds, from every player, what he put in between the previous level and this one. Folded players'
chips sit in every pot they reach, but a folded player is eligible for none. The part of the
biggest bet that nobody matched is an uncalled bet: it goes straight back to its owner, forms no
pot and is never raked. (So does anything a killed hand put in beyond what the biggest live bettor
could match: a live player never wins more from anyone than he risked.)

Dead money (POT-4): a dead blind (the small blind a player re-entering after missing his blinds
posts, CSH-6) goes into the pot but does not count toward what that player has matched. The pot
levels and the returned chips are computed without it, and it joins the main pot. A folded
player's bets are dead too in the sense that they win nothing, but they were bets other players
matched: they stay where POT-1 puts them, in the main pot up to the first all-in level and beyond
that in the side pots they reach, so that no all-in player wins from anyone more than he put in.

Rake (RAK-1, RAK-6): the hand's rake (and jackpot drop) is charged to the pots in proportion to
their size (`poker.rake.rake_split`); each pot's winner pays that pot's share.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from poker.common import PlayerId, PokerError
from poker.rake import rake_split


@dataclass(frozen=True)
class Contribution:
    """What one player put into the pot over the whole hand (all rounds, blinds and antes).

    `amount` is his live money, what counts toward matching the others' bets; `dead` is dead
    money he put in on top of it (a dead small blind, POT-4), which joins the main pot.
    """

    player: PlayerId
    amount: int
    folded: bool = False
    dead: int = 0


@dataclass(frozen=True)
class Pot:
    """One pot and the players who can win it, in seat order from the button (POT-1)."""

    amount: int
    eligible: tuple[PlayerId, ...]


@dataclass(frozen=True)
class PotBreakdown:
    """The pots of a hand: `pots[0]` is the main pot, then the side pots in order (POT-1).

    `returned` maps players to chips that no live opponent matched (the uncalled part of the
    biggest bet): they go back to their owner, form no pot and are never raked. `seat_order` is
    every contributor in seat order from the button, kept for POT-2. `dead` is the dead money
    (POT-4) included in the main pot.
    """

    pots: tuple[Pot, ...]
    seat_order: tuple[PlayerId, ...]
    returned: dict[PlayerId, int] = field(default_factory=dict)
    dead: int = 0

    @property
    def total(self) -> int:
        """Chips in the pots (what can be won and raked): the bets less the returned chips."""
        return sum(pot.amount for pot in self.pots)

    @property
    def returned_total(self) -> int:
        return sum(self.returned.values())


@dataclass(frozen=True)
class Award:
    """Who gets what from a hand: `amounts` covers every contributor (0 for losers).

    `amounts` includes returned (uncalled) chips. `sum(amounts.values()) + rake` equals what was
    put in. `pot_winners[i]` are the players who shared `pots[i]`, `pot_fees[i]` what the house
    took from it (RAK-6).
    """

    amounts: dict[PlayerId, int]
    rake: int
    pot_winners: tuple[tuple[PlayerId, ...], ...] = field(default=())
    pot_fees: tuple[int, ...] = field(default=())


def build_pots(contributions: Sequence[Contribution]) -> PotBreakdown:
    """Split each player's total contribution into a main pot and side pots (POT-1), with the
    dead money in the main pot (POT-4).

    `contributions` lists every player who put anything in (and may list those who put in
    nothing), in seat order clockwise from the first seat left of the button.
    """
    players = [c.player for c in contributions]
    if len(set(players)) != len(players):
        raise PokerError("duplicate_player", "each player contributes once per hand", rule="POT-1")
    for c in contributions:
        if c.amount < 0 or c.dead < 0:
            raise PokerError("negative_amount", f"{c.player!r} put in a negative amount")
    live = [c for c in contributions if not c.folded]
    if not live:
        raise PokerError("no_live_player", "a hand needs at least one player who did not fold")

    # Nothing above what the biggest live bettor could have won can be at risk: the top live
    # bettor gets back what no one matched (the uncalled bet), and a folded or dead hand that
    # put in more than that (a killed hand, FLR-4) gets back the excess too.
    top = max(live, key=lambda c: c.amount)
    others_max = max((c.amount for c in contributions if c.player != top.player), default=0)
    ceiling = min(top.amount, others_max)
    amounts = {c.player: min(c.amount, ceiling) for c in contributions}
    returned = {c.player: c.amount - ceiling for c in contributions if c.amount > ceiling}

    live_players = {c.player for c in live}
    levels = sorted({amounts[p] for p in live_players if amounts[p] > 0})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        # Each player's chips between the previous all-in level and this one; folded chips are
        # dead money here, their owners are not eligible.
        slice_total = sum(min(a, level) - min(a, previous) for a in amounts.values())
        eligible = tuple(p for p in players if p in live_players and amounts[p] >= level)
        pots.append(Pot(amount=slice_total, eligible=eligible))
        previous = level

    # Dead money never counts toward matching (POT-4): it is left out of the levels and the
    # returned chips above, and joins the main pot, which every live player contests.
    dead = sum(c.dead for c in contributions)
    if dead:
        if pots:
            pots[0] = Pot(amount=pots[0].amount + dead, eligible=pots[0].eligible)
        else:
            pots.append(Pot(amount=dead, eligible=tuple(p for p in players if p in live_players)))
    return PotBreakdown(pots=tuple(pots), seat_order=tuple(players), returned=returned, dead=dead)


def split_amount(amount: int, winners: Sequence[PlayerId], *, chip: int = 1) -> dict[PlayerId, int]:
    """Split `amount` equally among `winners` (given in seat order from the button) (POT-2).

    The pot is split in whole chips of size `chip`; the odd chips that do not divide go one each
    to the first tied players left of the button. Any remainder below one chip (only possible when
    the pot itself is not a whole number of chips) also goes to the first of them.
    """
    if not winners:
        raise PokerError("no_winner", "a pot needs at least one winner", rule="POT-2")
    if chip <= 0:
        raise PokerError("bad_chip", "chip must be a positive amount", rule="POT-2")
    chips, below_chip = divmod(amount, chip)
    share, odd = divmod(chips, len(winners))
    result: dict[PlayerId, int] = {}
    for index, player in enumerate(winners):
        result[player] = (share + (1 if index < odd else 0)) * chip
    result[winners[0]] += below_chip
    return result


def award_pots(
    breakdown: PotBreakdown,
    ranking: Sequence[Iterable[PlayerId]],
    *,
    rake: int = 0,
    chip: int = 1,
    pot_fees: Sequence[int] | None = None,
) -> Award:
    """Hand out every pot to its best eligible hand(s) after the house fee (POT-1, POT-2, RAK-1,
    RAK-6).

    `ranking` is the showdown result, best first, as groups of equal hands, e.g.
    `[["A", "C"], ["B"]]` when A and C tie and beat B. Players missing from the ranking (folded,
    mucked) win nothing. The fee is either `rake` for the whole hand (from
    `poker.rake.rake_for_pot`), charged to the pots in proportion to their size in whole `chip`s
    (RAK-6), or `pot_fees`, one amount per pot already split (e.g. rake and jackpot drop shares
    from `poker.rake.fee_split`). The returned uncalled bet is never raked.
    """
    if pot_fees is None:
        if rake < 0 or rake > breakdown.total:
            raise PokerError("bad_rake", "rake must be between 0 and the pot", rule="RAK-1")
        fees = rake_split([pot.amount for pot in breakdown.pots], rake, chip) if breakdown.pots else []
    else:
        if rake:
            raise PokerError("bad_rake", "give the rake or the fees per pot, not both", rule="RAK-6")
        fees = list(pot_fees)
        if len(fees) != len(breakdown.pots) or any(
            not 0 <= fee <= pot.amount for fee, pot in zip(fees, breakdown.pots, strict=True)
        ):
            raise PokerError("bad_rake", "each pot's fee must be between 0 and the pot", rule="RAK-6")
    position = {player: index for index, player in enumerate(breakdown.seat_order)}
    groups = [set(group) for group in ranking]

    amounts: dict[PlayerId, int] = dict.fromkeys(breakdown.seat_order, 0)
    for player, chips in breakdown.returned.items():
        amounts[player] += chips

    winners_per_pot: list[tuple[PlayerId, ...]] = []
    for pot, fee in zip(breakdown.pots, fees, strict=True):
        net = pot.amount - fee
        winners: tuple[PlayerId, ...] = ()
        for group in groups:
            winners = tuple(p for p in pot.eligible if p in group)
            if winners:
                break
        if not winners:
            raise PokerError(
                "no_winner", f"no ranked player is eligible for a pot of {pot.amount}", rule="POT-1"
            )
        winners = tuple(sorted(winners, key=position.__getitem__))
        for player, won in split_amount(net, winners, chip=chip).items():
            amounts[player] += won
        winners_per_pot.append(winners)

    return Award(amounts=amounts, rake=sum(fees), pot_winners=tuple(winners_per_pot), pot_fees=tuple(fees))


def showdown_order(players: Sequence[PlayerId], *, last_aggressor: PlayerId | None) -> list[PlayerId]:
    """The order in which hands are shown (POT-3).

    `players` are the players still in at showdown, in seat order clockwise from the first seat
    left of the button. The last aggressor (the last player to bet or raise on the final betting
    round) shows first and the others follow clockwise; if that round was checked around
    (`last_aggressor=None`), the first player left of the button shows first.
    """
    order = list(players)
    if last_aggressor is None:
        return order
    if last_aggressor not in order:
        raise PokerError("unknown_aggressor", "the last aggressor must be one of the players", rule="POT-3")
    start = order.index(last_aggressor)
    return order[start:] + order[:start]
