"""House fee per hand: rake (RAK-1..RAK-4), the bad-beat jackpot drop (JKP-1, JKP-2), and how
both are charged to the pots of a hand with side pots (RAK-6).

All amounts are integer cents. Rates are basis points (1 bp = 0.01 %, so 500 bp = 5 %), which keeps
the arithmetic in integers: no float ever touches money here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from poker.common import PokerError

BASIS_POINTS = 10_000  # 100 % in basis points


def _require_non_negative(**values: int) -> None:
    for name, value in values.items():
        if value < 0:
            raise PokerError("negative_amount", f"{name} must not be negative, got {value}")


def rake_for_pot(
    *,
    pot_cents: int,
    rate_bp: int,
    cap_cents: int,
    rounding_cents: int,
    saw_flop: bool,
    voided: bool,
) -> int:
    """Rake the house takes from one hand's pot, in cents (RAK-1..RAK-4).

    - RAK-2: no flop, no drop -> 0. Draw games pass `saw_flop=True` once the draw took place
      ("no draw, no drop").
    - RAK-4: a voided hand (misdeal, duplicate card) -> 0.
    - RAK-3: `rate_bp` of the pot, rounded DOWN to the smallest chip `rounding_cents`, then capped
      at `cap_cents` per hand. Rounding happens before the cap so that a cap that is itself not a
      multiple of the chip still caps; the venue sets caps in whole chips anyway.
    - RAK-1: the winner(s) get the pot less this amount (see `poker.pots.award_pots`).

    `pot_cents` is the whole pot of the hand (all side pots together, uncalled bets already
    returned); the cap is per hand, not per pot.
    """
    _require_non_negative(pot_cents=pot_cents, rate_bp=rate_bp, cap_cents=cap_cents)
    if rounding_cents <= 0:
        raise PokerError("bad_rounding", "rounding_cents must be a positive chip value", rule="RAK-3")
    if rate_bp > BASIS_POINTS:
        raise PokerError("bad_rate", "rake rate cannot exceed 100 %", rule="RAK-3")
    if voided or not saw_flop:
        return 0
    # Integer floor division: a fraction of a cent is never raked.
    raw_cents = pot_cents * rate_bp // BASIS_POINTS
    # Down to the smallest chip, because the dealer can only drop whole chips.
    rounded_cents = raw_cents - raw_cents % rounding_cents
    return min(rounded_cents, cap_cents)


def jackpot_hand_eligible(
    *,
    small_blind_cents: int,
    big_blind_cents: int,
    players_dealt: int,
    voided: bool,
    eligible_sb_cents: int = 100,
    eligible_bb_cents: int = 200,
    min_players: int = 4,
) -> bool:
    """Whether a hand takes part in the jackpot at all (JKP-1, RAK-4).

    Only cash games at exactly the eligible stakes (default 1/2 EUR) with at least `min_players`
    dealt in. A hand that is not eligible takes no drop and cannot win the jackpot (JKP-1).
    """
    if voided:
        return False
    if (small_blind_cents, big_blind_cents) != (eligible_sb_cents, eligible_bb_cents):
        return False
    return players_dealt >= min_players


def jackpot_drop_for_hand(
    *,
    pot_cents: int,
    small_blind_cents: int,
    big_blind_cents: int,
    players_dealt: int,
    saw_flop: bool,
    voided: bool,
    eligible_sb_cents: int = 100,
    eligible_bb_cents: int = 200,
    min_players: int = 4,
    drop_cents: int = 100,
    threshold_cents: int = 2000,
) -> int:
    """Jackpot drop for one hand, in cents (JKP-1, JKP-2, RAK-2, RAK-4).

    `drop_cents` (1 EUR) when the hand is jackpot-eligible (JKP-1), saw a flop (RAK-2), is not
    voided (RAK-4), and the pot reached `threshold_cents` (20 EUR). `pot_cents` is the gross pot
    of the hand (before rake), because the rule says the pot "reaches 20 EUR". The drop never
    exceeds the pot. It goes to the jackpot fund account, never to house revenue (JKP-2): the
    caller posts it separately from the rake.
    """
    _require_non_negative(pot_cents=pot_cents, drop_cents=drop_cents)
    if not saw_flop:
        return 0
    if not jackpot_hand_eligible(
        small_blind_cents=small_blind_cents,
        big_blind_cents=big_blind_cents,
        players_dealt=players_dealt,
        voided=voided,
        eligible_sb_cents=eligible_sb_cents,
        eligible_bb_cents=eligible_bb_cents,
        min_players=min_players,
    ):
        return 0
    if pot_cents < threshold_cents:
        return 0
    return min(drop_cents, pot_cents)


def rake_split(
    pots_cents: Sequence[int],
    total_cents: int,
    chip_cents: int,
    *,
    room_cents: Sequence[int] | None = None,
) -> list[int]:
    """Charge a hand's fee `total_cents` to its pots, main pot first (RAK-6).

    The fee is computed once for the whole hand (RAK-3: capped once per hand) and charged to the
    pots in proportion to their size, each share rounded DOWN to `chip_cents` (the game's rake
    rounding chip); what the rounding leaves over is charged to the largest pot (the main pot
    when it ties for largest). A pot's share is what its winner pays, so a short all-in who can
    win only the main pot never pays on a side pot he could not win.

    `room_cents` caps each pot's share (default: the pot itself), so the jackpot drop can be
    split after the rake without a pot paying more than it holds. Only with fees that take
    nearly the whole pot can the remainder outgrow the largest pot's room; the rest then goes
    to the next largest pot, and so on, so the shares always sum to the fee.
    """
    pots, room = list(pots_cents), list(pots_cents if room_cents is None else room_cents)
    if chip_cents <= 0:
        raise PokerError("bad_rounding", "chip_cents must be a positive chip value", rule="RAK-6")
    if len(room) != len(pots):
        raise PokerError("bad_room", "give one room per pot", rule="RAK-6")
    if not pots:
        raise PokerError("no_pot", "a hand has at least one pot", rule="RAK-6")
    _require_non_negative(total_cents=total_cents)
    for pot, limit in zip(pots, room, strict=True):
        _require_non_negative(pot_cents=pot, room_cents=limit)
        if limit > pot:
            raise PokerError("bad_room", "a pot's room cannot exceed the pot", rule="RAK-6")
    if total_cents > sum(room):
        raise PokerError("fee_exceeds_pots", "the fee cannot exceed the pots", rule="RAK-6")
    whole = sum(pots)
    if total_cents == 0:
        return [0] * len(pots)
    # Integer floor of total * pot / whole, then down to the chip: a share never exceeds the
    # pot's proportional share.
    shares = [
        min((total_cents * pot // whole) // chip_cents * chip_cents, limit)
        for pot, limit in zip(pots, room, strict=True)
    ]
    remainder = total_cents - sum(shares)
    largest_first = sorted(range(len(pots)), key=lambda index: (-pots[index], index))
    for index in largest_first:
        if remainder == 0:
            break
        taken = min(remainder, room[index] - shares[index])
        shares[index] += taken
        remainder -= taken
    return shares


def fee_split(
    pots_cents: Sequence[int], *, rake_cents: int, drop_cents: int, chip_cents: int
) -> tuple[list[int], list[int]]:
    """The rake and the jackpot drop of one hand, each charged to the pots (RAK-6, JKP-2).

    Both are split in proportion to the pots' sizes by `rake_split`; the drop only into what the
    rake left of each pot, so no pot pays more than it holds. Returns (rake shares, drop shares),
    main pot first.
    """
    rake_shares = rake_split(pots_cents, rake_cents, chip_cents)
    room = [pot - rake for pot, rake in zip(pots_cents, rake_shares, strict=True)]
    drop_shares = rake_split(pots_cents, drop_cents, chip_cents, room_cents=room)
    return rake_shares, drop_shares


@dataclass(frozen=True)
class HandFees:
    """The rake and jackpot drop of a hand and each pot's share of them, main pot first."""

    rake: int
    drop: int
    rake_shares: list[int]
    drop_shares: list[int]


def fees_charged(pots_cents: Sequence[int], *, rake_cents: int, drop_cents: int, chip_cents: int) -> HandFees:
    """A hand's rake and drop, already known, charged to its pots (RAK-6): no pot contested,
    nothing charged."""
    if not pots_cents:
        return HandFees(rake=0, drop=0, rake_shares=[], drop_shares=[])
    rake_shares, drop_shares = fee_split(
        pots_cents, rake_cents=rake_cents, drop_cents=drop_cents, chip_cents=chip_cents
    )
    return HandFees(rake=rake_cents, drop=drop_cents, rake_shares=rake_shares, drop_shares=drop_shares)


def hand_fees(
    *,
    pots_cents: Sequence[int],
    rate_bp: int,
    cap_cents: int,
    rounding_cents: int,
    small_blind_cents: int,
    big_blind_cents: int,
    players_dealt: int,
    saw_flop: bool,
    eligible_sb_cents: int,
    eligible_bb_cents: int,
    min_players: int,
    drop_cents: int,
    threshold_cents: int,
) -> HandFees:
    """The whole house fee of one ended hand in one call: the rake (RAK-1..RAK-4) and the
    jackpot drop (JKP-1, JKP-2), both on the whole pot, and each charged to the pots (RAK-6).

    The rake is capped once per hand (RAK-3); the drop never takes more than the rake left (only
    possible with extreme settings). The stakes are the ones the hand was dealt at (JKP-1).
    """
    pot_cents = sum(pots_cents)
    rake = rake_for_pot(
        pot_cents=pot_cents,
        rate_bp=rate_bp,
        cap_cents=cap_cents,
        rounding_cents=rounding_cents,
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
        eligible_sb_cents=eligible_sb_cents,
        eligible_bb_cents=eligible_bb_cents,
        min_players=min_players,
        drop_cents=drop_cents,
        threshold_cents=threshold_cents,
    )
    drop = min(drop, pot_cents - rake)
    return fees_charged(pots_cents, rake_cents=rake, drop_cents=drop, chip_cents=rounding_cents)
