"""Cards and hand values over pokerkit's evaluator (HND-1, HND-2, FLR-2, JKP-3).

Cards are two-character strings: rank `23456789TJQKA` then suit `s h d c` ("As", "Td"). Hands are
evaluated by pokerkit (a real evaluator, as JKP-3 asks) and returned as `HandValue`, which compares
like the hands do: a higher `strength` is a better hand, equal strength is a split (suits never
break ties, HND-1).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from itertools import combinations

from pokerkit import Label, StandardHighHand

from poker.common import PokerError

RANKS = "23456789TJQKA"  # low to high; the ace also plays low in A-2-3-4-5 (HND-1)
SUITS_HIGH_TO_LOW = "shdc"  # spades > hearts > diamonds > clubs, for the button draw (HND-2)
# The suits' symbols, as the pages show a card and as a tablet's keyboard may type one.
SUIT_SYMBOLS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c", "♤": "s", "♡": "h", "♢": "d", "♧": "c"}

# The jackpot fund is shared as loser / winner / rest of the table (JKP-3), in basis points.
JACKPOT_LOSER_BP = 5_000
JACKPOT_WINNER_BP = 2_500
JACKPOT_TABLE_BP = 2_500


class CardError(PokerError):
    """A card string that is not a card, or a set of cards that cannot be dealt."""


class DuplicateCardError(CardError):
    """Two identical cards in one deck: the hand is void and chips go back to the bettors (FLR-2)."""


class HandCategory(IntEnum):
    """The ten hand ranks of HND-1, weakest first, so categories compare like hands do."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9

    @property
    def label(self) -> str:
        """Human label, as the floor says it: "Four of a kind"."""
        return self.name.replace("_", " ").capitalize()


_CATEGORY_BY_LABEL: dict[Label, HandCategory] = {
    Label.HIGH_CARD: HandCategory.HIGH_CARD,
    Label.ONE_PAIR: HandCategory.ONE_PAIR,
    Label.TWO_PAIR: HandCategory.TWO_PAIR,
    Label.THREE_OF_A_KIND: HandCategory.THREE_OF_A_KIND,
    Label.STRAIGHT: HandCategory.STRAIGHT,
    Label.FLUSH: HandCategory.FLUSH,
    Label.FULL_HOUSE: HandCategory.FULL_HOUSE,
    Label.FOUR_OF_A_KIND: HandCategory.FOUR_OF_A_KIND,
    Label.STRAIGHT_FLUSH: HandCategory.STRAIGHT_FLUSH,
}


@dataclass(frozen=True, order=True)
class HandValue:
    """A hand's value: compares by `strength` only (higher is better, equal is a tie).

    `cards` are the five cards that make the hand, `category` its rank (HND-1).
    """

    strength: int
    category: HandCategory = field(compare=False)
    cards: tuple[str, ...] = field(compare=False)

    @property
    def label(self) -> str:
        return self.category.label


def parse_card(text: str) -> str:
    """Normalise one card ("as", "AS", " As ", "A♠") to its canonical form "As"; reject non-cards."""
    card = "".join(SUIT_SYMBOLS.get(char, char) for char in text.strip())
    if card.startswith("10"):
        card = "T" + card[2:]  # floor staff often type 10 for the ten
    if len(card) != 2 or card[0].upper() not in RANKS or card[1].lower() not in SUITS_HIGH_TO_LOW:
        raise CardError("bad_card", f"{text!r} is not a card (rank 2-9TJQKA, suit s h d c)")
    return card[0].upper() + card[1].lower()


def parse_cards(cards: str | Iterable[str]) -> tuple[str, ...]:
    """Parse "AsKd", "As Kd" or ["As", "Kd"] into canonical cards, rejecting duplicates (FLR-2)."""
    if isinstance(cards, str):
        text = "".join(SUIT_SYMBOLS.get(char, char) for char in cards).replace(",", " ").replace("10", "T")
        compact = "".join(text.split())
        if len(compact) % 2:
            raise CardError("bad_card", f"{cards!r} is not a list of two-character cards")
        items: Iterable[str] = (compact[i : i + 2] for i in range(0, len(compact), 2))
    else:
        items = cards
    parsed = tuple(parse_card(card) for card in items)
    ensure_distinct(parsed)
    return parsed


def ensure_distinct(*groups: Sequence[str]) -> None:
    """Raise `DuplicateCardError` (FLR-2) when the same card appears twice among all groups."""
    seen: set[str] = set()
    for group in groups:
        for card in group:
            if card in seen:
                raise DuplicateCardError(
                    "duplicate_card",
                    f"{card} appears twice: the hand is void and all chips go back to the bettors",
                    rule="FLR-2",
                )
            seen.add(card)


def _value(hand: StandardHighHand) -> HandValue:
    cards = tuple(f"{card.rank.value}{card.suit.value}" for card in hand.cards)
    category = _CATEGORY_BY_LABEL[hand.entry.label]
    if category is HandCategory.STRAIGHT_FLUSH and {card[0] for card in cards} == set("AKQJT"):
        category = HandCategory.ROYAL_FLUSH  # pokerkit folds it into straight flush; HND-1 names it
    return HandValue(strength=hand.entry.index, category=category, cards=cards)


def _five_card_value(cards: Sequence[str]) -> HandValue:
    return _value(StandardHighHand("".join(cards)))


def evaluate_holdem(hole: str | Iterable[str], board: str | Iterable[str]) -> HandValue:
    """Best five of the two hole cards and the board (HND-1).

    The board has 3 to 5 cards (5 at showdown); the best hand may use both, one or none of the hole
    cards. Duplicate cards raise `DuplicateCardError` (FLR-2).
    """
    hole_cards, board_cards = _holdem_cards(hole, board, min_board=3)
    return _value(StandardHighHand.from_game("".join(hole_cards), "".join(board_cards)))


def evaluate_five_card_draw(cards: str | Iterable[str]) -> HandValue:
    """Value of a five-card draw hand: exactly five cards, all of which play (HND-1 ranks)."""
    parsed = parse_cards(cards)
    if len(parsed) != 5:
        raise CardError("bad_card_count", f"five-card draw needs 5 cards, got {len(parsed)}")
    return _five_card_value(parsed)


def _holdem_cards(
    hole: str | Iterable[str], board: str | Iterable[str], *, min_board: int
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    hole_cards = parse_cards(hole)
    board_cards = parse_cards(board)
    if len(hole_cards) != 2:
        raise CardError("bad_card_count", f"hold'em has 2 hole cards, got {len(hole_cards)}")
    if not min_board <= len(board_cards) <= 5:
        raise CardError("bad_card_count", f"the board needs {min_board} to 5 cards, got {len(board_cards)}")
    ensure_distinct(hole_cards, board_cards)
    return hole_cards, board_cards


def best_hand_with_both_hole_cards(hole: Sequence[str], board: Sequence[str]) -> HandValue:
    """Best five-card hand that uses both hole cards and three board cards (JKP-3 helper)."""
    return max(_five_card_value((*hole, *three)) for three in combinations(board, 3))


def both_hole_cards_play(hole: Sequence[str], board: Sequence[str]) -> bool:
    """Whether some best-ranked five-card hand of this player uses both hole cards (JKP-3).

    A tie between a best hand with both hole cards and an equally ranked one without them counts
    as playing: the player's hand is the same either way, so both cards do play in a best hand.
    """
    best = evaluate_holdem(hole, board)
    return best_hand_with_both_hole_cards(hole, board).strength == best.strength


@dataclass(frozen=True)
class BadBeatResult:
    """Outcome of the bad-beat check: `qualifies`, and in `reason` why or why not (JKP-3)."""

    qualifies: bool
    reason: str
    loser: HandValue | None = None
    winner: HandValue | None = None


def bad_beat_check(
    *,
    loser_hole: str | Iterable[str],
    winner_hole: str | Iterable[str],
    board: str | Iterable[str],
    min_loser_category: HandCategory = HandCategory.FOUR_OF_A_KIND,
) -> BadBeatResult:
    """Whether the cards entered by the floor win the bad-beat jackpot (JKP-3).

    Qualifies when the losing hand is at least `min_loser_category` (four of a kind), is beaten
    (strictly: a split is no beat), and both hole cards of each player play in that player's best
    hand. The table and stakes conditions (JKP-1) are checked separately by
    `poker.rake.jackpot_hand_eligible`.
    """
    loser_cards, board_cards = _holdem_cards(loser_hole, board, min_board=5)
    winner_cards = parse_cards(winner_hole)
    if len(winner_cards) != 2:
        raise CardError("bad_card_count", f"hold'em has 2 hole cards, got {len(winner_cards)}")
    ensure_distinct(loser_cards, winner_cards, board_cards)

    loser = evaluate_holdem(loser_cards, board_cards)
    winner = evaluate_holdem(winner_cards, board_cards)

    def result(qualifies: bool, reason: str) -> BadBeatResult:
        return BadBeatResult(qualifies=qualifies, reason=reason, loser=loser, winner=winner)

    if loser.category < min_loser_category:
        return result(False, f"losing hand {loser.label} is below {min_loser_category.label}")
    if winner <= loser:
        return result(False, "the losing hand is not beaten")
    if not both_hole_cards_play(loser_cards, board_cards):
        return result(False, "both hole cards of the losing hand do not play")
    if not both_hole_cards_play(winner_cards, board_cards):
        return result(False, "both hole cards of the winning hand do not play")
    return result(True, f"{loser.label} beaten by {winner.label}, both hole cards playing")


@dataclass(frozen=True)
class JackpotSplit:
    """A bad-beat jackpot shared per JKP-3; `loser + winner + sum(others) == jackpot`."""

    loser: int
    winner: int
    others: tuple[int, ...]


def jackpot_split(*, jackpot_cents: int, other_players: int, rounding_cents: int = 1) -> JackpotSplit:
    """Share a bad-beat jackpot: 50 % loser, 25 % winner, 25 % shared by the others (JKP-3).

    `other_players` is the number of players dealt in other than the loser and the winner. The
    winner's and each other player's share are rounded down to `rounding_cents`; every remainder
    (rounding, and the whole table share when no one else was dealt in) goes to the loser, so the
    shares always sum to the jackpot exactly.
    """
    if jackpot_cents < 0 or other_players < 0 or rounding_cents <= 0:
        raise PokerError("bad_jackpot_split", "jackpot, players and rounding must be positive")
    winner = jackpot_cents * JACKPOT_WINNER_BP // 10_000
    winner -= winner % rounding_cents
    others: tuple[int, ...] = ()
    if other_players:
        each = jackpot_cents * JACKPOT_TABLE_BP // 10_000 // other_players
        each -= each % rounding_cents
        others = (each,) * other_players
    loser = jackpot_cents - winner - sum(others)
    return JackpotSplit(loser=loser, winner=winner, others=others)


def button_draw(cards_by_seat: Mapping[int, str]) -> int:
    """Seat that wins the button draw: highest card, ties by suit s > h > d > c (HND-2).

    Ace is high. Duplicate cards cannot be drawn from one deck (FLR-2).
    """
    if not cards_by_seat:
        raise PokerError("no_players", "the button draw needs at least one player", rule="HND-2")
    cards = {seat: parse_card(card) for seat, card in cards_by_seat.items()}
    ensure_distinct(list(cards.values()))

    def key(seat: int) -> tuple[int, int]:
        card = cards[seat]
        return RANKS.index(card[0]), -SUITS_HIGH_TO_LOW.index(card[1])

    return max(cards, key=key)
