"""Corrections (CAG-1): a reversal posting names the posting it reverses and why; it is
requested by one person and approved by a different manager."""

from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.roles import CASHIER_ROLES, MANAGER_ROLES, require_role
from cardroom.services import audit_record
from cashier.models import Posting, ReversalRequest, ReversalStatus, ShiftStatus
from cashier.services.ledger import ledger_post


def _check_reversible(posting: Posting) -> None:
    if posting.reverses_id is not None:
        raise DomainError(
            "reversal_of_reversal", _("A reversal cannot be reversed; post a new transaction."), rule="CAG-1"
        )
    if Posting.objects.filter(reverses=posting).exists():
        raise DomainError(
            "already_reversed", _("This posting is already reversed."), rule="CAG-1", status_code=409
        )
    closed = posting.entries.filter(account__shift__status=ShiftStatus.CLOSED).exists()
    if closed:
        raise DomainError(
            "shift_closed",
            _(
                "The drawer of this posting's shift is closed and counted; "
                "its variance already holds the difference."
            ),
            rule="CAG-3",
        )


@transaction.atomic
def reversal_request(*, actor, posting: Posting, reason: str, now: datetime | None = None) -> ReversalRequest:
    require_role(actor, *CASHIER_ROLES, *MANAGER_ROLES)
    if not reason.strip():
        raise DomainError("reason_required", _("Say why the posting must be reversed."), rule="CAG-1")
    posting = Posting.objects.select_for_update(no_key=True).get(pk=posting.pk)
    _check_reversible(posting)
    now = now or timezone.now()
    try:
        with transaction.atomic():
            request = ReversalRequest.objects.create(
                posting=posting, reason=reason.strip(), requested_by=actor, requested_at=now
            )
    except IntegrityError:
        raise DomainError(
            "reversal_pending",
            _("A reversal of this posting is already waiting for approval."),
            rule="CAG-1",
            status_code=409,
        ) from None
    audit_record(
        actor=actor,
        action="reversal.request",
        obj=posting,
        after={"request": request.pk, "reason": request.reason},
        now=now,
    )
    return request


def _lock_pending(request: ReversalRequest, actor) -> ReversalRequest:
    require_role(actor, *MANAGER_ROLES)
    request = ReversalRequest.objects.select_for_update(no_key=True).get(pk=request.pk)
    if request.status != ReversalStatus.PENDING:
        raise DomainError(
            "already_decided", _("This reversal request is already decided."), rule="CAG-1", status_code=409
        )
    if request.requested_by_id == actor.pk:
        raise DomainError(
            "four_eyes",
            _("Another manager must approve a correction you asked for."),
            rule="CAG-1",
            status_code=403,
        )
    return request


@transaction.atomic
def reversal_approve(*, actor, request: ReversalRequest, now: datetime | None = None) -> Posting:
    """Post the mirror image of the original posting, naming it and the reason."""
    request = _lock_pending(request, actor)
    now = now or timezone.now()
    original = Posting.objects.select_for_update(no_key=True).get(pk=request.posting_id)
    _check_reversible(original)
    reversal = ledger_post(
        lines=[(entry.account, -entry.amount_cents) for entry in original.entries.select_related("account")],
        description=f"Reversal of posting {original.pk}",
        actor=actor,
        now=now,
        reverses=original,
        reason=request.reason,
    )
    request.status = ReversalStatus.APPROVED
    request.decided_by = actor
    request.decided_at = now
    request.reversal = reversal
    request.save()
    audit_record(
        actor=actor,
        action="reversal.approve",
        obj=original,
        after={"request": request.pk, "reversal_posting": reversal.pk},
        note=request.reason,
        now=now,
    )
    return reversal


@transaction.atomic
def reversal_reject(*, actor, request: ReversalRequest, now: datetime | None = None) -> ReversalRequest:
    request = _lock_pending(request, actor)
    now = now or timezone.now()
    request.status = ReversalStatus.REJECTED
    request.decided_by = actor
    request.decided_at = now
    request.save()
    audit_record(
        actor=actor, action="reversal.reject", obj=request.posting, after={"request": request.pk}, now=now
    )
    return request
