"""A knock-out tournament under way and what its bounties did, for the bounty tests (TRN-6)."""

import random
from datetime import timedelta

from cashier.models import AccountKind
from cashier.selectors import account_amount
from tests.tournaments.factories import T0
from tournaments.models import BountyAward
from tournaments.services.payouts import entry_bust
from tournaments.services.registration import tournament_start

S = timedelta(seconds=1)
BOUNTY = 2_500


def owner(tournament) -> str:
    return f"tournament:{tournament.pk}"


def pool(tournament) -> int:
    return account_amount(kind=AccountKind.BOUNTY_POOL, owner=owner(tournament))


def started(floor, register, make_tournament, players: int, **kwargs):
    kwargs.setdefault("late_registration_level", 0)
    kwargs.setdefault("bounty_cents", BOUNTY)
    tournament = make_tournament(**kwargs)
    entries = [register(tournament) for _ in range(players)]
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(11))
    return tournament, entries


def awards(tournament) -> list[tuple]:
    """(bounty of entry number, won by entry number, cents, reason, paid) in the order made."""
    return [
        (a.busted_entry.number, a.entry.number, a.amount_cents, a.reason, a.transaction_id is not None)
        for a in BountyAward.objects.filter(tournament=tournament).select_related("entry", "busted_entry")
    ]


def bust(floor, tournament, busted, by, at: int = 1):
    """busted: entries out in one hand (stacks 100, 200, ... so the first finishes lowest);
    by: {busted entry: [eliminators]}."""
    return entry_bust(
        actor=floor,
        tournament=tournament,
        busted=[(entry.pk, 100 * (i + 1)) for i, entry in enumerate(busted)],
        eliminators={entry.pk: [e.pk for e in winners] for entry, winners in by.items()},
        now=T0 + at * S,
    )
