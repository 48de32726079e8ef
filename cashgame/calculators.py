"""The floor's calculators on plain values, shared by the API and the pages: side pots and odd
chips (POT-1, POT-2), showdown order (POT-3), best hand (HND-1), minimum and maximum raise
(BET-2..BET-4). The mathematics is poker/'s; this only shapes input and output.

Players are given in seat order clockwise from the first seat left of the button, as poker.pots
expects. Amounts are integers in whatever unit the floor uses (cents or chips).
"""

from cardroom.errors import DomainError
from cashgame.services._common import poker_rules
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


def side_pots(
    *, players: list[dict], ranking: list[list[str]] | None = None, rake: int = 0, chip: int = 1
) -> dict:
    """players: [{"name", "amount", "folded"}] in seat order from the button's left; ranking:
    the showdown result, best first, in groups of equal hands. Returns the pots and, with a
    ranking, who wins what (POT-1, POT-2)."""
    with poker_rules():
        breakdown = build_pots(
            [
                Contribution(player=p["name"], amount=p["amount"], folded=p.get("folded", False))
                for p in players
            ]
        )
        result = {
            "pots": [{"amount": pot.amount, "eligible": list(pot.eligible)} for pot in breakdown.pots],
            "returned": dict(breakdown.returned),
            "total": breakdown.total,
        }
        if ranking:
            award = award_pots(breakdown, ranking, rake=rake, chip=chip)
            result["awards"] = dict(award.amounts)
            result["pot_winners"] = [list(winners) for winners in award.pot_winners]
            result["rake"] = award.rake
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
) -> dict:
    """The legal raise range for a player (BET-2) after the round's actions so far, each
    {"had": what that player had out before, "to": his bet now} in order (pre-flop, after the
    blinds and the straddle, BET-4), and whether a short all-in reopened the betting for him
    (BET-3, when he already acted and last matched or made `bet_faced_when_acted`)."""
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
        }
        if bet_faced_when_acted is not None:
            result["reopened"] = reopens_betting(
                bet_faced_when_acted=bet_faced_when_acted,
                current_bet=state.current_bet,
                full_raise=state.full_raise(),
            )
    return result
