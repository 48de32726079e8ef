"""High-hand promotions (LOY-2): whether a claimed hold'em hand qualifies, how it ranks against the
period's best, how a prize is split among tied hands, and when a promotion's periods run.

The hand is valued by the project's evaluator (`poker.hands`, over pokerkit). Claims are typed as
the floor reads the cards ("Ah Kd", board "Qs Jc Th 2d 3c"; any case, "10h" for "Th").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from poker.common import PlayerId, PokerError
from poker.hands import (
    CardError,
    HandCategory,
    HandValue,
    both_hole_cards_play,
    ensure_distinct,
    evaluate_holdem,
    parse_cards,
)
from poker.pots import split_amount

RULE = "LOY-2"


class HighHandError(PokerError):
    """A claim the promotion refuses (LOY-2)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message, rule=RULE)


@dataclass(frozen=True)
class HighHandRules:
    """What a promotion asks of a hand: both hole cards in the best five (unless switched off)
    and a minimum rank (HIGH_CARD: any hand)."""

    both_hole_cards: bool = True
    min_category: HandCategory = HandCategory.HIGH_CARD


def claim_cards(
    hole: str | Sequence[str], board: str | Sequence[str]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The claim's two hole cards and five board cards, canonical; a bad, missing or repeated
    card is refused (LOY-2: the hand cannot be verified)."""
    try:
        hole_cards = parse_cards(hole)
        board_cards = parse_cards(board)
        if len(hole_cards) != 2:
            raise HighHandError("bad_card_count", f"a hold'em hand has 2 hole cards, {len(hole_cards)} given")
        if len(board_cards) != 5:
            raise HighHandError(
                "bad_card_count", f"the board has 5 cards at showdown, {len(board_cards)} given"
            )
        ensure_distinct(hole_cards, board_cards)
    except CardError as error:
        raise HighHandError(error.code, error.message) from error
    return hole_cards, board_cards


def high_hand_value(
    hole: str | Sequence[str], board: str | Sequence[str], rules: HighHandRules | None = None
) -> HandValue:
    """The value of a claimed hand, refused when it does not qualify: both hole cards must play
    in the best five when the rules say so (a tie with a hand that does not use them still
    counts, as for the jackpot), and the hand must reach the minimum rank."""
    rules = rules or HighHandRules()
    hole_cards, board_cards = claim_cards(hole, board)
    value = evaluate_holdem(hole_cards, board_cards)
    if rules.both_hole_cards and not both_hole_cards_play(hole_cards, board_cards):
        raise HighHandError(
            "hole_cards_do_not_play",
            f"both hole cards must play: the best hand, {value.label.lower()} {' '.join(value.cards)}, "
            "does not use both",
        )
    if value.category < rules.min_category:
        raise HighHandError(
            "below_minimum_hand",
            f"{value.label.lower()} is below the promotion's minimum, {rules.min_category.label.lower()}",
        )
    return value


def rank_against_best(value: HandValue, best: HandValue | None) -> str:
    """ "new_best" (beats the period's best, or is the first), "tie" (as good: shares the
    prize) or "beaten" (worse than the best already recorded)."""
    if best is None or value > best:
        return "new_best"
    return "tie" if value == best else "beaten"


def prize_split(prize_cents: int, winners: Sequence[PlayerId]) -> dict[PlayerId, int]:
    """Share a period's prize among the tied best hands, given in the order they were claimed.

    Equal shares in whole cents; the odd cents go one each to the earliest claims, as a split
    pot's odd chips go to the first tied players left of the button (POT-2,
    `poker.pots.split_amount`). The shares always add up to the prize."""
    if prize_cents < 0:
        raise HighHandError("bad_prize", "a prize cannot be negative")
    if not winners:
        raise HighHandError("no_winner", "a prize needs at least one winning hand")
    return split_amount(prize_cents, list(winners))


@dataclass(frozen=True)
class PeriodWindow:
    """The hours a promotion runs each gaming day: from `start` to `end` (venue time; an end at
    or before the start is the next day's, so 20:00-02:00 runs across midnight), cut into
    periods of `minutes` (the last one ends at `end` even if shorter)."""

    start: time
    end: time
    minutes: int

    def periods(self, day: date) -> list[tuple[datetime, datetime]]:
        """[start, end) of each period on the evening that starts on `day`, in naive venue
        time (the caller puts them in the venue's zone)."""
        if self.minutes <= 0:
            raise HighHandError("bad_period", "a period lasts at least one minute")
        first = datetime.combine(day, self.start)
        last = datetime.combine(day, self.end)
        if last <= first:
            last += timedelta(days=1)
        step = timedelta(minutes=self.minutes)
        result = []
        begin = first
        while begin < last:
            result.append((begin, min(begin + step, last)))
            begin += step
        return result

    def period_at(self, moment: datetime) -> tuple[datetime, datetime] | None:
        """The period (naive venue time) that holds `moment` (naive venue time), if any: it may
        have started on the evening before the moment's date."""
        for day in (moment.date() - timedelta(days=1), moment.date()):
            for begin, end in self.periods(day):
                if begin <= moment < end:
                    return begin, end
        return None
