"""Multi-day events (SER-2): bag and tag at the end of each flight, the bags against the chips in
play, the best (or first) bag of a player who played several flights, a manager's acceptance of
a difference, the Day 2 drawn from the bags with the event's prize pool, and the books."""

import random
from datetime import timedelta
from functools import partial

import pytest

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from cashier.selectors import prize_pool_balance
from reports.selectors.books import books_problems
from tests.conftest import PASSWORD
from tests.tournaments.event_setup import bag, bag_both, make_witness, spring_main
from tests.tournaments.factories import T0
from tournaments.models import (
    Bag,
    BagRule,
    ColourUpRace,
    Entry,
    EntryKind,
    EntryStatus,
    FlightAcceptance,
    GuaranteeMode,
    GuaranteeOutcome,
    PoolTransfer,
)
from tournaments.selectors import chips_in_play
from tournaments.selectors.events import (
    colour_up_change,
    day_two_draw_refusal,
    day_two_seats_list,
    flight_bags_get,
)
from tournaments.selectors.public import seat_find
from tournaments.services._common import rules_for
from tournaments.services.events import BagCount, bags_record, day_two_draw, flight_difference_accept

pytestmark = pytest.mark.django_db


@pytest.fixture
def witness(db):
    return make_witness()


@pytest.fixture
def event_setup(floor, manager, cashier, shift, register):
    """event_setup(bag_rule=..., guarantee_cents=..., guarantee_mode=...) -> (event, flights, e1, e2,
    players): Spring Main's two flights ended, the Day 2 named (event_setup.spring_main)."""
    return partial(spring_main, floor=floor, manager=manager, cashier=cashier, shift=shift, register=register)


def test_flight_chips_in_play_count_reentry_and_add_on__SER_2(event_setup):
    _event, flights, _e1, _e2, _p = event_setup()
    # 1A: four buy-ins and Dana's re-entry at 20,000, Boris's add-on 15,000.
    assert flight_bags_get(flight=flights["1A"])["expected"] == 115_000
    assert flight_bags_get(flight=flights["1B"])["expected"] == 60_000


def test_bags_against_chips_in_play_and_a_correction__SER_2(floor, witness, event_setup):
    event, flights, e1, e2, _p = event_setup()
    bag(floor, witness, flights["1A"], {e1["Anna"]: "40,000", e1["Boris"]: "50 000", e1["Dana"]: "24,000"})
    state = flight_bags_get(flight=flights["1A"])
    assert (state["expected"], state["bagged"], state["difference"]) == (115_000, 114_000, -1_000)
    assert state["ready"] is False
    bag(floor, witness, flights["1B"], {e2["Anna"]: "45,000", e2["Emil"]: "15,000"})
    refusal = day_two_draw_refusal(event=event)
    assert (refusal.code, refusal.rule) == ("bags_not_reconciled", "SER-2")
    assert "114,000" in refusal.message and "115,000" in refusal.message
    with pytest.raises(DomainError) as caught:
        day_two_draw(actor=floor, event=event, now=T0 + timedelta(days=2))
    assert caught.value.rule == "SER-2"
    assert Entry.objects.filter(tournament=event.day_two).count() == 0
    assert PoolTransfer.objects.count() == 0
    assert prize_pool_balance(tournament_id=flights["1A"].pk) == 48_000
    # Dana's bag recounted: 25,000. The bag keeps its number; the correction is audited.
    dana = Bag.objects.get(entry=e1["Dana"])
    bag(floor, witness, flights["1A"], {e1["Dana"]: "25,000"})
    dana.refresh_from_db()
    assert (dana.chips, dana.number) == (25_000, 3)
    record = AuditRecord.objects.filter(action="bag.correct").get()
    assert (record.before["chips"], record.after["chips"]) == (24_000, 25_000)
    state = flight_bags_get(flight=flights["1A"])
    assert (state["bagged"], state["difference"], state["ready"]) == (115_000, 0, True)
    assert day_two_draw_refusal(event=event) is None


def test_best_bag_goes_through_the_other_is_void__SER_2(floor, witness, event_setup):
    _event, flights, e1, e2, _p = event_setup()
    bag_both(floor, witness, flights, e1, e2)
    anna = {b.flight.flight_label: b for b in Bag.objects.filter(player=e1["Anna"].player)}
    assert (anna["1A"].chips, anna["1A"].void) == (40_000, True)
    assert (anna["1B"].chips, anna["1B"].void) == (45_000, False)
    record = AuditRecord.objects.filter(action="bag.void").get()
    assert record.after == {
        "number": anna["1A"].number,
        "flight": "1A",
        "chips": 40_000,
        "void": True,
        "kept_bag": anna["1B"].number,
        "bag_rule": "best",
    }
    # Void bags still count against their flight's chips in play.
    assert flight_bags_get(flight=flights["1A"])["difference"] == 0


def test_first_bag_house_option__SER_2(floor, witness, event_setup):
    event, flights, e1, e2, _p = event_setup(bag_rule=BagRule.FIRST)
    bag_both(floor, witness, flights, e1, e2)
    anna = {b.flight.flight_label: b.void for b in Bag.objects.filter(player=e1["Anna"].player)}
    assert anna == {"1A": False, "1B": True}
    day_two = day_two_draw(actor=floor, event=event, now=T0 + timedelta(days=2), rng=random.Random(1))
    assert Entry.objects.get(tournament=day_two, player=e1["Anna"].player).starting_stack_chips == 40_000


def test_manager_accepts_a_difference_with_a_reason__SER_2(floor, manager, witness, event_setup):
    event, flights, e1, e2, _p = event_setup()
    bag_both(floor, witness, flights, e1, e2, anna_1b="44,900")
    state = flight_bags_get(flight=flights["1B"])
    assert (state["expected"], state["bagged"], state["difference"]) == (60_000, 59_900, -100)
    with pytest.raises(DomainError) as caught:
        flight_difference_accept(actor=floor, flight=flights["1B"], reason="a 100 chip fell")
    assert caught.value.code == "role_required"
    with pytest.raises(DomainError) as caught:
        flight_difference_accept(actor=manager, flight=flights["1B"], reason="  ")
    assert (caught.value.code, caught.value.rule) == ("reason_required", "SER-2")
    assert FlightAcceptance.objects.count() == 0
    flight_difference_accept(actor=manager, flight=flights["1B"], reason="A 100 chip under table 1")
    state = flight_bags_get(flight=flights["1B"])
    assert (state["ready"], state["acceptance"].reason) == (True, "A 100 chip under table 1")
    record = AuditRecord.objects.filter(action="event.bag_difference_accept").get()
    assert record.after == {
        "expected_chips": 60_000,
        "bagged_chips": 59_900,
        "reason": "A 100 chip under table 1",
    }
    assert day_two_draw_refusal(event=event) is None
    # A bag changed afterwards: the acceptance no longer holds for the new figures.
    bag(floor, witness, flights["1B"], {e2["Emil"]: "14,000"})
    assert flight_bags_get(flight=flights["1B"])["ready"] is False


def test_day_two_draw_seats_everyone_once_with_his_count_and_the_event_pool__SER_2(
    floor, witness, event_setup
):
    event, flights, e1, e2, p = event_setup()
    bag_both(floor, witness, flights, e1, e2)
    day_two = day_two_draw(actor=floor, event=event, now=T0 + timedelta(days=2), rng=random.Random(9))
    entries = list(Entry.objects.filter(tournament=day_two).select_related("player", "table"))
    stacks = {entry.player.first_name: entry.starting_stack_chips for entry in entries}
    assert stacks == {"Anna": 45_000, "Boris": 50_000, "Dana": 25_000, "Emil": 15_000}
    assert {entry.kind for entry in entries} == {EntryKind.BAG}
    seats = [(entry.table.number, entry.seat) for entry in entries]
    assert len(set(seats)) == 4 and all(seat is not None for _t, seat in seats)
    assert chips_in_play(tournament=day_two) == 135_000
    # The event's prize pool: 480.00 + 270.00 EUR, moved into the Day 2's; the flights' are empty.
    assert prize_pool_balance(tournament_id=day_two.pk) == 75_000
    assert prize_pool_balance(tournament_id=flights["1A"].pk) == 0
    assert prize_pool_balance(tournament_id=flights["1B"].pk) == 0
    assert dict(PoolTransfer.objects.values_list("flight__flight_label", "amount_cents")) == {
        "1A": 48_000,
        "1B": 27_000,
    }
    # The seat list, alphabetical, and the phone's "find my seat" with the count.
    rows = day_two_seats_list(event=event)
    assert [(row["name"], row["chips"], row["flight"]) for row in rows] == [
        ("Anna N.", 45_000, "1B"),
        ("Boris N.", 50_000, "1A"),
        ("Dana N.", 25_000, "1A"),
        ("Emil N.", 15_000, "1B"),
    ]
    anna = next(entry for entry in entries if entry.player_id == p["Anna"].pk)
    found = seat_find(tournament=day_two, query="Anna N.")
    assert (found["table"], found["seat"], found["chips"]) == (anna.table.number, anna.seat, 45_000)
    assert AuditRecord.objects.filter(action="event.day_two_draw").get().after["prize_pool_cents"] == 75_000
    # Drawn once; the bags no longer change.
    with pytest.raises(DomainError) as caught:
        day_two_draw(actor=floor, event=event, now=T0 + timedelta(days=2))
    assert (caught.value.code, caught.value.rule) == ("day_two_drawn", "SER-2")
    with pytest.raises(DomainError):
        bag(floor, witness, flights["1B"], {e2["Emil"]: "14,000"})
    assert books_problems() == []


def test_event_guarantee_holds_on_the_combined_pool__SER_2(floor, witness, event_setup):
    event, flights, e1, e2, _p = event_setup(
        guarantee_cents=100_000, guarantee_mode=GuaranteeMode.UNCONDITIONAL
    )
    bag_both(floor, witness, flights, e1, e2)
    day_two = day_two_draw(actor=floor, event=event, now=T0 + timedelta(days=2), rng=random.Random(9))
    rules = rules_for(day_two)
    assert (rules.guarantee_outcome, day_two.guarantee_cents) == (GuaranteeOutcome.HELD, 100_000)
    assert books_problems() == []


def test_bad_bag_input_refused_nothing_written__SER_2(floor, manager, witness, event_setup):
    event, flights, e1, e2, _p = event_setup()

    def refused(code, **kwargs):
        before = (Bag.objects.count(), AuditRecord.objects.filter(action__startswith="bag.").count())
        args = {
            "actor": floor,
            "flight": flights["1A"],
            "counts": [BagCount(e1["Anna"].pk, "40,000")],
            "witness_id": witness.pk,
            "witness_password": PASSWORD,
            "now": T0 + timedelta(days=2),
            **kwargs,
        }
        with pytest.raises(DomainError) as caught:
            bags_record(**args)
        assert (caught.value.code, caught.value.rule) == (code, "SER-2")
        assert (Bag.objects.count(), AuditRecord.objects.filter(action__startswith="bag.").count()) == before
        return caught.value

    error = refused(
        "bad_count", counts=[BagCount(e1["Anna"].pk, "40,000"), BagCount(e1["Boris"].pk, "5O,000")]
    )
    assert "“5O,000” is not a chip count" in error.message
    refused("same_signer", witness_id=floor.pk)
    refused("witness_password", witness_password="wrong")
    refused("witness_required", witness_id=None)
    cyril = Entry.objects.get(tournament=flights["1A"], player__first_name="Cyril")
    assert cyril.status == EntryStatus.BUSTED
    refused("entry_out", counts=[BagCount(cyril.pk, "10,000")])
    refused("not_in_flight", counts=[BagCount(e2["Emil"].pk, "15,000")])
    refused("bad_count", counts=[BagCount(e1["Anna"].pk, "0")])
    # The Day 2 before the bags: refused, nothing written.
    with pytest.raises(DomainError) as caught:
        day_two_draw(actor=floor, event=event, now=T0 + timedelta(days=2))
    assert (caught.value.code, caught.value.rule) == ("bags_not_reconciled", "SER-2")
    assert Entry.objects.filter(tournament=event.day_two).count() == 0
    assert event.day_two.tables.count() == 0


def test_colour_up_races_change_the_chips_in_play__SER_2(floor, witness, event_setup):
    _event, flights, e1, _e2, _p = event_setup()
    flight = flights["1A"]
    table = Entry.objects.get(pk=e1["Anna"].pk).table
    # Seat rows as the race records them: 75 in 25s went for one 100 (won the race): +25;
    # 50 in 25s lost the race: -50. The flight's chips in play move by -25.
    ColourUpRace.objects.create(
        tournament=flight,
        table=table,
        level_order=6,
        leaving=[25],
        chip_up=100,
        seats=[{"chips_up": 1, "leaving_value": 75}, {"chips_up": 0, "leaving_value": 50}],
        odd_total=125,
        raced=1,
        chips_to_bring=1,
        chips_back=5,
        recorded_at=T0,
    )
    assert colour_up_change(tournament=flight) == -25
    assert flight_bags_get(flight=flight)["expected"] == 114_975
