"""Prizes paid at the cashier (TRN-10), and deals (ICM, chip chop) at the final table."""

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import Conflict, DomainError
from cardroom.roles import CASHIER_ROLES, FLOOR_ROLES, require_role
from cardroom.services import audit_record
from cashier.models import Shift
from cashier.services import prize_payout
from tournaments.models import Entry, EntryStatus, Tournament
from tournaments.services._common import lock_tournament, rules_for


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
        entry = (
            Entry.objects.select_for_update(of=("self",))
            .select_related("player", "prize_transaction")
            .get(pk=entry.pk)
        )
        if (
            entry.prize_transaction_id is not None
            and entry.prize_transaction.idempotency_key == idempotency_key
        ):
            # A retry that waited on the lock behind its first request: answer with its result.
            return entry
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
