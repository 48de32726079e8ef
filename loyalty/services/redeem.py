"""Comps bought with points (LOY-1), at the cage or the floor: a food and drink voucher (Dr
loyalty points outstanding, Cr comps payable to the bar) or a tournament ticket (SER-1: Dr
points outstanding, Cr tickets outstanding). The points a comp costs are its value at today's
point value, exactly; the lots they come from (oldest first) carry the worth booked when they
were earned, and any difference is loyalty expense. Refused with nothing written: more points
than the balance, an erased player, a value that is not a positive amount or costs no whole
number of points."""

from datetime import datetime
from functools import partial

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.idempotency import run_once
from cardroom.money import format_eur, parse_cents, require_positive
from cardroom.roles import PLAYER_DESK_ROLES, require_role
from cardroom.services import audit_record
from cashier.models import AccountKind
from cashier.services import account_for, ledger_post
from loyalty.models import Movement, MovementKind
from loyalty.selectors import balance_of, points_for_value, settings_get
from loyalty.services._common import lots_take, member_lock, refuse
from players.models import Player
from tournaments.models import Tournament
from tournaments.services.tickets import loyalty_ticket_issue


def voucher_value_parse(value: str | int) -> int:
    """A voucher's value in cents: typed text ("12,50", "1,500" EUR) read by the one money parser,
    or whole cents from the API; the LOY-1 refusal for anything else."""
    field = _("Voucher value")
    try:
        if isinstance(value, int) and not isinstance(value, bool):
            return require_positive(value, field=field)
        if not isinstance(value, str):
            raise DomainError("invalid_amount", _("%(field)s is not an amount.") % {"field": field})
        return require_positive(parse_cents(value, field=field), field=field)
    except DomainError as error:
        raise refuse("invalid_value", error.message) from error


def loyalty_redeem(
    *,
    actor,
    player: Player,
    voucher_value: str | int | None = None,
    tournament: Tournament | None = None,
    note: str = "",
    idempotency_key: str | None = None,
    now: datetime | None = None,
) -> Movement:
    """Redeem points for a voucher (`voucher_value`: typed EUR text, or int cents) or a ticket to
    `tournament`, once per key."""
    run = partial(
        _redeem,
        actor=actor,
        player=player,
        voucher_value=voucher_value,
        tournament=tournament,
        note=note,
        now=now,
    )
    if not idempotency_key:
        with transaction.atomic():
            return run()
    return run_once(
        key=idempotency_key,
        operation="loyalty.redeem",
        request={
            "player": player.pk,
            "voucher": str(voucher_value) if voucher_value is not None else None,
            "tournament": tournament.pk if tournament else None,
        },
        run=run,
        load=lambda pk: Movement.objects.get(pk=pk),
        now=now,
    )


def _redeem(*, actor, player, voucher_value, tournament, note: str, now) -> Movement:
    require_role(actor, *PLAYER_DESK_ROLES)
    now = now or timezone.now()
    if (voucher_value is None) == (tournament is None):
        raise refuse("comp_kind", _("Choose a voucher with its value, or a tournament ticket."))
    if player.is_erased:
        raise refuse(
            "player_erased", _("This player's data was erased: his points can no longer be used."), 409
        )
    value = voucher_value_parse(voucher_value) if tournament is None else tournament.buy_in_cents
    member_lock(player.pk)
    terms = settings_get()
    needed = points_for_value(value_cents=value, terms=terms)
    if needed is None:
        raise refuse(
            "value_not_whole_points",
            _("%(value)s is not a whole number of points at the point's value: choose another value.")
            % {"value": format_eur(value)},
        )
    before, _worth = balance_of(player_id=player.pk)
    if needed > before:
        raise refuse(
            "not_enough_points",
            _("%(value)s costs %(needed)d points; the player has %(points)d.")
            % {"value": format_eur(value), "needed": needed, "points": before},
            409,
        )
    taken = lots_take(player_id=player.pk, points=needed)
    ticket = posting = None
    if tournament is None:
        kind = MovementKind.VOUCHER
        description = f"Food and drink voucher {format_eur(value)} for loyalty points"
        posting = ledger_post(
            lines=[
                (account_for(kind=AccountKind.LOYALTY_LIABILITY), taken.value_cents),
                (account_for(kind=AccountKind.LOYALTY_EXPENSE), value - taken.value_cents),
                (account_for(kind=AccountKind.COMPS_PAYABLE), -value),
            ],
            description=description,
            actor=actor,
            now=now,
        )
    else:
        kind = MovementKind.TICKET
        ticket, posting = loyalty_ticket_issue(
            actor=actor, tournament=tournament, player=player, liability_cents=taken.value_cents, now=now
        )
        description = f"Ticket for {tournament.name} for loyalty points"
    movement = Movement.objects.create(
        player=player,
        kind=kind,
        at=now,
        points=-needed,
        value_cents=-value,
        balance_after=before - needed,
        description=description[:200],
        ticket=ticket,
        posting=posting,
        actor=actor,
    )
    audit_record(
        actor=actor,
        action="loyalty.redeem",
        obj=movement,
        before={"points": before},
        after={
            "points": before - needed,
            "comp": kind,
            "value_cents": value,
            "liability_cents": taken.value_cents,
            "ticket": ticket.pk if ticket else None,
        },
        note=note,
        now=now,
    )
    return movement
