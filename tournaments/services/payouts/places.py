"""Finishing places (TRN-10), given once the field is final.

Places count entries, not persons: the payout table is chosen by the number of entries (see
table.entry_count), so a re-entry is an entry of its own and a busted entry keeps its place even
when its player re-entered. Place N (the number of entries) is the first entry out.

While late registration is open the number of entries is not known, so a bust-out then records
only its order (`bust_number`) and the chips each player had at the start of the hand
(`bust_stack_chips`). When the field is final (registration closed, or the tournament finished)
every busted entry without a place gets one from those: an entry busted in hand h finishes
among the entries not busted before h, the larger starting stack higher, equal stacks by entry
number. Busts after that get their places at once by the same computation. Equal starting
stacks in one hand take distinct places but share those places' prizes equally.

In hand-for-hand (SER-3) the players out at different tables in the same round share one bust
number, so they are ranked together as one hand; each new bust-out of the round places the
round's players again (places_reopen_locked), all of them at once.

Callers hold the tournament's lock.
"""

from collections import defaultdict
from datetime import datetime

from cardroom.selectors import venue_get
from cardroom.services import audit_record
from poker.payouts import finishing_places, shared_prizes
from tournaments.models import Entry, EntryStatus, Tournament, TournamentStatus
from tournaments.services.player_notices import payouts_told


def field_is_final(tournament: Tournament, rules) -> bool:
    """No entry can be added any more: late registration is closed or the tournament is over."""
    return rules.registration_closed_at is not None or tournament.status == TournamentStatus.FINISHED


def _prizes_by_place(tournament: Tournament, rules) -> dict[int, int] | None:
    """The finalised prize of each place; None while the payouts are not final or after a deal
    (each dealt player keeps his agreed share whatever place he finishes)."""
    if rules.payouts_finalised_at is None or rules.deal_accepted_at is not None:
        return None
    return dict(tournament.payout_places.values_list("place", "amount_cents"))


def places_assign_locked(
    tournament: Tournament, rules, *, actor, now: datetime
) -> tuple[dict[int, int], Entry | None]:
    """Give every busted entry without a place its place, and the one entry left place 1, once
    the field is final (TRN-10). Returns {entry id: place} of the busted entries placed now and
    the winner if he was placed now. Nothing is written while the field is not final."""
    if not field_is_final(tournament, rules):
        return {}, None
    total = tournament.entries.filter(status__in=[EntryStatus.ACTIVE, EntryStatus.BUSTED]).count()
    pending = list(
        tournament.entries.select_for_update(of=("self",))
        .filter(status=EntryStatus.BUSTED, finish_place__isnull=True)
        .order_by("pk")
    )
    prizes = _prizes_by_place(tournament, rules)
    places: dict[int, int] = {}
    shares: dict[int, int] = {}
    if pending:
        out_per_hand: dict[int, int] = defaultdict(int)
        for bust_number in tournament.entries.filter(status=EntryStatus.BUSTED).values_list(
            "bust_number", flat=True
        ):
            out_per_hand[bust_number or 0] += 1
        hands: dict[int, list[Entry]] = defaultdict(list)
        for entry in pending:
            hands[entry.bust_number or 0].append(entry)
        for bust_number, hand in hands.items():
            out_before = sum(n for number, n in out_per_hand.items() if number < bust_number)
            # finishing_places keeps the given order for equal stacks: the lower entry number.
            hand.sort(key=lambda entry: entry.number)
            for finish in finishing_places(
                players_left_before_hand=total - out_before,
                busted=[(entry.pk, entry.bust_stack_chips or 0) for entry in hand],
            ):
                places[finish.player] = finish.place
            if prizes is not None:
                # Equal starting stacks in one hand share their places' prizes (TRN-10).
                shares.update(
                    shared_prizes(
                        finishes=[(e.pk, places[e.pk], e.bust_stack_chips or 0) for e in hand],
                        prize_of_place=[
                            prizes.get(place, 0) for place in range(1, max(prizes, default=0) + 1)
                        ],
                        smallest_chip_cents=venue_get().smallest_chip_cents,
                    )
                )
        for entry in pending:
            entry.finish_place = places[entry.pk]
            if prizes is not None:
                entry.prize_cents = shares[entry.pk] or None
        Entry.objects.bulk_update(pending, ["finish_place", "prize_cents"])
    winner = None
    live = list(tournament.entries.select_for_update(of=("self",)).filter(status=EntryStatus.ACTIVE)[:2])
    if len(live) == 1 and total > 1 and live[0].finish_place is None:
        winner = live[0]
        winner.finish_place = 1
        if prizes is not None:
            winner.prize_cents = prizes.get(1) or None
        winner.save(update_fields=["finish_place", "prize_cents"])
        audit_record(actor=actor, action="entry.winner", obj=winner, after={"place": 1}, now=now)
    payable = [entry.pk for entry in [*pending, winner] if entry is not None and entry.prize_cents]
    payouts_told(payable, now=now)
    return places, winner


def places_reopen_locked(tournament: Tournament, *, bust_number: int) -> list[Entry]:
    """Take back the places and unpaid prizes of the entries out with `bust_number`, so the next
    places_assign_locked ranks them again with the players joining that hand-for-hand round
    (SER-3). Returns the entries reopened. The caller holds the tournament's lock and has
    refused the bust-out when one of their prizes is paid."""
    entries = list(
        tournament.entries.select_for_update(of=("self",))
        .filter(status=EntryStatus.BUSTED, bust_number=bust_number, finish_place__isnull=False)
        .order_by("pk")
    )
    for entry in entries:
        entry.finish_place = None
        entry.prize_cents = None
    # Cleared first, in its own statement: the new places may swap among these entries, and a
    # place is unique in a tournament.
    Entry.objects.bulk_update(entries, ["finish_place", "prize_cents"])
    return entries
