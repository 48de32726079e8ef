"""Multi-day events (SER-2): the event and its days, bag and tag at the end of a flight, a
manager's acceptance of a difference, and the Day 2 draw.

Locks: a write locks the event row first, then the tournaments it touches in primary-key
order (lock_tournament), so two tablets bagging two flights of one event queue on the event.

The prize pool is the event's. When the Day 2 is drawn each flight's prize pool moves into the
Day 2's by one ledger posting (Dr the flight's prize pool, Cr the Day 2's), recorded as a
PoolTransfer: the Day 2 then pays out from its own account through the ordinary payout and
guarantee code (TRN-5, TRN-10), each account ends at zero, and the books tie each pool to its
entries plus what moved in, less what moved out.
"""

import random
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.money import parse_chips
from cardroom.roles import FLOOR_ROLES, MANAGER_ROLES, Role, require_role, user_venue_roles
from cardroom.selectors import venue_get
from cardroom.services import audit_record
from cashier.models import AccountKind
from cashier.selectors import prize_pool_balance
from cashier.services import account_for, ledger_post
from tournaments.models import (
    Bag,
    BagRule,
    Entry,
    EntryKind,
    EntryStatus,
    Event,
    FlightAcceptance,
    GuaranteeMode,
    GuaranteeOutcome,
    PoolTransfer,
    Tournament,
    TournamentStatus,
)
from tournaments.selectors.events import day_two_draw_refusal, event_flights, flight_bags_get
from tournaments.services._common import (
    check_transition,
    clock_snapshot,
    lock_tournament,
    rules_for,
    tournament_owner,
)
from tournaments.services.seating import seating_draw

RULE = "SER-2"


def _refuse(code: str, message: str, status_code: int = 400) -> DomainError:
    return DomainError(code, message, rule=RULE, status_code=status_code)


def lock_event(event_id: int) -> Event:
    return Event.objects.select_for_update(of=("self",)).get(pk=event_id)


def _event_id_of(flight: Tournament) -> int:
    """The event of a flight, read from its row (the caller's copy may be older than the
    flight's joining the event); refused for a tournament that is no flight."""
    event_id = Tournament.objects.filter(pk=flight.pk).values_list("event_id", flat=True).first()
    if event_id is None:
        raise _refuse("not_a_flight", _("This tournament is not a flight of an event."))
    return event_id


@transaction.atomic
def event_create(
    *,
    actor,
    name: str,
    bag_rule: str = BagRule.BEST,
    guarantee_cents: int = 0,
    guarantee_mode: str = GuaranteeMode.NONE,
    guarantee_player_count: int = 15,
    now: datetime | None = None,
) -> Event:
    """A manager creates a multi-day event with its house options (SER-2; guarantee TRN-3..5)."""
    require_role(actor, *MANAGER_ROLES)
    now = now or timezone.now()
    name = name.strip()
    if not name:
        raise _refuse("name_required", _("Give the event a name."))
    if bag_rule not in BagRule.values:
        raise _refuse("bag_rule", _("Choose whether a player's best bag or his first goes through."))
    if guarantee_mode not in GuaranteeMode.values or (guarantee_mode == GuaranteeMode.NONE) != (
        guarantee_cents == 0
    ):
        raise _refuse("guarantee", _("A guarantee needs an amount and its kind; no guarantee has neither."))
    if guarantee_cents < 0 or guarantee_player_count < 1:
        raise _refuse("guarantee", _("A guarantee needs an amount and its kind; no guarantee has neither."))
    if Event.objects.filter(name=name).exists():
        raise _refuse("name_taken", _("An event of this name exists already."))
    event = Event.objects.create(
        name=name,
        bag_rule=bag_rule,
        guarantee_cents=guarantee_cents,
        guarantee_mode=guarantee_mode,
        guarantee_player_count=guarantee_player_count,
    )
    audit_record(
        actor=actor,
        action="event.create",
        obj=event,
        after={
            "name": name,
            "bag_rule": bag_rule,
            "guarantee_cents": guarantee_cents,
            "guarantee_mode": guarantee_mode,
            "guarantee_player_count": guarantee_player_count,
        },
        now=now,
    )
    return event


@transaction.atomic
def event_flight_add(
    *, actor, event: Event, tournament: Tournament, label: str, now: datetime | None = None
) -> Tournament:
    """Make a tournament a Day-1 flight of the event ("1A"). It keeps its own buy-in, minimum
    players (TRN-1) and registration rules; its guarantee is the event's (none of its own)."""
    require_role(actor, *MANAGER_ROLES)
    now = now or timezone.now()
    event = lock_event(event.pk)
    tournament = lock_tournament(tournament.pk)
    label = label.strip().upper()
    if not label or len(label) > 8:
        raise _refuse("flight_label", _("Give the flight a short label, as 1A."))
    if tournament.event_id is not None or Event.objects.filter(day_two=tournament).exists():
        raise _refuse("already_in_event", _("This tournament is part of an event already."))
    if tournament.status not in (TournamentStatus.SCHEDULED, TournamentStatus.REGISTERING):
        raise _refuse("flight_started", _("Only a tournament that has not started can become a flight."))
    if tournament.guarantee_mode != GuaranteeMode.NONE:
        raise _refuse(
            "flight_guarantee", _("The guarantee is the event's: remove the flight's own guarantee first.")
        )
    if tournament.bounty_cents:
        raise _refuse("flight_bounty", _("A flight has no bounty: its chips go on to the Day 2."))
    if Tournament.objects.filter(event=event, flight_label=label).exists():
        raise _refuse("flight_label_taken", _("The event has a flight %(label)s already.") % {"label": label})
    if event.day_two_drawn_at is not None:
        raise _refuse("day_two_drawn", _("The Day 2 is drawn already."))
    tournament.event, tournament.flight_label = event, label
    tournament.save(update_fields=["event", "flight_label"])
    audit_record(
        actor=actor,
        action="event.flight_add",
        obj=tournament,
        after={"event": event.name, "flight_label": label},
        now=now,
    )
    return tournament


@transaction.atomic
def event_day_two_set(*, actor, event: Event, tournament: Tournament, now: datetime | None = None) -> Event:
    """Name the event's Day 2: a scheduled tournament with no entries. It takes the event's
    guarantee (decided when it is drawn) and sells no entries: its players come from the bags."""
    require_role(actor, *MANAGER_ROLES)
    now = now or timezone.now()
    event = lock_event(event.pk)
    tournament = lock_tournament(tournament.pk)
    if event.day_two_id is not None:
        raise _refuse("day_two_set", _("The event has its Day 2 already."))
    if tournament.event_id is not None or Event.objects.filter(day_two=tournament).exists():
        raise _refuse("already_in_event", _("This tournament is part of an event already."))
    if tournament.status not in (TournamentStatus.SCHEDULED, TournamentStatus.REGISTERING) or (
        tournament.entries.exists()
    ):
        raise _refuse("day_two_not_empty", _("The Day 2 must be a tournament not started, with no entries."))
    tournament.guarantee_mode = event.guarantee_mode
    tournament.guarantee_cents = event.guarantee_cents
    tournament.guarantee_player_count = event.guarantee_player_count
    tournament.save(update_fields=["guarantee_mode", "guarantee_cents", "guarantee_player_count"])
    event.day_two = tournament
    event.save(update_fields=["day_two"])
    audit_record(
        actor=actor, action="event.day_two_set", obj=event, after={"tournament": tournament.pk}, now=now
    )
    return event


@transaction.atomic
def flight_end(*, actor, flight: Tournament, now: datetime | None = None) -> Tournament:
    """The floor ends a flight's day: the clock stops where it is and the survivors are bagged.
    No places are given (the flight pays nothing: its pool goes to the Day 2)."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    flight = lock_tournament(flight.pk)
    if flight.event_id is None:
        raise _refuse("not_a_flight", _("This tournament is not a flight of an event."))
    check_transition(flight, TournamentStatus.FINISHED)
    before = clock_snapshot(flight)
    flight.status = TournamentStatus.FINISHED
    flight.level_ends_at = None
    flight.paused_remaining_ms = None
    flight.finished_at = now
    flight.clock_version += 1
    flight.save()
    audit_record(
        actor=actor,
        action="event.flight_end",
        obj=flight,
        before=before,
        after=clock_snapshot(flight),
        now=now,
    )
    return flight


def _witness_check(*, actor, witness_id: int | None, password: str):
    """The second signature: another floor member or manager of this venue, who types his own
    password on the same tablet. Returns the witness user."""
    if not witness_id:
        raise _refuse("witness_required", _("A second staff member signs the bags: choose your name."))
    witness = get_user_model().objects.filter(pk=witness_id, is_active=True).first()
    if witness is None:
        raise _refuse("witness_required", _("A second staff member signs the bags: choose your name."))
    if witness.pk == actor.pk:
        raise _refuse(
            "same_signer",
            _("The bags are signed by two different staff members: the second one chooses his own name."),
        )
    roles = user_venue_roles(witness).get(venue_get().pk, frozenset())
    if not (roles & {Role.FLOOR, Role.MANAGER}):
        raise _refuse("witness_role", _("The second signature is a floor member's or a manager's."))
    if not password or not witness.check_password(password):
        raise _refuse("witness_password", _("The second signer's password is wrong: type it again."))
    return witness


def _parse_count(text: str, *, entry: Entry) -> int:
    try:
        chips = parse_chips(text, field=_("chips"))
    except DomainError:
        chips = None
    if chips is None or chips <= 0:
        raise _refuse(
            "bad_count",
            _(
                "Table %(table)s seat %(seat)s: “%(text)s” is not a chip count. Type the number as "
                "written on the bag, as 12,500."
            )
            % {"table": entry.table.number if entry.table else "-", "seat": entry.seat or "-", "text": text},
        )
    return chips


def _void_recompute(*, actor, event: Event, player_ids: set[int], now: datetime) -> None:
    """Only one bag of a player goes through (SER-2): his largest (ties: the earlier flight), or
    by the house option his first; the others are void. Each change is audited."""
    bags = list(
        Bag.objects.filter(event=event, player_id__in=player_ids)
        .select_related("flight")
        .order_by("player_id", "flight__start_at", "flight_id", "pk")
    )
    by_player: dict[int, list[Bag]] = {}
    for bag in bags:
        by_player.setdefault(bag.player_id, []).append(bag)
    for player_bags in by_player.values():
        if event.bag_rule == BagRule.FIRST:
            keep = player_bags[0]
        else:
            keep = max(player_bags, key=lambda bag: (bag.chips, -player_bags.index(bag)))
        for bag in player_bags:
            void = bag is not keep
            if bag.void != void:
                bag.void = void
                bag.save(update_fields=["void"])
                audit_record(
                    actor=actor,
                    action="bag.void" if void else "bag.restore",
                    obj=bag,
                    after={
                        "number": bag.number,
                        "flight": bag.flight.flight_label,
                        "chips": bag.chips,
                        "void": void,
                        "kept_bag": keep.number,
                        "bag_rule": event.bag_rule,
                    },
                    now=now,
                )


@dataclass(frozen=True)
class BagCount:
    """One seat's count as the floor typed it."""

    entry_id: int
    text: str


@transaction.atomic
def bags_record(
    *,
    actor,
    flight: Tournament,
    counts: list[BagCount],
    witness_id: int | None,
    witness_password: str,
    now: datetime | None = None,
) -> list[Bag]:
    """Bag and tag (SER-2): the survivors' counts of one table (or any seats) of a flight, signed
    by the floor member logged in and a second one. A seat bagged already gets its count
    corrected (audited with the old count). Every count is checked before anything is written."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    event = lock_event(_event_id_of(flight))
    flight = lock_tournament(flight.pk)
    if event.day_two_drawn_at is not None:
        raise _refuse("day_two_drawn", _("The Day 2 is drawn already: its bags cannot change."), 409)
    if flight.status not in (TournamentStatus.PAUSED, TournamentStatus.FINISHED):
        raise _refuse(
            "flight_running",
            _("Bags are counted when the day ends: pause the clock or end the flight first."),
            409,
        )
    counts = [count for count in counts if count.text.strip()]
    if not counts:
        raise _refuse("no_counts", _("Type at least one count."))
    if len({count.entry_id for count in counts}) != len(counts):
        raise _refuse("seat_twice", _("Each seat is counted once."))
    entries = {
        entry.pk: entry
        for entry in Entry.objects.filter(pk__in=[count.entry_id for count in counts]).select_related(
            "table", "player"
        )
    }
    parsed = []
    for count in counts:
        entry = entries.get(count.entry_id)
        if entry is None or entry.tournament_id != flight.pk:
            raise _refuse(
                "not_in_flight",
                _("This player is not in flight %(flight)s.") % {"flight": flight.flight_label},
            )
        if entry.status != EntryStatus.ACTIVE or entry.table is None:
            raise _refuse(
                "entry_out",
                _("Entry #%(number)d is out of the flight: a busted player has no bag.")
                % {"number": entry.number},
            )
        parsed.append((entry, _parse_count(count.text, entry=entry)))
    witness = _witness_check(actor=actor, witness_id=witness_id, password=witness_password)
    existing = {
        bag.entry_id: bag for bag in Bag.objects.filter(entry_id__in=entries).select_for_update(of=("self",))
    }
    next_number = (Bag.objects.filter(event=event).aggregate(top=Max("number"))["top"] or 0) + 1
    written = []
    for entry, chips in parsed:
        bag = existing.get(entry.pk)
        if bag is not None:
            if bag.chips == chips:
                continue
            before = {
                "chips": bag.chips,
                "counted_by": bag.counted_by.get_username(),
                "witnessed_by": bag.witnessed_by.get_username(),
            }
            bag.chips, bag.counted_by, bag.witnessed_by, bag.counted_at = chips, actor, witness, now
            bag.save(update_fields=["chips", "counted_by", "witnessed_by", "counted_at"])
            action = "bag.correct"
        else:
            before = None
            bag = Bag.objects.create(
                event=event,
                flight=flight,
                entry=entry,
                player=entry.player,
                number=next_number,
                table_number=entry.table.number,
                seat=entry.seat,
                chips=chips,
                counted_by=actor,
                witnessed_by=witness,
                counted_at=now,
            )
            next_number += 1
            action = "bag.record"
        audit_record(
            actor=actor,
            action=action,
            obj=bag,
            before=before,
            after={
                "number": bag.number,
                "flight": flight.flight_label,
                "entry": entry.number,
                "table": bag.table_number,
                "seat": bag.seat,
                "chips": chips,
                "counted_by": actor.get_username(),
                "witnessed_by": witness.get_username(),
            },
            now=now,
        )
        written.append(bag)
    _void_recompute(
        actor=actor, event=event, player_ids={entry.player_id for entry, _chips in parsed}, now=now
    )
    return written


@transaction.atomic
def flight_difference_accept(
    *, actor, flight: Tournament, reason: str, now: datetime | None = None
) -> FlightAcceptance:
    """A manager accepts that a flight's bags differ from its chips in play, with a reason (SER-2).
    It holds for these figures only."""
    require_role(actor, *MANAGER_ROLES)
    now = now or timezone.now()
    reason = " ".join(reason.split())
    event = lock_event(_event_id_of(flight))
    flight = lock_tournament(flight.pk)
    if event.day_two_drawn_at is not None:
        raise _refuse("day_two_drawn", _("The Day 2 is drawn already."), 409)
    if not reason:
        raise _refuse("reason_required", _("Write why the difference is accepted."))
    state = flight_bags_get(flight=flight)
    if state["missing"]:
        raise _refuse("bags_missing", _("Bag every survivor first; then the difference is known."), 409)
    if state["difference"] == 0:
        raise _refuse("no_difference", _("The bags add up: there is nothing to accept."), 409)
    acceptance = FlightAcceptance.objects.create(
        flight=flight,
        expected_chips=state["expected"],
        bagged_chips=state["bagged"],
        reason=reason[:300],
        accepted_by=actor,
        accepted_at=now,
    )
    audit_record(
        actor=actor,
        action="event.bag_difference_accept",
        obj=acceptance,
        after={
            "expected_chips": state["expected"],
            "bagged_chips": state["bagged"],
            "reason": acceptance.reason,
        },
        now=now,
    )
    return acceptance


def _decide_guarantee(
    *, actor, event: Event, day_two: Tournament, flights: list[Tournament], now: datetime
) -> None:
    """The event's guarantee (TRN-3..5) decided on the Day 2's rules when it is drawn: unconditional
    holds; a conditional one counts the distinct present players of all the flights."""
    rules = rules_for(day_two)
    if event.guarantee_mode == GuaranteeMode.NONE:
        return
    count = (
        Entry.objects.filter(
            tournament__in=flights, present=True, status__in=[EntryStatus.ACTIVE, EntryStatus.BUSTED]
        )
        .values("player_id")
        .distinct()
        .count()
    )
    held = event.guarantee_mode == GuaranteeMode.UNCONDITIONAL or count >= event.guarantee_player_count
    rules.guarantee_outcome = GuaranteeOutcome.HELD if held else GuaranteeOutcome.NOT_HELD
    rules.guarantee_count = count
    rules.guarantee_decided_at = now
    rules.save(update_fields=["guarantee_outcome", "guarantee_count", "guarantee_decided_at"])
    audit_record(
        actor=actor,
        action="tournament.guarantee_decided",
        obj=day_two,
        after={
            "outcome": rules.guarantee_outcome,
            "present_players": count,
            "required": None
            if event.guarantee_mode == GuaranteeMode.UNCONDITIONAL
            else event.guarantee_player_count,
            "mode": event.guarantee_mode,
            "guarantee_cents": event.guarantee_cents,
        },
        now=now,
    )


def day_two_draw(
    *, actor, event: Event, now: datetime | None = None, rng: random.Random | None = None
) -> Tournament:
    """Draw the Day 2 from the bags (SER-2): refused, nothing written, until every flight is
    finished and its bags add up (or a manager accepted the difference). Each bag that goes
    through becomes a Day 2 entry starting with its count (no money moves for it); the flights'
    prize pools move into the Day 2's; the seats are drawn at random on tables within one player
    of each other (TRN-9)."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    with transaction.atomic():
        event = lock_event(event.pk)
        refusal = day_two_draw_refusal(event=event)
        if refusal is not None:
            raise refusal
        flights = event_flights(event=event)
        day_two = lock_tournament(event.day_two_id)
        for flight in sorted(flights, key=lambda flight: flight.pk):
            lock_tournament(flight.pk)
        if day_two.status not in (TournamentStatus.SCHEDULED, TournamentStatus.REGISTERING) or (
            day_two.entries.exists()
        ):
            raise _refuse(
                "day_two_not_empty", _("The Day 2 must be a tournament not started, with no entries."), 409
            )
        if day_two.status == TournamentStatus.SCHEDULED:
            check_transition(day_two, TournamentStatus.REGISTERING)
            day_two.status = TournamentStatus.REGISTERING
            day_two.save(update_fields=["status"])
        bags = list(Bag.objects.filter(event=event, void=False).select_related("player").order_by("number"))
        entries = Entry.objects.bulk_create(
            [
                Entry(
                    tournament=day_two,
                    player=bag.player,
                    number=number,
                    kind=EntryKind.BAG,
                    status=EntryStatus.ACTIVE,
                    present=True,
                    starting_stack_chips=bag.chips,
                    registered_at=now,
                )
                for number, bag in enumerate(bags, start=1)
            ]
        )
        for bag, entry in zip(bags, entries, strict=True):
            bag.day_two_entry = entry
        Bag.objects.bulk_update(bags, ["day_two_entry"])
        moved = []
        for flight in flights:
            amount = prize_pool_balance(tournament_id=flight.pk)
            if amount:
                ledger_post(
                    lines=[
                        (account_for(kind=AccountKind.PRIZE_POOL, owner=tournament_owner(flight.pk)), amount),
                        (
                            account_for(kind=AccountKind.PRIZE_POOL, owner=tournament_owner(day_two.pk)),
                            -amount,
                        ),
                    ],
                    description=f"Event {event.pk}: flight {flight.flight_label} prize pool to Day 2",
                    actor=actor,
                    now=now,
                )
            PoolTransfer.objects.create(
                event=event, flight=flight, day_two=day_two, amount_cents=amount, created_at=now
            )
            moved.append([flight.flight_label, amount])
        _decide_guarantee(actor=actor, event=event, day_two=day_two, flights=flights, now=now)
        # The Day 2 sells no entries: its players come from the bags.
        rules = rules_for(day_two)
        rules.registration_closed_at = now
        rules.save(update_fields=["registration_closed_at"])
        event.day_two_drawn_at = now
        event.save(update_fields=["day_two_drawn_at"])
        audit_record(
            actor=actor,
            action="event.day_two_draw",
            obj=event,
            after={
                "entries": [[bag.number, bag.chips] for bag in bags],
                "amounts": moved,
                "prize_pool_cents": sum(amount for _label, amount in moved),
            },
            now=now,
        )
        seating_draw(actor=actor, tournament=day_two, now=now, rng=rng)
        day_two.refresh_from_db()
        return day_two
