"""Reads of multi-day events (SER-2): each flight's chips in play against its bags, the bag
sheet the floor fills seat by seat, whether the Day 2 may be drawn (and why not), and the Day 2
seat list with the counts for the printed list, the TV and the phones."""

from django.contrib.auth import get_user_model
from django.db.models import Sum
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from cardroom.errors import DomainError
from cardroom.money import format_chips
from cardroom.roles import Role
from cardroom.selectors import venue_get
from players.selectors import public_names
from tournaments.models import (
    Bag,
    ColourUpRace,
    EntryStatus,
    Event,
    FlightAcceptance,
    Tournament,
    TournamentStatus,
)
from tournaments.selectors import chips_in_play
from tournaments.selectors.floor import player_label, seating_tables

RULE = "SER-2"


def colour_up_change(*, tournament: Tournament) -> int:
    """Chips the colour-ups added (+) or took (-) from play (CHP-1): each race gives chips up
    for the leaving chips, and the odd chips raced off are gone from play."""
    change = 0
    for race in ColourUpRace.objects.filter(tournament=tournament).only("chip_up", "seats"):
        for seat in race.seats:
            change += seat["chips_up"] * race.chip_up - seat["leaving_value"]
    return change


def flight_chips_expected(*, flight: Tournament) -> int:
    """The chips a flight's bags must add up to (SER-2): every starting stack of its entries and
    re-entries, its rebuys and add-ons (TRN-6), and the colour-ups' change (CHP-1)."""
    return chips_in_play(tournament=flight) + colour_up_change(tournament=flight)


def _acceptance(flight: Tournament) -> FlightAcceptance | None:
    return FlightAcceptance.objects.filter(flight=flight).order_by("-pk").first()


def flight_bags_get(*, flight: Tournament) -> dict:
    """A flight's bags against its chips in play: expected, bagged, difference (bagged -
    expected), the survivors still without a bag, the manager's acceptance if it still holds
    for these figures, and whether the flight is ready for the Day 2 (and why not)."""
    bags = list(
        Bag.objects.filter(flight=flight)
        .select_related("player", "counted_by", "witnessed_by")
        .order_by("table_number", "seat")
    )
    expected = flight_chips_expected(flight=flight)
    bagged = sum(bag.chips for bag in bags)
    bagged_entries = {bag.entry_id for bag in bags}
    missing = [
        entry
        for entry in flight.entries.filter(status=EntryStatus.ACTIVE)
        .select_related("player", "table")
        .order_by("table__number", "seat")
        if entry.pk not in bagged_entries
    ]
    acceptance = _acceptance(flight)
    accepted = (
        acceptance is not None
        and acceptance.expected_chips == expected
        and acceptance.bagged_chips == bagged
        and bagged != expected
    )
    difference = bagged - expected
    refusal = None
    if flight.status != TournamentStatus.FINISHED:
        refusal = _("Flight %(flight)s is not finished: end its day once every survivor is bagged.") % {
            "flight": flight.flight_label
        }
    elif missing:
        refusal = ngettext(
            "Flight %(flight)s: %(count)d player still has no bag; enter his count.",
            "Flight %(flight)s: %(count)d players still have no bag; enter their counts.",
            len(missing),
        ) % {"flight": flight.flight_label, "count": len(missing)}
    elif difference and not accepted:
        refusal = _(
            "Flight %(flight)s: the bags hold %(bagged)s chips but %(expected)s are in play. Correct "
            "a bag, or a manager accepts the difference with a reason."
        ) % {
            "flight": flight.flight_label,
            "bagged": format_chips(bagged),
            "expected": format_chips(expected),
        }
    return {
        "flight": flight,
        "bags": bags,
        "expected": expected,
        "bagged": bagged,
        "difference": difference,
        "missing": missing,
        "acceptance": acceptance if accepted else None,
        "ready": refusal is None,
        "refusal": refusal,
    }


def event_flights(*, event: Event) -> list[Tournament]:
    return list(Tournament.objects.filter(event=event).order_by("start_at", "flight_label", "pk"))


def event_get(*, event: Event) -> dict:
    """The event page: each flight with its bags' state, and the Day 2 draw's refusal if any."""
    flights = [flight_bags_get(flight=flight) for flight in event_flights(event=event)]
    return {
        "event": event,
        "flights": flights,
        "draw_refusal": day_two_draw_refusal(event=event, flights=flights),
        "day_two": event.day_two,
        "pool_cents": sum(transfer.amount_cents for transfer in event.pool_transfers.all()),
    }


def day_two_draw_refusal(*, event: Event, flights: list[dict] | None = None) -> DomainError | None:
    """Why the Day 2 cannot be drawn now (SER-2), or None."""

    def refuse(code: str, message: str) -> DomainError:
        return DomainError(code, message, rule=RULE, status_code=409)

    if event.day_two_id is None:
        return refuse("no_day_two", _("The event has no Day 2 tournament yet: a manager names it."))
    if event.day_two_drawn_at is not None:
        return refuse("day_two_drawn", _("The Day 2 is drawn already."))
    if flights is None:
        flights = [flight_bags_get(flight=flight) for flight in event_flights(event=event)]
    if not flights:
        return refuse("no_flights", _("The event has no Day-1 flight."))
    for state in flights:
        if not state["ready"]:
            return refuse("bags_not_reconciled", state["refusal"])
    if not Bag.objects.filter(event=event, void=False).exists():
        return refuse("no_bags", _("No bag goes through to the Day 2."))
    return None


def bag_sheet_get(*, flight: Tournament) -> dict:
    """The bag-and-tag page: the flight's tables drawn with their seats (as the seating chart),
    each seated survivor with his bag if he has one, and the flight's figures."""
    state = flight_bags_get(flight=flight)
    by_entry = {bag.entry_id: bag for bag in state["bags"]}
    chart = seating_tables(tournament=flight)
    for row in chart:
        for seat in row["seats"]:
            seat["bag"] = by_entry.get(seat["entry"].pk) if seat["entry"] else None
        row["bagged"] = sum(1 for seat in row["seats"] if seat["bag"])
    return {**state, "chart": [row for row in chart if row["players"]]}


def event_bags_list(*, event: Event) -> list[Bag]:
    """Every bag of the event, void ones included, by number (for the event page)."""
    return list(Bag.objects.filter(event=event).select_related("player", "flight").order_by("number"))


def day_two_seats_list(*, event: Event, public: bool = True) -> list[dict]:
    """The Day 2 seats with the counts (SER-2), alphabetical by the name shown (public names on
    the TV and phones, WTL-3; the floor's names on the printed list): name, table, seat, chips,
    flight. Two queries."""
    if event.day_two_id is None:
        return []
    bags = list(
        Bag.objects.filter(event=event, day_two_entry__isnull=False)
        .select_related("player", "flight", "day_two_entry__table", "day_two_entry__player")
        .order_by("number")
    )
    names = public_names(bag.player for bag in bags) if public else {}
    rows = [
        {
            "name": names[bag.player_id] if public else player_label(bag.day_two_entry),
            "number": bag.day_two_entry.number,
            "table": bag.day_two_entry.table.number if bag.day_two_entry.table else None,
            "seat": bag.day_two_entry.seat,
            "chips": bag.chips,
            "flight": bag.flight.flight_label,
            "bag": bag.number,
        }
        for bag in bags
        if bag.day_two_entry.status == EntryStatus.ACTIVE
    ]
    rows.sort(key=lambda row: (row["name"].casefold(), row["number"]))
    return rows


def event_for_day_two(*, tournament: Tournament) -> Event | None:
    """The event whose Day 2 this tournament is, if any."""
    return Event.objects.filter(day_two=tournament).first()


def event_pool_cents(*, event: Event) -> int:
    """What the flights moved into the Day 2's prize pool (cents)."""
    return event.pool_transfers.aggregate(total=Sum("amount_cents"))["total"] or 0


def bag_witnesses(*, exclude_user=None) -> list:
    """The staff who may sign bags as the second signer: floor members and managers of this
    venue (the one logged in on the tablet is the first signer and is left out)."""
    users = (
        get_user_model()
        .objects.filter(
            is_active=True,
            venue_roles__venue_id=venue_get().pk,
            venue_roles__role__in=[Role.FLOOR, Role.MANAGER],
        )
        .distinct()
        .order_by("first_name", "last_name", "username")
    )
    if exclude_user is not None:
        users = users.exclude(pk=exclude_user.pk)
    return list(users)


def event_by_pk(*, pk: int) -> Event | None:
    """The event of that number in this venue, for the screens (None: no such event)."""
    return Event.objects.filter(pk=pk).select_related("day_two").first()


def day_two_seats_page(*, event: Event, page: int, per_page: int) -> dict:
    """One page of the Day 2 seat list for the TV (SER-2): the rows, the page number (1-based,
    wrapped round to the first after the last) and the number of pages."""
    rows = day_two_seats_list(event=event)
    pages = max(1, -(-len(rows) // per_page))
    page = (page - 1) % pages + 1
    return {
        "rows": rows[(page - 1) * per_page : page * per_page],
        "page": page,
        "pages": pages,
        "next_page": page % pages + 1,
        "players": len(rows),
        "chips": sum(row["chips"] for row in rows),
    }
