"""Prizes paid at the cashier (TRN-10)."""

from datetime import datetime

from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.idempotency import run_once
from cardroom.roles import CASHIER_ROLES, require_role
from cardroom.services import audit_record
from cashier.models import Shift, TransactionKind
from cashier.services import tournament_payout
from tournaments.models import Entry
from tournaments.services._common import lock_tournament


def prize_pay(
    *, actor, entry: Entry, shift: Shift, idempotency_key: str, now: datetime | None = None
) -> Entry:
    """The cashier pays a finished player's prize in cash from the prize pool (TRN-10), with a
    receipt. Paying the same place twice is refused; the same key answers with the same result."""
    require_role(actor, *CASHIER_ROLES)
    now = now or timezone.now()

    def pay() -> Entry:
        tournament = lock_tournament(entry.tournament_id)
        locked = Entry.objects.select_for_update(of=("self",)).select_related("player").get(pk=entry.pk)
        if locked.prize_transaction_id is not None:
            raise DomainError(
                "prize_already_paid",
                _("The prize of entry %(n)d (place %(place)s) was already paid.")
                % {"n": locked.number, "place": locked.finish_place},
                rule="TRN-10",
                status_code=409,
            )
        if not locked.prize_cents:
            raise DomainError(
                "no_prize_due",
                _("Entry %d has no prize due.") % locked.number,
                rule="TRN-10",
                status_code=409,
            )
        record = tournament_payout(
            actor=actor,
            shift=shift,
            kind=TransactionKind.PRIZE_PAYOUT,
            player=locked.player,
            tournament_id=tournament.pk,
            amount_cents=locked.prize_cents,
            idempotency_key=idempotency_key,
            now=now,
        )
        locked.prize_transaction = record
        locked.save(update_fields=["prize_transaction"])
        audit_record(
            actor=actor,
            action="entry.prize_paid",
            obj=locked,
            after={
                "place": locked.finish_place,
                "amount_cents": locked.prize_cents,
                "receipt": record.receipt_number,
            },
            now=now,
        )
        return locked

    return run_once(
        key=idempotency_key,
        operation="tournaments.prize_pay",
        request={"shift": shift.pk, "entry": entry.pk},
        run=pay,
        load=lambda pk: Entry.objects.get(pk=pk),
        now=now,
    )
