"""Shifts and drawers (CAG-3): open with a counted float, close with a count and a variance."""

import uuid
from datetime import datetime
from functools import partial

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.idempotency import run_once
from cardroom.money import MAX_CENTS, format_eur
from cardroom.roles import CASHIER_ROLES, MANAGER_ROLES, has_role, require_role
from cardroom.selectors import venue_get
from cardroom.services import audit_record, snapshot
from cashier.models import AccountKind, Shift, ShiftStatus
from cashier.selectors import drawer_expected
from cashier.services.ledger import account_for, ledger_post

SHIFT_FIELDS = [
    "status",
    "opening_float_cents",
    "expected_cents",
    "counted_cents",
    "variance_cents",
    "closed_at",
    "denominations",  # the blind count's pieces per note and coin, in the close's audit record
    "first_count_cents",
    "first_counted_at",
]


def count_total(*, counted_cents: int | None, denominations: dict | None) -> tuple[int, dict | None]:
    """The counted drawer from a total or from {denomination in cents: pieces}."""
    if denominations:
        clean: dict[str, int] = {}
        total = 0
        for denomination, pieces in denominations.items():
            try:
                value, count = int(denomination), int(pieces)
            except (TypeError, ValueError):
                raise DomainError(
                    "invalid_count", _("Denominations and pieces are whole numbers."), rule="CAG-3"
                ) from None
            if value <= 0 or count < 0 or value > MAX_CENTS or count > 1_000_000:
                raise DomainError("invalid_count", _("A denomination count is out of range."), rule="CAG-3")
            if count:
                clean[str(value)] = count
                total += value * count
        if counted_cents is not None and counted_cents != total:
            raise DomainError(
                "count_mismatch",
                _("The denominations add up to %(sum)s, not %(total)s.")
                % {"sum": format_eur(total), "total": format_eur(counted_cents)},
                rule="CAG-3",
            )
        return total, clean
    if counted_cents is None:
        raise DomainError(
            "count_required", _("Enter the counted total or the count by denomination."), rule="CAG-3"
        )
    if counted_cents < 0 or counted_cents > MAX_CENTS:
        raise DomainError("invalid_count", _("The counted amount cannot be negative."), rule="CAG-3")
    return counted_cents, None


@transaction.atomic
def shift_open(
    *,
    actor,
    opening_float_cents: int | None = None,
    denominations: dict | None = None,
    now: datetime | None = None,
) -> Shift:
    """Open the cashier's shift with the float he counted; the float comes out of the vault."""
    require_role(actor, *CASHIER_ROLES)
    now = now or timezone.now()
    float_cents, clean = count_total(counted_cents=opening_float_cents, denominations=denominations)
    if Shift.objects.filter(cashier=actor, status=ShiftStatus.OPEN).exists():
        raise DomainError(
            "shift_already_open",
            _("You already have an open shift: close it first."),
            rule="CAG-3",
            status_code=409,
        )
    drawer = account_for(kind=AccountKind.DRAWER, owner=f"drawer:{uuid.uuid4().hex[:16]}")
    try:
        with transaction.atomic():
            shift = Shift.objects.create(
                cashier=actor,
                opened_at=now,
                opening_float_cents=float_cents,
                drawer=drawer,
                denominations=clean,
            )
    except IntegrityError:
        raise DomainError(
            "shift_already_open",
            _("You already have an open shift: close it first."),
            rule="CAG-3",
            status_code=409,
        ) from None
    drawer.name = f"Drawer of shift {shift.pk} ({actor.get_username()})"
    drawer.save(update_fields=["name"])
    if float_cents:
        ledger_post(
            lines=[(drawer, float_cents), (account_for(kind=AccountKind.VAULT), -float_cents)],
            description=f"Opening float, shift {shift.pk}",
            actor=actor,
            now=now,
        )
    audit_record(actor=actor, action="shift.open", obj=shift, after=snapshot(shift, SHIFT_FIELDS), now=now)
    return shift


def shift_close(
    *,
    actor,
    shift: Shift,
    counted_cents: int | None = None,
    denominations: dict | None = None,
    idempotency_key: str | None = None,
    now: datetime | None = None,
) -> Shift:
    """Close with the counted drawer: record expected, counted and variance; the cash goes back
    to the vault and any difference to cash over/short, so the drawer ends at zero (CAG-3).

    A first count that differs from the expected amount by more than the venue's recount
    threshold closes nothing: it is recorded (on the shift and in the audit trail) and the
    shift stays open for one recount, which closes it whatever it finds. The answer is the shift,
    open (`recount_asked`) or closed. With the page's key a second tap of the same count is the
    same request, never the recount."""
    count = partial(
        _shift_count,
        actor=actor,
        shift=shift,
        counted_cents=counted_cents,
        denominations=denominations,
        now=now,
    )
    if not idempotency_key:
        with transaction.atomic():
            return count()
    return run_once(
        key=idempotency_key,
        operation="cashier.shift_count",
        request={"shift": shift.pk, "counted_cents": counted_cents, "denominations": denominations},
        run=count,
        load=lambda pk: Shift.objects.select_related("drawer").get(pk=pk),
        now=now,
    )


def _shift_count(
    *, actor, shift: Shift, counted_cents: int | None, denominations: dict | None, now: datetime | None
) -> Shift:
    require_role(actor, *CASHIER_ROLES, *MANAGER_ROLES)
    now = now or timezone.now()
    shift = (
        Shift.objects.select_for_update(of=("self",), no_key=True).select_related("drawer").get(pk=shift.pk)
    )
    if shift.cashier_id != actor.pk and not has_role(actor, *MANAGER_ROLES):
        raise DomainError(
            "not_your_shift", _("This is another cashier's shift."), rule="CAG-3", status_code=403
        )
    if shift.status != ShiftStatus.OPEN:
        raise DomainError("shift_closed", _("This shift is already closed."), rule="CAG-3", status_code=409)
    counted, clean = count_total(counted_cents=counted_cents, denominations=denominations)
    before = snapshot(shift, SHIFT_FIELDS)
    expected = drawer_expected(shift=shift)
    variance = counted - expected
    if abs(variance) > venue_get().recount_threshold_cents and shift.first_counted_at is None:
        shift.first_count_cents = counted
        shift.first_counted_at = now
        shift.save(update_fields=["first_count_cents", "first_counted_at"])
        audit_record(
            actor=actor,
            action="shift.recount_asked",
            obj=shift,
            before=before,
            after={
                **snapshot(shift, SHIFT_FIELDS),
                "expected_cents": expected,
                "variance_cents": variance,
                "denominations": clean,
            },
            now=now,
        )
        return shift
    if counted or expected:  # an empty drawer counted empty moves nothing
        ledger_post(
            lines=[
                (account_for(kind=AccountKind.VAULT), counted),
                (shift.drawer, -expected),
                (account_for(kind=AccountKind.CASH_VARIANCE), -variance),
            ],
            description=f"Close shift {shift.pk}: counted drawer to vault",
            actor=actor,
            now=now,
        )
    shift.status = ShiftStatus.CLOSED
    shift.closed_at = now
    shift.expected_cents = expected
    shift.counted_cents = counted
    shift.variance_cents = variance
    if clean is not None:
        shift.denominations = clean
    shift.save()
    audit_record(
        actor=actor,
        action="shift.close",
        obj=shift,
        before=before,
        after=snapshot(shift, SHIFT_FIELDS),
        now=now,
    )
    return shift


@transaction.atomic
def shift_handover(
    *,
    actor,
    shift: Shift,
    to_cashier,
    counted_cents: int | None = None,
    denominations: dict | None = None,
    now: datetime | None = None,
) -> Shift:
    """Hand the drawer to another cashier: close this shift with the count, and open the
    receiving cashier's shift with exactly the counted cash as its float. A count the venue's
    threshold sends back for a recount hands nothing over: the answer is this shift, still open."""
    now = now or timezone.now()
    if to_cashier.pk == actor.pk or not has_role(to_cashier, *CASHIER_ROLES):
        raise DomainError("invalid_handover", _("Hand the drawer over to another cashier."), rule="CAG-3")
    closed = shift_close(
        actor=actor, shift=shift, counted_cents=counted_cents, denominations=denominations, now=now
    )
    if closed.recount_asked:
        return closed  # counted too far off: counted again before anything is handed over (CAG-3)
    new_shift = shift_open(actor=to_cashier, opening_float_cents=closed.counted_cents, now=now)
    closed.handed_over_to = new_shift
    closed.save(update_fields=["handed_over_to"])
    audit_record(
        actor=actor,
        action="shift.handover",
        obj=closed,
        after={
            "to_shift": new_shift.pk,
            "to_cashier": to_cashier.get_username(),
            "cash_cents": closed.counted_cents,
        },
        now=now,
    )
    return new_shift
