"""The end of a flight's day and bag and tag (SER-2): the survivors' counts signed by two staff
members, one bag of a player going through, and a manager's acceptance of a difference."""

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
from tournaments.models import (
    Bag,
    BagRule,
    Entry,
    EntryStatus,
    Event,
    FlightAcceptance,
    Tournament,
    TournamentStatus,
)
from tournaments.selectors.events import flight_bags_get
from tournaments.services._common import check_transition, clock_snapshot, lock_tournament
from tournaments.services.events._common import lock_event, refuse


def _event_id_of(flight: Tournament) -> int:
    """The event of a flight, read from its row (the caller's copy may be older than the
    flight's joining the event); refused for a tournament that is no flight."""
    event_id = Tournament.objects.filter(pk=flight.pk).values_list("event_id", flat=True).first()
    if event_id is None:
        raise refuse("not_a_flight", _("This tournament is not a flight of an event."))
    return event_id


@transaction.atomic
def flight_end(*, actor, flight: Tournament, now: datetime | None = None) -> Tournament:
    """The floor ends a flight's day: the clock stops where it is and the survivors are bagged.
    No places are given (the flight pays nothing: its pool goes to the Day 2)."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    flight = lock_tournament(flight.pk)
    if flight.event_id is None:
        raise refuse("not_a_flight", _("This tournament is not a flight of an event."))
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
        raise refuse("witness_required", _("A second staff member signs the bags: choose your name."))
    witness = get_user_model().objects.filter(pk=witness_id, is_active=True).first()
    if witness is None:
        raise refuse("witness_required", _("A second staff member signs the bags: choose your name."))
    if witness.pk == actor.pk:
        raise refuse(
            "same_signer",
            _("The bags are signed by two different staff members: the second one chooses his own name."),
        )
    roles = user_venue_roles(witness).get(venue_get().pk, frozenset())
    if not (roles & {Role.FLOOR, Role.MANAGER}):
        raise refuse("witness_role", _("The second signature is a floor member's or a manager's."))
    if not password or not witness.check_password(password):
        raise refuse("witness_password", _("The second signer's password is wrong: type it again."))
    return witness


def _parse_count(text: str, *, entry: Entry) -> int:
    try:
        chips = parse_chips(text, field=_("chips"))
    except DomainError:
        chips = None
    if chips is None or chips <= 0:
        raise refuse(
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
        raise refuse("day_two_drawn", _("The Day 2 is drawn already: its bags cannot change."), 409)
    if flight.status not in (TournamentStatus.PAUSED, TournamentStatus.FINISHED):
        raise refuse(
            "flight_running",
            _("Bags are counted when the day ends: pause the clock or end the flight first."),
            409,
        )
    counts = [count for count in counts if count.text.strip()]
    if not counts:
        raise refuse("no_counts", _("Type at least one count."))
    if len({count.entry_id for count in counts}) != len(counts):
        raise refuse("seat_twice", _("Each seat is counted once."))
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
            raise refuse(
                "not_in_flight",
                _("This player is not in flight %(flight)s.") % {"flight": flight.flight_label},
            )
        if entry.status != EntryStatus.ACTIVE or entry.table is None:
            raise refuse(
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
        raise refuse("day_two_drawn", _("The Day 2 is drawn already."), 409)
    if not reason:
        raise refuse("reason_required", _("Write why the difference is accepted."))
    state = flight_bags_get(flight=flight)
    if state["missing"]:
        raise refuse("bags_missing", _("Bag every survivor first; then the difference is known."), 409)
    if state["difference"] == 0:
        raise refuse("no_difference", _("The bags add up: there is nothing to accept."), 409)
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
