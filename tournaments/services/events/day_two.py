"""The Day 2 drawn from the bags (SER-2): its entries, the flights' prize pools moved into its own,
the event's guarantee decided (TRN-3..5) and the seats drawn (TRN-9)."""

import random
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.roles import FLOOR_ROLES, require_role
from cardroom.services import audit_record
from cashier.models import AccountKind
from cashier.selectors import prize_pool_balance
from cashier.services import account_for, ledger_post
from tournaments.models import (
    Bag,
    Entry,
    EntryKind,
    EntryStatus,
    Event,
    GuaranteeMode,
    GuaranteeOutcome,
    PoolTransfer,
    Tournament,
    TournamentStatus,
)
from tournaments.selectors.events import day_two_draw_refusal, event_flights
from tournaments.services._common import check_transition, lock_tournament, rules_for, tournament_owner
from tournaments.services.events._common import lock_event, refuse
from tournaments.services.seating import seating_draw


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
            raise refuse(
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
