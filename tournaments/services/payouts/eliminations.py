"""Bust-outs with their finishing places (TRN-10), and undoing the last one."""

import random
from collections.abc import Mapping, Sequence
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.roles import FLOOR_ROLES, require_role
from cardroom.services import audit_record
from tournaments import refusals
from tournaments.models import Entry, EntryStatus, Tournament
from tournaments.services import clock, hand_for_hand, seating
from tournaments.services._common import lock_tournament, rules_for
from tournaments.services.payouts.bounties import (
    bounties_award_knockouts,
    bounties_award_own,
    bounties_undo,
    eliminators_check,
)
from tournaments.services.payouts.places import field_is_final, places_assign_locked, places_reopen_locked
from tournaments.services.payouts.table import finalise_blocker, finalise_locked


@transaction.atomic
def entry_bust(
    *,
    actor,
    tournament: Tournament,
    busted: list[tuple[int, int | None]],
    eliminators: Mapping[int, Sequence[int]] | None = None,
    now: datetime | None = None,
    rng: random.Random | None = None,
) -> list[Entry]:
    """Record the players knocked out in one hand (TRN-10): `busted` is (entry id, chips at the
    start of the hand; None for a player out alone); the larger stack finishes higher. Places
    are given once the field is final (see places): a bust-out during late registration gets
    its place when registration closes. When one player is left he finishes first. Tables are
    then broken and balanced (TRN-9).

    `eliminators` maps a busted entry id to the entries that knocked him out (more than one on a
    split pot, named from the button's left); required for each busted entry that carries a
    bounty, which goes to them (see bounties). The winner gets his own bounty back."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    tournament = lock_tournament(tournament.pk)
    clock.advance_locked(tournament, now=now)
    refusal = refusals.bust_refusal(tournament, count=len(busted))
    if refusal is not None and refusal.code == "tournament_not_running":
        raise refusal
    ids = [pk for pk, _stack in busted]
    if not ids or len(set(ids)) != len(ids):
        raise DomainError("bad_bust", _("Name each busted entry once."), rule="TRN-10")
    # The chips only rank players out in the same hand; one player alone needs none.
    if len(busted) > 1 and any(stack is None or stack <= 0 for _pk, stack in busted):
        raise DomainError(
            "bad_stack",
            _("Two or more players are out in this hand: give each one's chips at the start of the hand."),
            rule="TRN-10",
        )
    if any(stack is not None and stack <= 0 for _pk, stack in busted):
        raise DomainError("bad_stack", _("Give each player's chips at the start of the hand."), rule="TRN-10")
    entries = {
        entry.pk: entry
        for entry in tournament.entries.select_for_update(of=("self",)).filter(pk__in=ids).order_by("pk")
    }
    for pk in ids:
        entry = entries.get(pk)
        if entry is None:
            raise DomainError("not_found", _("Entry %d is not in this tournament.") % pk, status_code=404)
        if entry.status != EntryStatus.ACTIVE:
            raise DomainError(
                "already_busted",
                _("Entry %(n)d (%(player)s) is already out of the tournament.")
                % {"n": entry.number, "player": entry.player.full_name},
                rule="TRN-10",
                status_code=409,
            )
    if refusal is not None:
        raise refusal
    eliminators = {pk: list(winners) for pk, winners in (eliminators or {}).items()}
    carried = eliminators_check(tournament, busted=ids, eliminators=eliminators)
    rules = rules_for(tournament)
    # In hand-for-hand the players out in one round, at any table, share a bust number: they are
    # placed together, so those placed already in this round are placed again with these (SER-3).
    bust_number = hand_for_hand.round_bust_number(
        tournament, rules, table_numbers={entry.table.number for entry in entries.values() if entry.table_id}
    )
    shared = bust_number is not None
    if not shared:
        rules.bust_sequence += 1
        bust_number = rules.bust_sequence
        hand_for_hand.bust_recorded(rules, bust_number=bust_number)
    else:
        paid = tournament.entries.filter(bust_number=bust_number, prize_transaction__isnull=False).first()
        if paid is not None:
            raise DomainError(
                "round_prize_paid",
                _(
                    "Entry %(n)d, out in this hand-for-hand hand, has been paid his prize already; "
                    "these players share places with him. Undo that payment first."
                )
                % {"n": paid.number},
                rule="SER-3",
                status_code=409,
            )
        places_reopen_locked(tournament, bust_number=bust_number)
    stacks = dict(busted)
    for pk in ids:
        entry = entries[pk]
        entry.bust_table_number = entry.table.number if entry.table_id else None
        entry.bust_seat = entry.seat
        entry.table, entry.seat = None, None
        entry.status = EntryStatus.BUSTED
        entry.busted_at = now
        entry.bust_number = bust_number
        entry.bust_stack_chips = stacks[pk]
    fields = [
        "bust_table_number",
        "bust_seat",
        "table",
        "seat",
        "status",
        "busted_at",
        "bust_number",
        "bust_stack_chips",
    ]
    Entry.objects.bulk_update(entries.values(), fields)
    rules.save(update_fields=["bust_sequence", "hand_for_hand_bust_number"])
    # A player out moves nowhere: a move slip still waiting for them is called off (TRN-9).
    seating.slips_call_off(actor=actor, tournament=tournament, entry_ids=ids, now=now)
    if (
        field_is_final(tournament, rules)
        and rules.payouts_finalised_at is None
        and not finalise_blocker(tournament, rules)
    ):
        finalise_locked(tournament, rules, actor=actor, now=now)
    # Places wait for the final field (late registration may still add entries); then this
    # hand's players, and any bust-out still without a place, get theirs (TRN-10).
    places, winner = places_assign_locked(tournament, rules, actor=actor, now=now)
    after = {
        "bust_number": bust_number,
        "entries": [[entries[pk].number, stack, places.get(pk)] for pk, stack in busted],
    }
    if shared:
        # The others out in the same hand-for-hand round, placed again with these (SER-3).
        after["round_places"] = sorted(
            [number, place]
            for number, place in tournament.entries.filter(bust_number=bust_number)
            .exclude(pk__in=ids)
            .values_list("number", "finish_place")
        )
    audit_record(actor=actor, action="entry.bust", obj=tournament, after=after, now=now)
    bounties_award_knockouts(
        tournament,
        carried=carried,
        eliminators=eliminators,
        bust_number=bust_number,
        actor=actor,
        now=now,
    )
    if winner is not None:
        bounties_award_own(tournament, entries=[winner], bust_number=bust_number, actor=actor, now=now)
    else:
        seating.rebalance(actor=actor, tournament=tournament, now=now, rng=rng)
    # Hand-for-hand starts at the paid places plus one, and a broken table may end a round (SER-3).
    hand_for_hand.after_bust_locked(tournament, rules, actor=actor, now=now)
    written = Entry.objects.in_bulk(ids)
    return [written[pk] for pk in ids]


@transaction.atomic
def bust_undo(
    *, actor, tournament: Tournament, now: datetime | None = None, rng: random.Random | None = None
) -> list[Entry]:
    """Undo the last bust-out (a wrong entry): the players are back in, in their seat if it is
    still free (else at the shortest table), and the bounties it awarded are taken back; refused
    once one of their prizes or one of those bounties is paid."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    tournament = lock_tournament(tournament.pk)
    refusal = refusals.bust_undo_refusal(tournament)
    if refusal is not None:
        raise refusal
    rules = rules_for(tournament)
    entries = list(
        tournament.entries.select_for_update(of=("self",))
        .filter(bust_number=rules.bust_sequence, status=EntryStatus.BUSTED)
        .order_by("pk")
    )
    winner = (
        tournament.entries.select_for_update(of=("self",))
        .filter(status=EntryStatus.ACTIVE, finish_place=1)
        .first()
    )
    if winner is not None:
        winner.finish_place = None
        if rules.deal_accepted_at is None:
            winner.prize_cents = None
        winner.save(update_fields=["finish_place", "prize_cents"])
    for entry in entries:
        table = tournament.tables.filter(number=entry.bust_table_number, status="open").first()
        seat_free = (
            table is not None and not tournament.entries.filter(table=table, seat=entry.bust_seat).exists()
        )
        entry.status = EntryStatus.ACTIVE
        entry.finish_place = None
        entry.prize_cents = None if rules.deal_accepted_at is None else entry.prize_cents
        entry.busted_at = None
        entry.bust_number = None
        entry.bust_stack_chips = None
        entry.table, entry.seat = (table, entry.bust_seat) if seat_free else (None, None)
        entry.save(
            update_fields=[
                "status",
                "finish_place",
                "prize_cents",
                "busted_at",
                "bust_number",
                "bust_stack_chips",
                "table",
                "seat",
            ]
        )
        if not seat_free and tournament.tables.exists():
            seating.seat_new_entry(actor=actor, tournament=tournament, entry=entry, now=now, rng=rng)
    bounties_undo(tournament, bust_number=rules.bust_sequence, actor=actor, now=now)
    if rules.hand_for_hand_bust_number == rules.bust_sequence:
        rules.hand_for_hand_bust_number = None  # the round's bust-outs are all undone (SER-3)
    rules.bust_sequence -= 1
    rules.save(update_fields=["bust_sequence", "hand_for_hand_bust_number"])
    audit_record(
        actor=actor,
        action="entry.bust_undo",
        obj=tournament,
        after={"entries": [e.number for e in entries], "winner_cleared": winner.number if winner else None},
        now=now,
    )
    return entries
