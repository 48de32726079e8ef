"""Finishing places (TRN-10), given once the field is final.

Places count entries, not persons: the payout table is chosen by the number of entries (see
table.entry_count), so a re-entry is an entry of its own and a busted entry keeps its place even
when its player re-entered. Place N (the number of entries) is the first entry out.

While late registration is open the number of entries is not known, so a bust-out then records
only its order (`bust_number`) and the chips each player had at the start of the hand
(`bust_stack_chips`). When the field is final (registration closed, or the tournament finished)
every busted entry without a place gets one from those: an entry busted in hand h finishes
among the entries not busted before h, the larger starting stack higher, equal stacks by entry
number. Busts after that get their places at once by the same computation.

Callers hold the tournament's lock.
"""

from collections import defaultdict
from datetime import datetime

from cardroom.services import audit_record
from poker.payouts import finishing_places
from tournaments.models import Entry, EntryStatus, Tournament, TournamentStatus


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
        for entry in pending:
            entry.finish_place = places[entry.pk]
            if prizes is not None:
                entry.prize_cents = prizes.get(entry.finish_place) or None
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
    return places, winner
