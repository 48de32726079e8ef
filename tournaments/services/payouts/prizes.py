"""Prizes paid at the cashier (TRN-10)."""

from datetime import datetime
from functools import partial

from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.idempotency import run_once
from cardroom.roles import CASHIER_ROLES, require_role
from cardroom.services import audit_record
from cashier.models import Shift, TransactionKind
from cashier.services import ticket_prize_payout, tournament_payout
from tournaments.models import Entry, Tournament
from tournaments.services import tickets
from tournaments.services._common import lock_tournament


def is_seat(tournament: Tournament, entry: Entry) -> bool:
    """The entry's place is a satellite's seat (SER-1): paid as a ticket, not cash."""
    return (
        tournament.is_satellite
        and entry.finish_place is not None
        and tournament.payout_places.filter(place=entry.finish_place, seat=True).exists()
    )


def prize_pay(
    *, actor, entry: Entry, shift: Shift, idempotency_key: str, now: datetime | None = None
) -> Entry:
    """The cashier pays a finished player's prize in cash from the prize pool (TRN-10), with a
    receipt; a satellite's seat is paid as a ticket to the target instead (SER-1). Paying the
    same place twice is refused; the same key answers with the same result."""
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
        seat = is_seat(tournament, locked)
        pay_out = (
            ticket_prize_payout if seat else partial(tournament_payout, kind=TransactionKind.PRIZE_PAYOUT)
        )
        record = pay_out(
            actor=actor,
            shift=shift,
            player=locked.player,
            tournament_id=tournament.pk,
            amount_cents=locked.prize_cents,
            idempotency_key=idempotency_key,
            now=now,
        )
        locked.prize_transaction = record
        locked.save(update_fields=["prize_transaction"])
        if seat:
            tickets.satellite_ticket_issue(actor=actor, entry=locked, record=record, now=now)
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
