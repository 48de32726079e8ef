"""Eliminations and payouts (TRN-10), the prize pool with its guarantee overlay (TRN-5), prizes
paid at the cashier, and deals (ICM, chip chop) at the final table.

The payout table is finalised once, when registration, rebuys and add-ons are closed (and the
guarantee, if any, decided): the prize pool is what the players paid in, raised to the guarantee
when it holds, and the difference is posted then, once, as a house expense (overlay): Dr overlay
expense, Cr the tournament's prize pool. From then on the amounts per place are fixed and sum to
the prize pool exactly.
"""

import random
from datetime import datetime
from itertools import pairwise

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import Conflict, DomainError
from cardroom.roles import CASHIER_ROLES, FLOOR_ROLES, require_role
from cardroom.selectors import venue_get
from cardroom.services import audit_record
from cashier.models import AccountKind, Shift
from cashier.selectors import prize_pool_balance
from cashier.services import account_for, ledger_post, prize_payout
from poker.payouts import BASIS_POINTS, default_payout_percentages, finishing_places, payout_amounts
from tournaments.models import (
    Entry,
    EntryStatus,
    GuaranteeMode,
    GuaranteeOutcome,
    PayoutPlace,
    Tournament,
    TournamentStatus,
)
from tournaments.services import clock, seating
from tournaments.services._common import lock_tournament, rules_for, tournament_owner

MAX_PLACES = 1000


def entry_count(tournament: Tournament) -> int:
    """Entries for the payout table: every paid entry, re-entries included (TRN-10)."""
    return tournament.entries.filter(status__in=[EntryStatus.ACTIVE, EntryStatus.BUSTED]).count()


def payout_percentages_for(tournament: Tournament, rules) -> list[int]:
    if rules.payout_percentages:
        return list(rules.payout_percentages)
    return list(default_payout_percentages(max(entry_count(tournament), 1)))


def validate_percentages(percentages: list[int]) -> None:
    if not percentages or len(percentages) > MAX_PLACES:
        raise DomainError("no_places", _("A payout table pays 1 to %d places.") % MAX_PLACES, rule="TRN-10")
    if any(not isinstance(bp, int) or isinstance(bp, bool) or bp < 0 for bp in percentages):
        raise DomainError(
            "bad_percentages", _("Each place gets a whole number of basis points, 0 or more."), rule="TRN-10"
        )
    if sum(percentages) != BASIS_POINTS:
        raise DomainError(
            "bad_percentages",
            _("The places must add up to 100.00 %% (10000 basis points); they add up to %d.")
            % sum(percentages),
            rule="TRN-10",
        )
    if any(later > earlier for earlier, later in pairwise(percentages)):
        raise DomainError(
            "bad_percentages", _("A lower place cannot pay more than a higher one."), rule="TRN-10"
        )


@transaction.atomic
def payout_table_set(
    *, actor, tournament: Tournament, percentages: list[int], now: datetime | None = None
) -> list[int]:
    """Floor or manager sets the tournament's own payout table (basis points, first place first);
    an empty list goes back to the default table. Refused once payouts are finalised."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    tournament = lock_tournament(tournament.pk)
    rules = rules_for(tournament)
    if rules.payouts_finalised_at is not None:
        raise DomainError(
            "payouts_final",
            _("The payouts are final; the table can no longer change."),
            rule="TRN-10",
            status_code=409,
        )
    if percentages:
        validate_percentages(percentages)
    before = {"payout_percentages": rules.payout_percentages}
    rules.payout_percentages = list(percentages)
    rules.save(update_fields=["payout_percentages"])
    audit_record(
        actor=actor,
        action="tournament.payout_table",
        obj=tournament,
        before=before,
        after={"payout_percentages": rules.payout_percentages},
        now=now,
    )
    return rules.payout_percentages


def _finalise(tournament: Tournament, rules, *, actor, now: datetime) -> None:
    """Fix the prize pool and the amount of every place (TRN-5, TRN-10), posting the overlay once.
    The caller holds the tournament's lock and has checked `can_finalise`."""
    owner = tournament_owner(tournament.pk)
    collected = prize_pool_balance(tournament_id=tournament.pk)
    overlay = 0
    if rules.guarantee_outcome == GuaranteeOutcome.HELD and collected < tournament.guarantee_cents:
        overlay = tournament.guarantee_cents - collected
        ledger_post(
            lines=[
                (account_for(kind=AccountKind.OVERLAY_EXPENSE), overlay),
                (account_for(kind=AccountKind.PRIZE_POOL, owner=owner), -overlay),
            ],
            description=f"Tournament {tournament.pk} guarantee overlay",
            actor=actor,
            now=now,
        )
    pool = collected + overlay
    percentages = payout_percentages_for(tournament, rules)
    entries = entry_count(tournament)
    if len(percentages) > entries:
        raise DomainError(
            "more_places_than_entries",
            _(
                "The payout table pays %(places)d places but there are %(entries)d entries; "
                "set a shorter table."
            )
            % {"places": len(percentages), "entries": entries},
            rule="TRN-10",
            status_code=409,
        )
    amounts = payout_amounts(
        prize_pool_cents=pool, percentages=percentages, smallest_chip_cents=venue_get().smallest_chip_cents
    )
    PayoutPlace.objects.bulk_create(
        PayoutPlace(tournament=tournament, place=place, amount_cents=amount)
        for place, amount in enumerate(amounts, start=1)
    )
    rules.payouts_finalised_at = now
    rules.collected_prize_cents = collected
    rules.prize_pool_cents = pool
    rules.overlay_cents = overlay
    rules.save(
        update_fields=["payouts_finalised_at", "collected_prize_cents", "prize_pool_cents", "overlay_cents"]
    )
    # Entries that already finished in the money get their prize now.
    placed = list(tournament.entries.filter(finish_place__isnull=False, finish_place__lte=len(amounts)))
    for entry in placed:
        entry.prize_cents = amounts[entry.finish_place - 1]
    Entry.objects.bulk_update(placed, ["prize_cents"])
    audit_record(
        actor=actor,
        action="tournament.payouts_finalised",
        obj=tournament,
        after={
            "collected_cents": collected,
            "overlay_cents": overlay,
            "prize_pool_cents": pool,
            "percentages": percentages,
            "amounts": amounts,
        },
        now=now,
    )


def finalise_blocker(tournament: Tournament, rules) -> str:
    """Why the payouts cannot be finalised yet ("" when they can)."""
    if rules.payouts_finalised_at is not None:
        return str(_("The payouts are already final."))
    if not tournament.clock_started and tournament.status != TournamentStatus.FINISHED:
        return str(_("The tournament has not started."))
    if rules.registration_closed_at is None:
        return str(_("Late registration is still open."))
    if rules.rebuy_level and rules.rebuys_closed_at is None:
        return str(_("Rebuys are still open."))
    if rules.add_on_level and rules.add_ons_closed_at is None:
        return str(_("Add-ons are still open."))
    if tournament.guarantee_mode != GuaranteeMode.NONE and rules.guarantee_decided_at is None:
        return str(
            _("The guarantee is decided at the end of level %d first.") % tournament.guarantee_deadline_level
        )
    return ""


@transaction.atomic
def payouts_finalise(*, actor, tournament: Tournament, now: datetime | None = None) -> Tournament:
    """The floor fixes the payouts (TRN-5, TRN-10): also done by itself at the first bust-out
    once nothing can change the prize pool any more."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    tournament = lock_tournament(tournament.pk)
    clock.advance_locked(tournament, now=now)
    rules = rules_for(tournament)
    blocker = finalise_blocker(tournament, rules)
    if blocker:
        raise DomainError("cannot_finalise", blocker, rule="TRN-10", status_code=409)
    _finalise(tournament, rules, actor=actor, now=now)
    return tournament


def _prize_for_place(tournament: Tournament, rules, place: int) -> int | None:
    if rules.payouts_finalised_at is None or rules.deal_accepted_at is not None:
        return None
    row = tournament.payout_places.filter(place=place).first()
    return (row.amount_cents or None) if row else None


def _players_left(tournament: Tournament) -> int:
    return tournament.entries.filter(status=EntryStatus.ACTIVE).count()


@transaction.atomic
def entry_bust(
    *,
    actor,
    tournament: Tournament,
    busted: list[tuple[int, int]],
    now: datetime | None = None,
    rng: random.Random | None = None,
) -> list[Entry]:
    """Record the players knocked out in one hand (TRN-10): `busted` is (entry id, chips at the
    start of the hand); the larger stack finishes higher. Places are given once registration is
    closed (before that a busted player may re-enter and places are not known). When one player
    is left he finishes first. Tables are then broken and balanced (TRN-9)."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    tournament = lock_tournament(tournament.pk)
    clock.advance_locked(tournament, now=now)
    if not tournament.clock_started:
        raise DomainError(
            "tournament_not_running",
            _("Bust-outs are recorded while the tournament runs."),
            rule="TRN-10",
            status_code=409,
        )
    ids = [pk for pk, _stack in busted]
    if not ids or len(set(ids)) != len(ids):
        raise DomainError("bad_bust", _("Name each busted entry once."), rule="TRN-10")
    if any(stack <= 0 for _pk, stack in busted):
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
    left = _players_left(tournament)
    if left - len(ids) < 1:
        raise DomainError("no_winner", _("At least one player must be left after the hand."), rule="TRN-10")
    rules = rules_for(tournament)
    rules.bust_sequence += 1
    places_known = rules.registration_closed_at is not None
    places = (
        {
            finish.player: finish.place
            for finish in finishing_places(players_left_before_hand=left, busted=busted)
        }
        if places_known
        else {}
    )
    if places_known and rules.payouts_finalised_at is None and not finalise_blocker(tournament, rules):
        _finalise(tournament, rules, actor=actor, now=now)
    for pk in ids:
        entry = entries[pk]
        entry.bust_table_number = entry.table.number if entry.table_id else None
        entry.bust_seat = entry.seat
        entry.table, entry.seat = None, None
        entry.status = EntryStatus.BUSTED
        entry.busted_at = now
        entry.bust_number = rules.bust_sequence
        entry.finish_place = places.get(pk)
        if rules.deal_accepted_at is None:
            # After a deal each player keeps his agreed share whatever place he finishes.
            entry.prize_cents = (
                _prize_for_place(tournament, rules, entry.finish_place) if entry.finish_place else None
            )
    fields = [
        "bust_table_number",
        "bust_seat",
        "table",
        "seat",
        "status",
        "busted_at",
        "bust_number",
        "finish_place",
        "prize_cents",
    ]
    Entry.objects.bulk_update(entries.values(), fields)
    rules.save(update_fields=["bust_sequence"])
    audit_record(
        actor=actor,
        action="entry.bust",
        obj=tournament,
        after={
            "bust_number": rules.bust_sequence,
            "entries": [[entries[pk].number, stack, places.get(pk)] for pk, stack in busted],
        },
        now=now,
    )
    if places_known and left - len(ids) == 1:
        winner = tournament.entries.select_for_update(of=("self",)).get(status=EntryStatus.ACTIVE)
        winner.finish_place = 1
        winner.prize_cents = (
            winner.prize_cents if rules.deal_accepted_at else _prize_for_place(tournament, rules, 1)
        )
        winner.save(update_fields=["finish_place", "prize_cents"])
        audit_record(actor=actor, action="entry.winner", obj=winner, after={"place": 1}, now=now)
    else:
        seating.rebalance(actor=actor, tournament=tournament, now=now, rng=rng)
    return [entries[pk] for pk in ids]


@transaction.atomic
def bust_undo(
    *, actor, tournament: Tournament, now: datetime | None = None, rng: random.Random | None = None
) -> list[Entry]:
    """Undo the last bust-out (a wrong entry): the players are back in, in their seat if it is
    still free (else at the shortest table); refused once one of their prizes is paid."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    tournament = lock_tournament(tournament.pk)
    rules = rules_for(tournament)
    if not rules.bust_sequence:
        raise DomainError("nothing_to_undo", _("No bust-out to undo."), rule="TRN-10", status_code=409)
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
    paid = [e for e in [*entries, *([winner] if winner else [])] if e.prize_transaction_id]
    if paid or not entries:
        raise DomainError(
            "cannot_undo",
            _("This bust-out cannot be undone: a prize of it is already paid, or a player re-entered."),
            rule="TRN-10",
            status_code=409,
        )
    if winner is not None:
        winner.finish_place = None
        if rules.deal_accepted_at is None:
            winner.prize_cents = None
        winner.save(update_fields=["finish_place", "prize_cents"])
    for entry in entries:
        if tournament.entries.filter(player=entry.player, status=EntryStatus.ACTIVE).exists():
            raise DomainError(
                "cannot_undo",
                _("%s has re-entered; the bust-out cannot be undone.") % entry.player.full_name,
                rule="TRN-10",
                status_code=409,
            )
        table = tournament.tables.filter(number=entry.bust_table_number, status="open").first()
        seat_free = (
            table is not None and not tournament.entries.filter(table=table, seat=entry.bust_seat).exists()
        )
        entry.status = EntryStatus.ACTIVE
        entry.finish_place = None
        entry.prize_cents = None if rules.deal_accepted_at is None else entry.prize_cents
        entry.busted_at = None
        entry.bust_number = None
        entry.table, entry.seat = (table, entry.bust_seat) if seat_free else (None, None)
        entry.save(
            update_fields=[
                "status",
                "finish_place",
                "prize_cents",
                "busted_at",
                "bust_number",
                "table",
                "seat",
            ]
        )
        if not seat_free and tournament.tables.exists():
            seating.seat_new_entry(actor=actor, tournament=tournament, entry=entry, now=now, rng=rng)
    rules.bust_sequence -= 1
    rules.save(update_fields=["bust_sequence"])
    audit_record(
        actor=actor,
        action="entry.bust_undo",
        obj=tournament,
        after={"entries": [e.number for e in entries], "winner_cleared": winner.number if winner else None},
        now=now,
    )
    return entries


def prize_pay(
    *, actor, entry: Entry, shift: Shift, idempotency_key: str, now: datetime | None = None
) -> Entry:
    """The cashier pays a finished player's prize in cash from the prize pool (TRN-10), with a
    receipt. Paying the same place twice is refused; the same key answers with the same result."""
    require_role(actor, *CASHIER_ROLES)
    now = now or timezone.now()
    done = Entry.objects.filter(prize_transaction__idempotency_key=idempotency_key).first()
    if done is not None:
        if done.pk != entry.pk:
            raise Conflict(
                "idempotency_key_reused",
                _("This idempotency key was already used. Use a new key."),
                rule="CAG-2",
            )
        return done
    with transaction.atomic():
        tournament = lock_tournament(entry.tournament_id)
        entry = Entry.objects.select_for_update(of=("self",)).select_related("player").get(pk=entry.pk)
        if entry.prize_transaction_id is not None:
            raise DomainError(
                "prize_already_paid",
                _("The prize of entry %(n)d (place %(place)s) was already paid.")
                % {"n": entry.number, "place": entry.finish_place},
                rule="TRN-10",
                status_code=409,
            )
        if not entry.prize_cents:
            raise DomainError(
                "no_prize_due", _("Entry %d has no prize due.") % entry.number, rule="TRN-10", status_code=409
            )
        record = prize_payout(
            actor=actor,
            shift=shift,
            player=entry.player,
            tournament_id=tournament.pk,
            amount_cents=entry.prize_cents,
            idempotency_key=idempotency_key,
            now=now,
        )
        if record.replayed:
            raise Conflict(
                "idempotency_key_reused",
                _("This idempotency key was already used. Use a new key."),
                rule="CAG-2",
            )
        entry.prize_transaction = record
        entry.save(update_fields=["prize_transaction"])
        audit_record(
            actor=actor,
            action="entry.prize_paid",
            obj=entry,
            after={
                "place": entry.finish_place,
                "amount_cents": entry.prize_cents,
                "receipt": record.receipt_number,
            },
            now=now,
        )
    return entry


def remaining_prize_cents(tournament: Tournament) -> int:
    """The prizes not yet given to a finished player: what a deal among the players left shares."""
    taken = sum(
        tournament.entries.filter(status=EntryStatus.BUSTED, prize_cents__isnull=False).values_list(
            "prize_cents", flat=True
        )
    )
    return sum(tournament.payout_places.values_list("amount_cents", flat=True)) - taken


@transaction.atomic
def deal_accept(
    *, actor, tournament: Tournament, amounts: dict[int, int], method: str, now: datetime | None = None
) -> list[Entry]:
    """The players left agree a deal (ICM or chip chop, or their own split) and the floor accepts
    it: each live entry's prize is fixed to its share, replacing the remaining payouts. The
    shares must cover exactly the prizes not yet given (TRN-10: nothing lost or invented)."""
    require_role(actor, *FLOOR_ROLES)
    now = now or timezone.now()
    tournament = lock_tournament(tournament.pk)
    rules = rules_for(tournament)
    if rules.payouts_finalised_at is None:
        raise DomainError(
            "payouts_not_final", _("Finalise the payouts before a deal."), rule="TRN-10", status_code=409
        )
    if rules.deal_accepted_at is not None:
        raise DomainError("deal_done", _("A deal was already accepted."), rule="TRN-10", status_code=409)
    live = {
        e.pk: e
        for e in tournament.entries.select_for_update(of=("self",))
        .filter(status=EntryStatus.ACTIVE)
        .order_by("pk")
    }
    if len(live) < 2 or set(amounts) != set(live):
        raise DomainError(
            "deal_players", _("A deal gives a share to every player left (2 or more)."), rule="TRN-10"
        )
    if any(not isinstance(a, int) or a < 0 for a in amounts.values()):
        raise DomainError("deal_amounts", _("Shares are whole cents, 0 or more."), rule="TRN-10")
    remaining = remaining_prize_cents(tournament)
    if sum(amounts.values()) != remaining:
        raise DomainError(
            "deal_sum",
            _("The shares add up to %(sum)d cents but %(remaining)d cents of prizes are left.")
            % {"sum": sum(amounts.values()), "remaining": remaining},
            rule="TRN-10",
        )
    for pk, entry in live.items():
        entry.prize_cents = amounts[pk]
    Entry.objects.bulk_update(live.values(), ["prize_cents"])
    rules.deal_accepted_at = now
    rules.save(update_fields=["deal_accepted_at"])
    audit_record(
        actor=actor,
        action="tournament.deal",
        obj=tournament,
        after={"method": method, "shares": {live[pk].number: a for pk, a in amounts.items()}},
        now=now,
    )
    return list(live.values())
