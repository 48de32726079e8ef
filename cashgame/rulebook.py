"""The floor's rule book of dealing errors and dead hands (FLR-1..FLR-4), each with what it
does to the logged hand. Plain data: the rulings log (FLR-5) names a situation by its key."""

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _


class Consequence:
    VOID_MISDEAL = "void_misdeal"  # hand void, nothing raked (FLR-1, RAK-4)
    VOID_DUPLICATE = "void_duplicate"  # hand void, every chip back to its bettor (FLR-2, RAK-4)
    HAND_STANDS = "hand_stands"  # the hand goes on; the cards are dealt again or replaced
    PLAYER_OUT = "player_out"  # the player's hand is dead: he is out of this hand only (FLR-4)


CONSEQUENCE_TEXT = {
    Consequence.VOID_MISDEAL: _("Misdeal: the hand is void and redealt; no rake, no jackpot drop."),
    Consequence.VOID_DUPLICATE: _(
        "Duplicate card: every action is void, all chips go back to the bettors; no rake, no jackpot drop."
    ),
    Consequence.HAND_STANDS: _("The hand stands and is logged as usual."),
    Consequence.PLAYER_OUT: _(
        "Dead hand: that player is out of this hand; the hand goes on and is raked as usual."
    ),
}


# Each rule of the book by its name in words: the pages show the name, the rule ID stays in the
# log's records and in error details.
RULE_NAMES = {
    "FLR-1": _("Misdeal"),
    "FLR-2": _("Duplicate card"),
    "FLR-3": _("Flop and board errors"),
    "FLR-4": _("Dead hand"),
}


def rule_name(rule: str) -> str:
    return str(RULE_NAMES.get(rule, rule))


@dataclass(frozen=True)
class Situation:
    key: str
    rule: str
    title: str
    consequence: str

    @property
    def rule_name(self) -> str:
        return rule_name(self.rule)

    @property
    def consequence_text(self) -> str:
        return str(CONSEQUENCE_TEXT[self.consequence])

    @property
    def voids_hand(self) -> bool:
        return self.consequence in (Consequence.VOID_MISDEAL, Consequence.VOID_DUPLICATE)


SITUATIONS: list[Situation] = [
    Situation(
        "first_card_exposed",
        "FLR-1",
        _("First or second hole card exposed by the dealer"),
        Consequence.VOID_MISDEAL,
    ),
    Situation(
        "two_cards_exposed", "FLR-1", _("Two or more cards exposed while dealing"), Consequence.VOID_MISDEAL
    ),
    Situation(
        "wrong_card_count", "FLR-1", _("A player dealt the wrong number of cards"), Consequence.VOID_MISDEAL
    ),
    Situation("button_misplaced", "FLR-1", _("Button misplaced"), Consequence.VOID_MISDEAL),
    Situation(
        "first_card_wrong_seat", "FLR-1", _("First card dealt to the wrong seat"), Consequence.VOID_MISDEAL
    ),
    Situation("card_to_empty_seat", "FLR-1", _("A card dealt to an empty seat"), Consequence.VOID_MISDEAL),
    Situation(
        "misdeal_after_action",
        "FLR-1",
        _("Dealing error found after two players acted after the blinds"),
        Consequence.HAND_STANDS,
    ),
    Situation("duplicate_card", "FLR-2", _("Two identical cards in one deck"), Consequence.VOID_DUPLICATE),
    Situation(
        "flop_too_many_cards",
        "FLR-3",
        _("Flop with more than three cards: re-dealt"),
        Consequence.HAND_STANDS,
    ),
    Situation(
        "card_turned_early",
        "FLR-3",
        _("A card turned before the betting ended: set aside and replaced"),
        Consequence.HAND_STANDS,
    ),
    Situation("folded", "FLR-4", _("Folded or announced fold"), Consequence.PLAYER_OUT),
    Situation(
        "dead_wrong_card_count",
        "FLR-4",
        _("Wrong number of cards once the action started"),
        Consequence.PLAYER_OUT,
    ),
    Situation(
        "out_of_turn_time", "FLR-4", _("Acting out of turn past the time limit"), Consequence.PLAYER_OUT
    ),
    Situation("refused_to_show", "FLR-4", _("Refusing to show at showdown"), Consequence.PLAYER_OUT),
]
BY_KEY: dict[str, Situation] = {situation.key: situation for situation in SITUATIONS}


def situation_choices() -> list[tuple[str, str]]:
    return [(situation.key, f"{situation.rule_name} · {situation.title}") for situation in SITUATIONS]
