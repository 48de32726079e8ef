"""The double-entry core (CAG-1): accounts and balanced, append-only postings."""

from collections.abc import Sequence
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.money import MAX_CENTS
from cardroom.selectors import gaming_day_of
from cardroom.venues import venue_activate, venue_by_pk, venue_id_current
from cashier.models import Account, AccountKind, Entry, Posting
from cashier.services.days import ledger_day_reopen

ACCOUNT_NAMES = {
    AccountKind.VAULT: "Vault",
    AccountKind.CARD_CLEARING: "Card payments clearing",
    AccountKind.CASH_VARIANCE: "Cash over / short",
    AccountKind.TOURNAMENT_FEES: "Tournament fee revenue",
    AccountKind.RAKE_REVENUE: "Rake revenue",
    AccountKind.JACKPOT_FUND: "Jackpot fund",
    AccountKind.OVERLAY_EXPENSE: "Guarantee overlay expense",
    AccountKind.REFUNDS_PAYABLE: "Refunds payable",
    AccountKind.TICKETS_OUTSTANDING: "Tournament tickets outstanding",
    AccountKind.PROMOTION_EXPENSE: "Promotion expense",
    AccountKind.TICKETS_EXPIRED: "Expired tickets income",
    AccountKind.LOYALTY_LIABILITY: "Loyalty points outstanding",
    AccountKind.LOYALTY_EXPENSE: "Loyalty expense",
    AccountKind.COMPS_PAYABLE: "Food and drink comps payable",
}


# Accounts are never deleted or re-keyed, so each process remembers the ones it has used: a money
# request then reads no account row. (Tests clear it between tests.)
_accounts: dict[tuple[int, str, str], Account] = {}


def account_for(*, kind: str, owner: str = "") -> Account:
    """The active venue's account of a kind and owner (each venue keeps its own books, VEN-1),
    created on first use (race-safe: unique constraint)."""
    venue_id = venue_id_current()
    key = (venue_id, kind, owner)
    account = _accounts.get(key)
    if account is None:
        name = ACCOUNT_NAMES.get(kind) or f"{AccountKind(kind).label} {owner}".strip()
        account, _created = Account.all_venues.get_or_create(
            venue_id=venue_id, kind=kind, owner=owner, defaults={"name": name}
        )
        # Remembered only once committed: a row of a transaction that rolls back is never kept.
        transaction.on_commit(lambda: _accounts.setdefault(key, account))
    return account


def account_cache_clear() -> None:
    _accounts.clear()


Line = tuple[Account, int]


def ledger_post(
    *,
    lines: Sequence[Line],
    description: str,
    actor=None,
    now: datetime | None = None,
    reverses: Posting | None = None,
    reason: str = "",
) -> Posting:
    """Write one balanced posting. Zero lines are dropped; the rest must sum to zero (CAG-1).

    On PostgreSQL a deferred constraint trigger checks the balance again at commit, so not even
    a raw INSERT outside this function can leave an unbalanced posting behind.
    """
    lines = [(account, amount) for account, amount in lines if amount != 0]
    if len(lines) < 2:
        raise DomainError("empty_posting", _("A posting needs at least two non-zero lines."), rule="CAG-1")
    for _account, amount in lines:
        if not isinstance(amount, int) or isinstance(amount, bool) or abs(amount) > MAX_CENTS:
            raise DomainError("invalid_amount", _("Ledger amounts are whole cents."), rule="CAG-1")
    if sum(amount for _account, amount in lines) != 0:
        raise DomainError("unbalanced_posting", _("Debits and credits differ."), rule="CAG-1")
    # Each venue keeps its own books: money never moves between venues inside one posting.
    venue_ids = {account.venue_id for account, _amount in lines}
    if len(venue_ids) != 1:
        raise DomainError(
            "posting_across_venues", _("A posting moves money within one venue only."), rule="VEN-1"
        )
    (venue_id,) = venue_ids
    now = now or timezone.now()
    user = actor if actor is not None and getattr(actor, "is_authenticated", False) else None
    posting = Posting(
        venue_id=venue_id,
        created_at=now,
        created_by=user,
        description=description[:200],
        reverses=reverses,
        reason=reason,
    )
    with transaction.atomic(savepoint=False):  # joins the caller's transaction: no savepoint
        posting.save(force_insert=True)
        Entry.objects.bulk_create(
            [
                Entry(
                    venue_id=venue_id, posting=posting, account=account, amount_cents=amount, created_at=now
                )
                for account, amount in lines
            ]
        )
        # Dated into an ended gaming day of the posting's venue (its own day boundary, VEN-1):
        # that venue's totals of the day are summed again once it closes anew.
        venue = venue_by_pk(venue_id)
        day = gaming_day_of(now, venue=venue)
        if day < gaming_day_of(timezone.now(), venue=venue):
            with venue_activate(venue_id):
                ledger_day_reopen(day=day)
    return posting
