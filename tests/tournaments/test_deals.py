"""Deals at the final table (TRN-10): shares in whole chips that sum to the prizes left, from
stacks that add up to the chips in play."""

import random
from datetime import timedelta

import pytest
from django.utils import translation

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from tests.tournaments.conftest import key
from tests.tournaments.factories import T0
from tournaments.models import Entry, PayoutPlace
from tournaments.selectors import chips_in_play, tournament_field_get
from tournaments.selectors.deals import deal_calculate
from tournaments.services._common import rules_for
from tournaments.services.payouts import deal_accept, entry_bust, payout_table_set
from tournaments.services.registration import entry_add_on, entry_rebuy, tournament_start

pytestmark = pytest.mark.django_db
S = timedelta(seconds=1)
CLOSED = T0 + 1800 * S  # the end of level 3: registration, rebuys and add-ons are all closed


@pytest.fixture
def final_three(floor, cashier, shift, register, make_tournament):
    """Five entries of 90.00 EUR and 20,000 chips, one rebuy (40.00 EUR, 10,000 chips) and one
    add-on (30.00 EUR, 15,000 chips): 520.00 EUR and 125,000 chips. Paid 50/30/20 %: 260.00,
    156.00, 104.00 EUR. Two bust out: three are left, with the live entries' pks."""
    tournament = make_tournament(late_registration_level=1)
    rules = rules_for(tournament)
    rules.rebuy_level, rules.max_rebuys = 2, 1
    rules.rebuy_prize_cents, rules.rebuy_fee_cents, rules.rebuy_chips = 4_000, 500, 10_000
    rules.add_on_level, rules.add_on_prize_cents, rules.add_on_fee_cents, rules.add_on_chips = (
        3,
        3_000,
        0,
        15_000,
    )
    rules.save()
    entries = [register(tournament) for _ in range(5)]
    tournament_start(actor=floor, tournament=tournament, now=T0, rng=random.Random(2))
    payout_table_set(actor=floor, tournament=tournament, percentages=[5_000, 3_000, 2_000], now=T0)
    entry_rebuy(actor=cashier, entry=entries[0], shift=shift, idempotency_key=key(), now=T0 + S)
    entry_add_on(actor=cashier, entry=entries[1], shift=shift, idempotency_key=key(), now=T0 + 2 * S)
    entry_bust(
        actor=floor,
        tournament=tournament,
        busted=[(entries[3].pk, 500), (entries[4].pk, 800)],
        now=CLOSED + S,
    )
    assert list(PayoutPlace.objects.values_list("amount_cents", flat=True)) == [26_000, 15_600, 10_400]
    return tournament, [entries[0].pk, entries[1].pk, entries[2].pk]


def test_chips_in_play_are_every_chip_sold__TRN_10(final_three):
    tournament, _live = final_three
    # 5 x 20,000 starting stacks + 10,000 rebought + 15,000 added on; busted entries' count.
    assert chips_in_play(tournament=tournament) == 125_000
    assert tournament_field_get(tournament=tournament)["chips_in_play"] == 125_000


def test_icm_deal_paid_in_whole_chips_remainder_to_chip_leader__TRN_10(floor, final_three):
    tournament, (a, b, c) = final_three
    stacks = {a: 70_000, b: 40_000, c: 15_000}
    # ICM equities 209.03, 177.37 and 133.60 EUR, rounded down to 0.50 EUR chips: 209.00, 177.00,
    # 133.50; the 0.50 EUR left goes to the chip leader.
    shares = deal_calculate(tournament=tournament, stacks=stacks, method="icm")
    assert shares == {a: 20_950, b: 17_700, c: 13_350}
    assert sum(shares.values()) == 52_000
    deal_accept(
        actor=floor, tournament=tournament, amounts=shares, method="icm", stacks=stacks, now=CLOSED + 2 * S
    )
    assert dict(Entry.objects.filter(pk__in=stacks).values_list("pk", "prize_cents")) == shares
    assert AuditRecord.objects.get(action="tournament.deal").after == {
        "method": "icm",
        "shares": {"1": 20_950, "2": 17_700, "3": 13_350},
        "stacks": {"1": 70_000, "2": 40_000, "3": 15_000},
    }


def test_chip_chop_paid_in_whole_chips_remainder_to_chip_leader__TRN_10(floor, final_three):
    tournament, (a, b, c) = final_three
    stacks = {a: 70_000, b: 40_000, c: 15_000}
    # 520.00 EUR by chips: 291.20, 166.40, 62.40 -> 291.00, 166.00, 62.00 and 1.00 to the leader.
    shares = deal_calculate(tournament=tournament, stacks=stacks, method="chip_chop")
    assert shares == {a: 29_200, b: 16_600, c: 6_200}
    deal_accept(
        actor=floor,
        tournament=tournament,
        amounts=shares,
        method="chip_chop",
        stacks=stacks,
        now=CLOSED + 2 * S,
    )
    assert dict(Entry.objects.filter(pk__in=stacks).values_list("pk", "prize_cents")) == shares


def deal_state(tournament):
    return (
        list(Entry.objects.order_by("pk").values_list("prize_cents", flat=True)),
        rules_for(tournament).deal_accepted_at,
        AuditRecord.objects.filter(action="tournament.deal").count(),
    )


@pytest.mark.parametrize("method", ["icm", "chip_chop"])
def test_deal_stacks_must_add_up_to_chips_in_play__TRN_10(floor, final_three, method):
    tournament, (a, b, c) = final_three
    before = deal_state(tournament)
    assert before == ([None, None, None, None, None], None, 0)
    for stacks, words in (
        (
            {a: 2_000_000, b: 500_000, c: 250_000},
            "2750000 chips but 125000 chips are in play: 2625000 chips too many",
        ),
        ({a: 70_000, b: 40_000, c: 14_000}, "124000 chips but 125000 chips are in play: 1000 chips missing"),
    ):
        for attempt in (
            lambda stacks=stacks: deal_calculate(tournament=tournament, stacks=stacks, method=method),
            lambda stacks=stacks: deal_accept(
                actor=floor,
                tournament=tournament,
                amounts={a: 30_000, b: 12_000, c: 10_000},
                method=method,
                stacks=stacks,
                now=CLOSED + 2 * S,
            ),
        ):
            with pytest.raises(DomainError) as error:
                attempt()
            assert (error.value.code, error.value.rule) == ("deal_stacks_sum", "TRN-10")
            assert words in error.value.message and error.value.rule == "TRN-10"
    assert deal_state(tournament) == before


def test_deal_shares_must_be_whole_chips__TRN_10(floor, final_three):
    tournament, (a, b, c) = final_three
    before = deal_state(tournament)
    refused = [
        # The players' own split in cents: 550.29 is not a number of 0.50 EUR chips.
        ({a: 29, b: 27_000, c: 24_971}, "custom", None, "deal_chips"),
        # Shares that do not add up to the 520.00 EUR left.
        ({a: 30_000, b: 12_000, c: 9_950}, "custom", None, "deal_sum"),
        # Odd cents on a share that is not the largest.
        ({a: 29_999, b: 12_001, c: 10_000}, "custom", None, "deal_chips"),
        # An ICM deal whose shares are not the ones its stacks give (a stale calculation).
        ({a: 20_900, b: 17_750, c: 13_350}, "icm", {a: 70_000, b: 40_000, c: 15_000}, "deal_changed"),
        # An ICM deal without the stacks it came from.
        ({a: 20_950, b: 17_700, c: 13_350}, "icm", None, "deal_stacks"),
    ]
    for amounts, method, stacks, code in refused:
        with pytest.raises(DomainError) as error:
            deal_accept(
                actor=floor,
                tournament=tournament,
                amounts=amounts,
                method=method,
                stacks=stacks,
                now=CLOSED + 2 * S,
            )
        assert (error.value.code, error.value.rule) == (code, "TRN-10")
    assert deal_state(tournament) == before
    # A split of their own in chips is accepted.
    deal_accept(
        actor=floor,
        tournament=tournament,
        amounts={a: 30_000, b: 12_000, c: 10_000},
        method="custom",
        now=CLOSED + 3 * S,
    )
    assert dict(Entry.objects.filter(pk__in=[a, b, c]).values_list("pk", "prize_cents")) == {
        a: 30_000,
        b: 12_000,
        c: 10_000,
    }


def test_api_refuses_stacks_that_do_not_add_up__TRN_10(api, floor, final_three):
    tournament, (a, b, c) = final_three
    stacks = [
        {"entry": a, "stack_chips": 2_000_000},
        {"entry": b, "stack_chips": 500_000},
        {"entry": c, "stack_chips": 250_000},
    ]
    response = api(floor).post(
        f"/api/tournaments/{tournament.pk}/deal/calculate/",
        {"method": "icm", "stacks": stacks},
        format="json",
    )
    assert response.status_code == 400
    assert (response.json()["code"], response.json()["rule"]) == ("deal_stacks_sum", "TRN-10")


def test_the_deal_maths_refusal_reaches_the_floor_in_its_words__TRN_10(final_three):
    """poker.deals refuses in English codes; the floor reads the refusal in its language, with the
    rule and without its ID in the text."""
    tournament, (a, b, c) = final_three
    stacks = {a: 70_000, b: 40_000, c: 15_000}
    with translation.override("sk"), pytest.raises(DomainError) as error:
        deal_calculate(tournament=tournament, stacks=stacks, method="custom")
    assert (error.value.code, error.value.rule) == ("deal_method", "TRN-10")
    assert str(error.value) == "Vyberte ICM alebo delenie podľa žetónov."
