"""The floor's calculators: side pots, showdown order, best hand, raises (POT, HND, BET).

The side-pot calculator deals in money, so its amounts are integer cents named `*_cents` like
every amount of the API (the game's rake and drop are cents). The raise calculator is a rule
of betting, not an amount of money: its blinds, bets and stacks are whole numbers in whatever
unit the floor counts (cents at a cash table, chips in a tournament), as on its page.
"""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from cardroom.api import CentsField, MoneyRequestSerializer
from cashgame import calculators
from cashgame.api._common import (
    FLOOR,
    JsonApiView,
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    StrictPrimaryKeyRelatedField,
    inline_choices,
)
from cashgame.models import Game
from poker.betting import Limit

LimitField = inline_choices([(limit.value, limit.value) for limit in Limit])


class PotPlayerSerializer(MoneyRequestSerializer):
    name = StrictCharField(max_length=40)
    amount_cents = CentsField(source="amount", help_text="Live money put in.")
    folded = StrictBooleanField(default=False)
    dead_cents = CentsField(
        source="dead",
        default=0,
        help_text="POT-4: dead money put in on top (a dead small blind); it joins the main pot.",
    )


class SidePotInputSerializer(MoneyRequestSerializer):
    players = PotPlayerSerializer(
        many=True, min_length=1, max_length=10, help_text="Seat order from the button's left."
    )
    ranking = serializers.ListField(
        child=serializers.ListField(child=StrictCharField(max_length=40)),
        required=False,
        default=list,
        help_text='Showdown result, best first, ties grouped: [["A", "C"], ["B"]].',
    )
    chip_cents = CentsField(
        source="chip", min_value=1, default=1, help_text="The smallest chip: odd chips (POT-2)."
    )
    game = StrictPrimaryKeyRelatedField(
        queryset=Game.objects.all(),
        required=False,
        allow_null=True,
        default=None,
        help_text="Rake and jackpot drop by this game's settings (amounts in cents; RAK-3, JKP-2).",
    )
    saw_flop = StrictBooleanField(default=True, help_text="RAK-2: no flop, no drop (with a game).")
    rake_cents = CentsField(
        source="rake",
        required=False,
        allow_null=True,
        default=None,
        help_text="The hand's rake (not the game's).",
    )
    drop_cents = CentsField(
        source="drop",
        required=False,
        allow_null=True,
        default=None,
        help_text="The jackpot drop (not the game's).",
    )


class PotSerializer(serializers.Serializer):
    amount_cents = StrictIntegerField(source="amount")
    eligible = serializers.ListField(child=StrictCharField())
    rake_cents = StrictIntegerField(source="rake", help_text="RAK-6: this pot's share of the hand's rake.")
    drop_cents = StrictIntegerField(source="drop", help_text="RAK-6: this pot's share of the jackpot drop.")
    net_cents = StrictIntegerField(
        source="net", help_text="What the pot's winner gets: the pot less its rake and drop."
    )
    winners = serializers.ListField(child=StrictCharField(), required=False)


class SidePotResultSerializer(serializers.Serializer):
    pots = PotSerializer(many=True)
    returned_cents = serializers.DictField(
        source="returned", child=StrictIntegerField(), help_text="Uncalled money back, by player."
    )
    total_cents = StrictIntegerField(source="total")
    dead_cents = StrictIntegerField(source="dead", help_text="POT-4: dead money, in the main pot.")
    rake_cents = StrictIntegerField(source="rake")
    drop_cents = StrictIntegerField(source="drop")
    awards_cents = serializers.DictField(
        source="awards", child=StrictIntegerField(), required=False, help_text="What each player wins."
    )
    pot_winners = serializers.ListField(child=serializers.ListField(child=StrictCharField()), required=False)


class ShowdownInputSerializer(serializers.Serializer):
    players = serializers.ListField(child=StrictCharField(max_length=40), min_length=1, max_length=10)
    last_aggressor = StrictCharField(max_length=40, required=False, allow_blank=True, default="")


class ShowdownResultSerializer(serializers.Serializer):
    order = serializers.ListField(child=StrictCharField())


class BestHandInputSerializer(serializers.Serializer):
    hole = StrictCharField(max_length=12)
    board = StrictCharField(max_length=30)


class BestHandResultSerializer(serializers.Serializer):
    category = StrictCharField()
    cards = serializers.ListField(child=StrictCharField())
    strength = StrictIntegerField()


class BetActionSerializer(serializers.Serializer):
    had = StrictIntegerField(min_value=0, default=0)
    to = StrictIntegerField(min_value=0)


class RaiseInputSerializer(serializers.Serializer):
    limit = LimitField()
    street = StrictIntegerField(min_value=0, max_value=3, help_text="0 pre-flop, 1 flop, 2 turn, 3 river")
    big_blind = StrictIntegerField(min_value=1)
    small_blind = StrictIntegerField(min_value=0, default=0)
    straddle = StrictBooleanField(default=False)
    actions = BetActionSerializer(many=True, required=False, default=list, max_length=50)
    pot = StrictIntegerField(min_value=0, default=0, help_text="Post-flop: the pot before this round.")
    player_bet = StrictIntegerField(min_value=0, default=0)
    player_stack = StrictIntegerField(min_value=0)
    bet_faced_when_acted = StrictIntegerField(min_value=0, required=False, allow_null=True, default=None)
    game = StrictPrimaryKeyRelatedField(
        queryset=Game.objects.all(),
        required=False,
        allow_null=True,
        default=None,
        help_text="BET-3: the game whose half-bet rule option applies.",
    )
    half_bet_rule = StrictBooleanField(
        required=False,
        allow_null=True,
        default=None,
        help_text="BET-3: true for the half-bet rule, false for the full bet rule (overrides the game).",
    )


class RaiseResultSerializer(serializers.Serializer):
    current_bet = StrictIntegerField()
    to_call = StrictIntegerField()
    pot = StrictIntegerField()
    can_raise = serializers.BooleanField()
    min_raise_to = StrictIntegerField(allow_null=True)
    max_raise_to = StrictIntegerField(allow_null=True)
    raises = StrictIntegerField()
    half_bet_rule = serializers.BooleanField(help_text="The BET-3 rule applied: true for the half-bet rule.")
    reopened = serializers.BooleanField(required=False)


def _calculator(input_class, result_class, compute, doc: str) -> type[JsonApiView]:
    class CalculatorApi(JsonApiView):
        permission_classes = [FLOOR]

        @extend_schema(request=input_class, responses=result_class)
        def post(self, request):
            data = input_class(data=request.data)
            data.is_valid(raise_exception=True)
            return Response(result_class(compute(data.validated_data)).data)

    CalculatorApi.__doc__ = doc
    CalculatorApi.__name__ = CalculatorApi.__qualname__ = input_class.__name__.replace(
        "InputSerializer", "Api"
    )
    return CalculatorApi


SidePotApi = _calculator(
    SidePotInputSerializer,
    SidePotResultSerializer,
    lambda values: calculators.side_pots(**values),
    "Main and side pots from each player's total and dead money, each pot's rake and jackpot drop, "
    "and who wins what (POT-1, POT-2, POT-4, RAK-6).",
)
ShowdownApi = _calculator(
    ShowdownInputSerializer,
    ShowdownResultSerializer,
    lambda values: {"order": calculators.showdown(**values)},
    "Who shows first (POT-3).",
)
BestHandApi = _calculator(
    BestHandInputSerializer,
    BestHandResultSerializer,
    lambda values: calculators.best_hand(**values),
    "The best five of seven cards (HND-1).",
)
RaiseApi = _calculator(
    RaiseInputSerializer,
    RaiseResultSerializer,
    lambda values: calculators.raise_limits(**values),
    "Minimum and maximum raise, with the full bet rule and the straddle (BET-2..BET-4).",
)
