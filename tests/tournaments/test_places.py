"""Finishing places (TRN-10) when players bust during late registration: every entry gets one
place once the field is final, in bust order, same-hand busts by their starting stacks."""

import random
from datetime import timedelta

import pytest

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from tests.factories import PlayerFactory
from tests.tournaments.factories import T0
from tournaments.models import BountyAward, Entry, PayoutPlace
from tournaments.services._common import rules_for
from tournaments.services.clock import clock_advance_due
from tournaments.services.payouts import entry_bust
from tournaments.services.registration import tournament_start
from tournaments.services.tournaments import tournament_finish

pytestmark = pytest.mark.django_db
S = timedelta(seconds=1)
# LEVELS in conftest: 10-minute levels; late registration until the end of level 2.
REGISTRATION_CLOSES = T0 + 1200 * S


def places(tournament) -> dict[int, int | None]:
    """{entry number: finishing place}."""
    return dict(tournament.entries.order_by("number").values_list("number", "finish_place"))


def test_busts_during_late_registration_get_places_when_it_closes__TRN_10(floor, register, make_tournament):
    tournament = make_tournament(late_registration_level=2, max_reentries=1)
    players = [PlayerFactory() for _ in range(18)]
    first = {player.pk: register(tournament, player) for player in players}
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(3))
    a, b, c = (first[player.pk] for player in players[:3])
    # Level 1, registration open: a busts alone, then b and c in one hand (c had more chips).
    entry_bust(actor=floor, tournament=tournament, busted=[(a.pk, 20_000)], now=T0 + 60 * S)
    entry_bust(actor=floor, tournament=tournament, busted=[(b.pk, 5_000), (c.pk, 12_000)], now=T0 + 120 * S)
    # a and b re-enter: 20 entries of 18 persons; the payout table counts entries.
    a2 = register(tournament, players[0], now=T0 + 130 * S)
    b2 = register(tournament, players[1], now=T0 + 140 * S)
    assert (a2.number, b2.number) == (19, 20)
    assert [places(tournament)[e.number] for e in (a, b, c)] == [None, None, None]

    # The end of level 2 closes registration with no one touching the system: the field is final.
    clock_advance_due(tournament_id=tournament.pk, now=REGISTRATION_CLOSES)
    assert rules_for(tournament).registration_closed_at == REGISTRATION_CLOSES
    # a was out first (place 20); in the next hand c's 12,000 beat b's 5,000: c 18th, b 19th.
    assert {n: p for n, p in places(tournament).items() if p} == {a.number: 20, b.number: 19, c.number: 18}
    record = AuditRecord.objects.get(action="tournament.places")
    assert (record.actor, record.after) == (None, {"places": [[1, 20], [2, 19], [3, 18]]})

    # The other 17 entries bust later, one hand of three among them; the last one wins.
    live = list(tournament.entries.filter(status="active").order_by("number"))
    assert len(live) == 17
    moment = REGISTRATION_CLOSES + S
    entry_bust(
        actor=floor,
        tournament=tournament,
        busted=[(live[0].pk, 3_000), (live[1].pk, 9_000), (live[2].pk, 6_000)],
        now=moment,
    )
    for n, entry in enumerate(live[3:-1], start=1):
        entry_bust(actor=floor, tournament=tournament, busted=[(entry.pk, 1_000)], now=moment + n * S)
    final = places(tournament)
    assert sorted(final.values()) == list(range(1, 21))  # every place exactly once
    # The three-player hand took places 15-17, the larger stack higher.
    assert [final[live[1].number], final[live[2].number], final[live[0].number]] == [15, 16, 17]
    assert [final[e.number] for e in live[3:]] == list(range(14, 0, -1))
    # Later busts finish higher throughout.
    order = list(
        tournament.entries.filter(status="busted")
        .order_by("bust_number", "bust_stack_chips")
        .values_list("finish_place", flat=True)
    )
    assert order == sorted(order, reverse=True)
    # 20 entries pay 4 places of 20 x 90.00 = 1,800.00 EUR (45/27/17/11 %).
    assert list(PayoutPlace.objects.values_list("amount_cents", flat=True)) == [
        81_000,
        48_600,
        30_600,
        19_800,
    ]
    prizes = dict(tournament.entries.values_list("finish_place", "prize_cents"))
    assert [prizes[place] for place in range(1, 6)] == [81_000, 48_600, 30_600, 19_800, None]
    assert rules_for(tournament).collected_prize_cents == 180_000


def test_refused_bust_writes_no_place__TRN_10(floor, register, make_tournament):
    tournament = make_tournament(late_registration_level=2)
    entries = [register(tournament) for _ in range(3)]
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(3))
    entry_bust(actor=floor, tournament=tournament, busted=[(entries[0].pk, 20_000)], now=T0 + 60 * S)
    clock_advance_due(tournament_id=tournament.pk, now=REGISTRATION_CLOSES)
    before = (
        list(
            Entry.objects.order_by("pk").values_list("status", "finish_place", "bust_number", "prize_cents")
        ),
        AuditRecord.objects.count(),
        rules_for(tournament).bust_sequence,
    )
    # Both players left in one hand: no one would be left to win.
    with pytest.raises(DomainError) as error:
        entry_bust(
            actor=floor,
            tournament=tournament,
            busted=[(entries[1].pk, 100), (entries[2].pk, 200)],
            now=REGISTRATION_CLOSES + S,
        )
    assert (error.value.code, error.value.rule) == ("no_winner", "TRN-10")
    after = (
        list(
            Entry.objects.order_by("pk").values_list("status", "finish_place", "bust_number", "prize_cents")
        ),
        AuditRecord.objects.count(),
        rules_for(tournament).bust_sequence,
    )
    assert after == before
    assert before[0] == [("busted", 3, 1, None), ("active", None, None, None), ("active", None, None, None)]


def test_one_entry_left_when_registration_closes_wins__TRN_10(floor, register, make_tournament):
    tournament = make_tournament(late_registration_level=2, bounty_cents=2_500)
    a, b, c = (register(tournament) for _ in range(3))
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(3))
    entry_bust(
        actor=floor, tournament=tournament, busted=[(a.pk, 20_000)], eliminators={a.pk: [c.pk]}, now=T0 + S
    )
    entry_bust(
        actor=floor,
        tournament=tournament,
        busted=[(b.pk, 40_000)],
        eliminators={b.pk: [c.pk]},
        now=T0 + 2 * S,
    )
    assert places(tournament) == {1: None, 2: None, 3: None}  # a late entry could still come
    clock_advance_due(tournament_id=tournament.pk, now=REGISTRATION_CLOSES)
    assert places(tournament) == {a.number: 3, b.number: 2, c.number: 1}
    # 3 entries pay one place: the winner takes 3 x 90.00 EUR, and his own bounty back (TRN-6).
    assert Entry.objects.get(pk=c.pk).prize_cents is None  # payouts are finalised by the floor
    assert list(
        BountyAward.objects.filter(entry=c)
        .order_by("pk")
        .values_list("busted_entry_id", "reason", "amount_cents")
    ) == [(a.pk, "knockout", 2_500), (b.pk, "knockout", 2_500), (c.pk, "own", 2_500)]


def test_finishing_with_registration_open_places_the_busted__TRN_10(floor, register, make_tournament):
    tournament = make_tournament(late_registration_level=5)
    entries = [register(tournament) for _ in range(4)]
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(3))
    entry_bust(
        actor=floor,
        tournament=tournament,
        busted=[(entries[0].pk, 7_000), (entries[1].pk, 7_000)],
        now=T0 + S,
    )
    tournament_finish(actor=floor, tournament=tournament, now=T0 + 2 * S)
    # Equal stacks in one hand: the lower entry number finishes higher. Two still in share the top.
    assert places(tournament) == {1: 3, 2: 4, 3: None, 4: None}
