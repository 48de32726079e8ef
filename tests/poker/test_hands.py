"""Cards, hand values, bad-beat jackpot and button draw (HND-1, HND-2, FLR-2, JKP-3)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from poker.hands import (
    RANKS,
    SUITS_HIGH_TO_LOW,
    CardError,
    DuplicateCardError,
    HandCategory,
    bad_beat_check,
    both_hole_cards_play,
    button_draw,
    evaluate_five_card_draw,
    evaluate_holdem,
    jackpot_split,
    parse_card,
    parse_cards,
)

DECK = [rank + suit for rank in RANKS for suit in SUITS_HIGH_TO_LOW]


def test_cards_are_normalised_and_validated() -> None:
    assert parse_card("as") == "As"
    assert parse_card("10h") == "Th"
    assert parse_cards("Ah Kd, 10c") == ("Ah", "Kd", "Tc")
    with pytest.raises(CardError):
        parse_card("Xs")
    with pytest.raises(CardError):
        parse_card("A")


def test_cards_typed_with_suit_symbols_as_the_pages_show_them() -> None:
    assert parse_card("A♠") == "As"
    assert parse_card("10♥") == "Th"
    assert parse_cards("A♦K♣ 2♤") == ("Ad", "Kc", "2s")
    with pytest.raises(CardError):
        parse_card("A★")


def test_duplicate_card_names_the_void_rule__FLR_2() -> None:
    with pytest.raises(DuplicateCardError) as raised:
        evaluate_holdem("AsKd", "As7h2c3d9s")
    assert raised.value.rule == "FLR-2"
    assert "FLR-2" in str(raised.value)
    assert isinstance(raised.value, ValueError)


def test_best_five_of_seven_with_label__HND_1() -> None:
    value = evaluate_holdem("8c8d", "8h8s2c5d9h")
    assert value.category is HandCategory.FOUR_OF_A_KIND
    assert value.label == "Four of a kind"
    assert sorted(value.cards) == sorted(["8c", "8d", "8h", "8s", "9h"])


def test_royal_flush_is_named__HND_1() -> None:
    assert evaluate_holdem("AsKs", "QsJsTs2c3d").label == "Royal flush"
    assert evaluate_holdem("9sKs", "QsJsTs2c3d").label == "Straight flush"


def test_board_can_play_with_no_hole_card__HND_1() -> None:
    # The board is a broadway straight; both players play the board and split.
    a = evaluate_holdem("2c3d", "AsKdQhJcTs")
    b = evaluate_holdem("4c5d", "AsKdQhJcTs")
    assert a == b
    assert a.category is HandCategory.STRAIGHT


def test_one_hole_card_can_play__HND_1() -> None:
    assert evaluate_holdem("Ah2c", "KhQh7h3h4s").category is HandCategory.FLUSH


def test_suits_never_break_ties__HND_1() -> None:
    assert evaluate_holdem("AsKs", "Qh7d5c3s2h") == evaluate_holdem("AhKh", "Qs7c5d3h2s")


def test_ace_plays_low_in_wheel_but_not_both_ways__HND_1() -> None:
    wheel = evaluate_holdem("Ah2d", "3c4s5h9d9c")
    assert wheel.category is HandCategory.STRAIGHT
    assert evaluate_holdem("6h2d", "3c4s5h9dKc") > wheel  # six-high straight beats the wheel
    # Q-K-A-2-3 is no straight: the ace is high or low, never both.
    assert evaluate_holdem("Qh2d", "KcAs3h8d7c").category is HandCategory.HIGH_CARD


def test_rank_order_of_categories__HND_1() -> None:
    board = "2c7d9hJs4c"
    assert evaluate_holdem("AsAd", board) > evaluate_holdem("KsKd", board)
    assert evaluate_holdem("JcJd", board) > evaluate_holdem("AsAd", board)
    assert evaluate_holdem("AsKd", board) < evaluate_holdem("2s3d", board)


def test_five_card_draw_hand__HND_1() -> None:
    value = evaluate_five_card_draw("Kh Kd Ks 2c 2d")
    assert value.category is HandCategory.FULL_HOUSE
    with pytest.raises(CardError):
        evaluate_five_card_draw("KhKdKs2c")


@settings(max_examples=100, deadline=None)
@given(st.permutations(DECK))
def test_best_of_seven_equals_max_over_all_five_card_combos__HND_1(deck: list[str]) -> None:
    from itertools import combinations

    hole, board = deck[:2], deck[2:7]
    best = max(evaluate_five_card_draw(list(five)) for five in combinations(hole + board, 5))
    assert evaluate_holdem(hole, board) == best


def test_quads_beaten_by_straight_flush_both_cards_playing__JKP_3() -> None:
    result = bad_beat_check(loser_hole="8c8d", winner_hole="9h7h", board="8h8s5h6h2c")
    assert result.qualifies, result.reason
    assert result.loser is not None and result.loser.label == "Four of a kind"


def test_full_house_loser_does_not_qualify__JKP_3() -> None:
    result = bad_beat_check(loser_hole="AcAd", winner_hole="KhKs", board="AhKdKc7s2c")
    assert not result.qualifies
    assert "below Four of a kind" in result.reason


def test_quads_on_board_with_one_hole_card_does_not_qualify__JKP_3() -> None:
    # Loser's best is 8888 with the board's 6 as kicker: only 8d plays (8888-2 would be worse).
    result = bad_beat_check(loser_hole="8d2c", winner_hole="9h7h", board="8h8s8c6h5h")
    assert not result.qualifies
    assert "losing hand" in result.reason


def test_winner_must_use_both_hole_cards__JKP_3() -> None:
    # Winner 9h Ac: straight flush 5-9 of hearts uses only 9h.
    result = bad_beat_check(loser_hole="8c8d", winner_hole="9hAc", board="8h8s5h6h7h")
    assert not result.qualifies
    assert "winning hand" in result.reason


def test_split_is_not_a_beat__JKP_3() -> None:
    # Both play a royal flush on the board: no one is beaten.
    result = bad_beat_check(loser_hole="2c3d", winner_hole="4c5d", board="AsKsQsJsTs")
    assert not result.qualifies
    assert "not beaten" in result.reason


def test_quads_with_hole_card_kicker_plays_both__JKP_3() -> None:
    # 8d plus the K kicker from the hand: both hole cards are in the best hand 8888-K.
    assert bad_beat_check(loser_hole="8dKc", winner_hole="9h7h", board="8h8s8c6h5h").qualifies


def test_tie_between_best_hands_counts_if_one_uses_both_hole_cards__JKP_3() -> None:
    # Hole 8s 8d with board 8h 8c A...: the quads + ace kicker uses both hole cards.
    assert both_hole_cards_play(("8s", "8d"), ("8h", "8c", "Ad", "2c", "3h"))
    # 8888-K is made with the board's Kh (one hole card) or with Kd (both): equal, so both play.
    assert both_hole_cards_play(("8d", "Kd"), ("8h", "8s", "8c", "Kh", "2c"))
    # Board quads, hole K Q: the best hand AAAA-K takes one hole card only.
    assert not both_hole_cards_play(("Kh", "Qd"), ("As", "Ah", "Ad", "Ac", "2c"))


def test_bad_beat_needs_a_full_board__JKP_3() -> None:
    with pytest.raises(CardError):
        bad_beat_check(loser_hole="8c8d", winner_hole="9h7h", board="8h8s5h6h")


def test_bad_beat_rejects_shared_cards__FLR_2() -> None:
    with pytest.raises(DuplicateCardError):
        bad_beat_check(loser_hole="8c8d", winner_hole="8c7h", board="8h8s5h6h2c")


def test_jackpot_split_fifty_twenty_five_twenty_five__JKP_3() -> None:
    split = jackpot_split(jackpot_cents=1_000_000, other_players=4)
    assert split.loser == 500_000
    assert split.winner == 250_000
    assert split.others == (62_500,) * 4


def test_jackpot_split_remainder_goes_to_loser__JKP_3() -> None:
    split = jackpot_split(jackpot_cents=100_001, other_players=3, rounding_cents=50)
    assert split.winner == 25_000
    assert split.others == (8_300,) * 3
    assert split.loser == 100_001 - 25_000 - 24_900


@settings(max_examples=200)
@given(st.integers(0, 10**9), st.integers(0, 9), st.sampled_from([1, 50, 100]))
def test_jackpot_split_sums_exactly__JKP_3(jackpot: int, others: int, rounding: int) -> None:
    split = jackpot_split(jackpot_cents=jackpot, other_players=others, rounding_cents=rounding)
    assert split.loser + split.winner + sum(split.others) == jackpot
    assert split.loser >= split.winner >= 0
    assert len(split.others) == others


def test_button_draw_highest_card_wins__HND_2() -> None:
    assert button_draw({1: "Kd", 2: "As", 3: "2c", 4: "Qh"}) == 2


def test_button_draw_suit_order__HND_2() -> None:
    assert button_draw({1: "Ac", 2: "Ad", 3: "Ah", 4: "As"}) == 4
    assert button_draw({1: "Ac", 2: "Ad", 3: "Ah"}) == 3
    assert button_draw({5: "Kc", 7: "Kd"}) == 7


def test_button_draw_rejects_duplicate__FLR_2() -> None:
    with pytest.raises(DuplicateCardError):
        button_draw({1: "As", 2: "as"})
