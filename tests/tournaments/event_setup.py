"""A multi-day event as the tests of SER-2 build it: "Spring Main", two Day-1 flights played and
ended, the Day 2 named; and the bag and tag of its survivors, signed by a second floor member."""

import random
from datetime import timedelta

from cardroom.roles import Role
from tests.conftest import PASSWORD, make_staff
from tests.factories import PlayerFactory
from tests.tournaments.conftest import LEVELS, key
from tests.tournaments.factories import T0, TournamentFactory
from tournaments.models import BagRule, GuaranteeMode
from tournaments.services._common import rules_for
from tournaments.services.events import (
    BagCount,
    bags_record,
    event_create,
    event_day_two_set,
    event_flight_add,
    flight_end,
)
from tournaments.services.payouts import entry_bust
from tournaments.services.registration import entry_add_on, tournament_start

S = timedelta(seconds=1)


def make_witness():
    """The second signer of the bags: another floor member."""
    return make_staff("floor2", Role.FLOOR)


def _players():
    names = ["Anna", "Boris", "Cyril", "Dana", "Emil", "Fero"]
    return {name: PlayerFactory(first_name=name, last_name="Novak") for name in names}


def spring_main(
    *,
    floor,
    manager,
    cashier,
    shift,
    register,
    bag_rule=BagRule.BEST,
    guarantee_cents=0,
    guarantee_mode=GuaranteeMode.NONE,
):
    """Two flights of "Spring Main" (90.00 + 10.00 EUR, 20,000 chips, one re-entry, an add-on of
    30.00 EUR for 15,000 chips in 1A):

    1A: Anna, Boris, Cyril, Dana; Dana busts and re-enters, Boris takes the add-on, Cyril busts.
        5 x 20,000 + 15,000 = 115,000 chips; 5 x 90.00 + 30.00 = 480.00 EUR prize pool.
    1B: Anna, Emil, Fero; Fero busts. 3 x 20,000 = 60,000 chips; 270.00 EUR.
    Both flights ended; the Day 2 named, not drawn. Returns (event, flights, e1, e2, players):
    the flights by label, each flight's entries and the players by first name."""
    event = event_create(
        actor=manager,
        name="Spring Main",
        bag_rule=bag_rule,
        guarantee_cents=guarantee_cents,
        guarantee_mode=guarantee_mode,
        now=T0,
    )
    p = _players()
    flights = {}
    for label, start in (("1A", T0), ("1B", T0 + timedelta(days=1))):
        flight = TournamentFactory(
            name=f"Spring Main {label}",
            levels=LEVELS,
            min_players=2,
            start_at=start,
            late_registration_level=2,
            max_reentries=1,
        )
        event_flight_add(actor=manager, event=event, tournament=flight, label=label, now=T0)
        flights[label] = flight
    a = flights["1A"]
    rules = rules_for(a)
    rules.add_on_level, rules.add_on_prize_cents, rules.add_on_fee_cents, rules.add_on_chips = (
        3,
        3_000,
        0,
        15_000,
    )
    rules.save()
    e1 = {name: register(a, p[name], now=T0) for name in ("Anna", "Boris", "Cyril", "Dana")}
    tournament_start(actor=floor, tournament=a, now=T0, rng=random.Random(4))
    entry_bust(actor=floor, tournament=a, busted=[(e1["Dana"].pk, None)], now=T0 + 10 * S)
    e1["Dana"] = register(a, p["Dana"], now=T0 + 20 * S)
    entry_add_on(actor=cashier, entry=e1["Boris"], shift=shift, idempotency_key=key(), now=T0 + 30 * S)
    entry_bust(actor=floor, tournament=a, busted=[(e1["Cyril"].pk, None)], now=T0 + 40 * S)
    flight_end(actor=floor, flight=a, now=T0 + 60 * S)

    b = flights["1B"]
    t1 = b.start_at
    e2 = {name: register(b, p[name], now=t1) for name in ("Anna", "Emil", "Fero")}
    tournament_start(actor=floor, tournament=b, now=t1, rng=random.Random(5))
    entry_bust(actor=floor, tournament=b, busted=[(e2["Fero"].pk, None)], now=t1 + 10 * S)
    flight_end(actor=floor, flight=b, now=t1 + 60 * S)

    day_two = TournamentFactory(
        name="Spring Main Day 2",
        levels=LEVELS,
        min_players=2,
        status="scheduled",
        start_at=T0 + timedelta(days=2),
        prize_cents=0,
        fee_cents=0,
    )
    event = event_day_two_set(actor=manager, event=event, tournament=day_two, now=T0)
    for flight in flights.values():
        flight.refresh_from_db()
    return event, flights, e1, e2, p


def bag(floor, witness, flight, counts: dict, now=None):
    """Bag and tag in `flight`: counts {entry: the count as typed}, signed by `witness`."""
    return bags_record(
        actor=floor,
        flight=flight,
        counts=[BagCount(entry.pk, text) for entry, text in counts.items()],
        witness_id=witness.pk,
        witness_password=PASSWORD,
        now=now or T0 + timedelta(days=1, hours=12),
    )


def bag_both(floor, witness, flights, e1, e2, anna_1b="45,000"):
    """Every survivor of both flights bagged; they add up unless Anna's 1B count is changed."""
    bag(floor, witness, flights["1A"], {e1["Anna"]: "40,000", e1["Boris"]: "50 000", e1["Dana"]: "25000"})
    bag(floor, witness, flights["1B"], {e2["Anna"]: anna_1b, e2["Emil"]: "15,000"})
