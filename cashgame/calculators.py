"""The floor's calculators on plain values, shared by the API and the pages: side pots, dead
money, odd chips and each pot's rake and drop (POT-1, POT-2, POT-4, RAK-6), showdown order
(POT-3), best hand (HND-1), minimum and maximum raise (BET-2..BET-4). The mathematics is poker/'s;
this only shapes input and output.

Players are given in seat order clockwise from the first seat left of the button, as poker.pots
expects. Amounts are integers in whatever unit the floor uses (cents or chips).
"""

from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cashgame.fees import hand_fees
from cashgame.models import Game
from cashgame.services._common import poker_rules
from poker.antes import big_blind_ante_post
from poker.betting import (
    Limit,
    Street,
    can_raise,
    max_raise_to,
    min_raise_to,
    postflop_round,
    preflop_round,
    reopens_betting,
)
from poker.hands import evaluate_holdem
from poker.pots import Contribution, award_pots, build_pots, showdown_order
from poker.rake import fees_charged


def side_pots(
    *,
    players: list[dict],
    ranking: list[list[str]] | None = None,
    chip: int = 1,
    game: Game | None = None,
    saw_flop: bool = True,
    rake: int | None = None,
    drop: int | None = None,
) -> dict:
    """players: [{"name", "amount", "folded", "dead"}] in seat order from the button's left,
    `dead` being dead money such as a dead small blind (POT-4); ranking: the showdown result,
    best first, in groups of equal hands.

    Returns the pots (POT-1, POT-4), each with its share of the hand's rake and jackpot drop and
    the net amount to its winner (RAK-6), and, with a ranking, who wins what (POT-2). The rake
    and drop are the explicit `rake` and `drop`, else those of a hand at `game` with these
    players dealt in (amounts in cents; RAK-2: `saw_flop`), else none. They are split in the
    game's rake chip, or in `chip` without a game; odd chips of a split pot are `chip`s."""
    with poker_rules():
        breakdown = build_pots(
            [
                Contribution(
                    player=p["name"],
                    amount=p["amount"],
                    folded=p.get("folded", False),
                    dead=p.get("dead", 0),
                )
                for p in players
            ]
        )
        amounts = [pot.amount for pot in breakdown.pots]
        fees = None
        if game is not None:
            fees = hand_fees(
                game,
                pots_cents=amounts,
                small_blind_cents=game.small_blind_cents,
                big_blind_cents=game.big_blind_cents,
                players_dealt=len(players),
                saw_flop=saw_flop,
            )
            rake = fees.rake if rake is None else rake
            drop = fees.drop if drop is None else drop
        split_chip = game.rake_rounding_cents if game is not None else chip
        if (rake or drop) and not amounts:
            raise DomainError("bad_rake", _("There is no pot to rake."), rule="RAK-6")
        if fees is None or (rake, drop) != (fees.rake, fees.drop):
            # No game, or the floor typed its own rake or drop: those are charged to the pots.
            fees = fees_charged(amounts, rake_cents=rake or 0, drop_cents=drop or 0, chip_cents=split_chip)
        pot_fees = [r + d for r, d in zip(fees.rake_shares, fees.drop_shares, strict=True)]
        result = {
            "pots": [
                {
                    "amount": pot.amount,
                    "eligible": list(pot.eligible),
                    "rake": rake_share,
                    "drop": drop_share,
                    "net": pot.amount - rake_share - drop_share,
                }
                for pot, rake_share, drop_share in zip(
                    breakdown.pots, fees.rake_shares, fees.drop_shares, strict=True
                )
            ],
            "returned": dict(breakdown.returned),
            "total": breakdown.total,
            "dead": breakdown.dead,
            "rake": fees.rake,
            "drop": fees.drop,
        }
        if ranking:
            award = award_pots(breakdown, ranking, chip=chip, pot_fees=pot_fees)
            result["awards"] = dict(award.amounts)
            result["pot_winners"] = [list(winners) for winners in award.pot_winners]
            for pot, winners in zip(result["pots"], award.pot_winners, strict=True):
                pot["winners"] = list(winners)
    return result


def showdown(*, players: list[str], last_aggressor: str | None) -> list[str]:
    with poker_rules():
        return showdown_order(players, last_aggressor=last_aggressor or None)


def best_hand(*, hole: str, board: str) -> dict:
    with poker_rules():
        value = evaluate_holdem(hole, board)
    return {"category": value.label, "cards": list(value.cards), "strength": value.strength}


def raise_limits(
    *,
    limit: str,
    street: int,
    big_blind: int,
    small_blind: int = 0,
    straddle: bool = False,
    actions: list[dict] | None = None,
    pot: int = 0,
    player_bet: int = 0,
    player_stack: int,
    bet_faced_when_acted: int | None = None,
    game: Game | None = None,
    half_bet_rule: bool | None = None,
) -> dict:
    """The legal raise range for a player (BET-2) after the round's actions so far, each
    {"had": what that player had out before, "to": his bet now} in order (pre-flop, after the
    blinds and the straddle, BET-4), and whether a short all-in reopened the betting for him
    (BET-3, when he already acted and last matched or made `bet_faced_when_acted`).

    The BET-3 rule is the explicit `half_bet_rule` when given, else the chosen game's house
    option, else the full bet rule."""
    if half_bet_rule is None:
        half_bet_rule = game.half_bet_rule if game is not None else False
    try:
        limit_value, street_value = Limit(limit), Street(street)
    except ValueError:
        raise DomainError("bad_limit", "Unknown betting structure or street.", rule="BET-2") from None
    with poker_rules():
        if street_value is Street.PREFLOP:
            state = preflop_round(
                limit=limit_value,
                small_blind=small_blind or big_blind // 2,
                big_blind=big_blind,
                straddle=straddle,
            )
        else:
            state = postflop_round(limit=limit_value, street=street_value, big_blind=big_blind, pot=pot)
        for action in actions or []:
            state = state.after_bet(player_bet=action.get("had", 0), to=action["to"])
        result = {
            "current_bet": state.current_bet,
            "to_call": state.to_call(player_bet),
            "pot": state.pot,
            "can_raise": can_raise(state, player_bet=player_bet, player_stack=player_stack),
            "min_raise_to": min_raise_to(state, player_bet=player_bet, player_stack=player_stack),
            "max_raise_to": max_raise_to(state, player_bet=player_bet, player_stack=player_stack),
            "raises": state.raises,
            "half_bet_rule": half_bet_rule,
        }
        if bet_faced_when_acted is not None:
            result["reopened"] = reopens_betting(
                bet_faced_when_acted=bet_faced_when_acted,
                current_bet=state.current_bet,
                full_raise=state.full_raise(),
                half_bet_rule=half_bet_rule,
            )
    return result


def big_blind_ante(*, stack: int, big_blind: int, ante: int, players_dealt: int) -> dict:
    """What a big blind with `stack` chips posts at a big-blind-ante level (SER-5): the ante
    first, whole however few are dealt in, then what is left to the big blind; in chips."""
    with poker_rules():
        posted = big_blind_ante_post(stack=stack, big_blind=big_blind, ante=ante, players_dealt=players_dealt)
    return {
        "ante": posted.ante,
        "big_blind": posted.big_blind,
        "total": posted.total,
        "all_in": posted.total == stack,
        "short_ante": ante - posted.ante,
        "short_blind": big_blind - posted.big_blind,
    }
