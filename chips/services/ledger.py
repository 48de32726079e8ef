"""The chip ledger's core (CHP-2): accounts and postings whose entries sum to zero per
denomination. Apart from the money ledger: chips are counted here, money is posted there."""

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial

from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.idempotency import run_once
from cardroom.services import audit_record
from chips.models import (
    CUSTODY_KINDS,
    ChipAccount,
    ChipAccountKind,
    ChipEntry,
    ChipPosting,
    ChipSet,
    Denomination,
)

RULE = "CHP-2"
# More chips than any room holds: a typo, not a count.
MAX_CHIPS = 1_000_000


@dataclass(frozen=True)
class ChipLine:
    account: ChipAccount
    denomination: Denomination
    quantity: int  # chips into (+) or out of (-) the account


def chip_account_for(*, chip_set: ChipSet, kind: str, table_key: str = "", label: str = "") -> ChipAccount:
    """The set's account of that kind (and table), created on first use (race-safe: unique)."""
    try:
        with transaction.atomic():
            account, _created = ChipAccount.objects.get_or_create(
                chip_set=chip_set, kind=kind, table_key=table_key, defaults={"label": label}
            )
    except IntegrityError:
        account = ChipAccount.objects.get(chip_set=chip_set, kind=kind, table_key=table_key)
    return account


def check_quantity(quantity) -> None:
    if not isinstance(quantity, int) or isinstance(quantity, bool) or not 0 <= quantity <= MAX_CHIPS:
        raise DomainError(
            "bad_chip_count",
            _("Chip counts are whole numbers from 0 to %(max)s.") % {"max": f"{MAX_CHIPS:,}"},
            rule=RULE,
        )


def chip_posting_post(
    *,
    actor,
    chip_set: ChipSet,
    kind: str,
    lines: Sequence[ChipLine],
    now: datetime,
    table_key: str = "",
    table_label: str = "",
    dealer_name: str = "",
    floor_name: str = "",
    note: str = "",
    request_key: str | None = None,
) -> ChipPosting:
    """Write one posting: per denomination its lines sum to zero, every account and chip is of
    `chip_set`, and the vault and the cage never hold fewer than no chips. The caller holds the
    transaction; the custody accounts are locked here, in primary-key order, while checked.

    A page's request key makes the form safe to send twice, also twice at once: the room's one
    mechanism (cardroom.idempotency) answers a repeat with the first posting."""
    post = partial(
        _posting_write,
        actor=actor,
        chip_set=chip_set,
        kind=kind,
        lines=[line for line in lines if line.quantity != 0],
        now=now,
        table_key=table_key,
        table_label=table_label,
        dealer_name=dealer_name,
        floor_name=floor_name,
        note=note,
    )
    if not request_key:
        return post()
    request = {
        "chip_set": chip_set.pk,
        "kind": kind,
        "table": table_key,
        "lines": sorted(
            (line.account.pk, line.denomination.pk, line.quantity) for line in lines if line.quantity
        ),
    }
    return run_once(
        key=request_key,
        operation="chips.posting",
        request=request,
        run=post,
        load=lambda pk: ChipPosting.objects.get(pk=pk),
        now=now,
    )


def _posting_write(
    *,
    actor,
    chip_set: ChipSet,
    kind: str,
    lines: list[ChipLine],
    now: datetime,
    table_key: str,
    table_label: str,
    dealer_name: str,
    floor_name: str,
    note: str,
) -> ChipPosting:
    if not lines:
        raise DomainError("empty_chip_posting", _("Enter at least one chip to move."), rule=RULE)
    sums: dict[int, int] = defaultdict(int)
    for line in lines:
        if line.account.chip_set_id != chip_set.pk or line.denomination.chip_set_id != chip_set.pk:
            raise DomainError(
                "other_chip_set", _("Cash-game and tournament chips never move in one posting."), rule=RULE
            )
        sums[line.denomination.pk] += line.quantity
    if any(sums.values()):
        raise DomainError("unbalanced_chips", _("Chips out and chips in differ."), rule=RULE)
    custody = sorted({line.account.pk for line in lines if line.account.kind in CUSTODY_KINDS})
    if custody:
        list(
            ChipAccount.objects.select_for_update(of=("self",), no_key=True)
            .filter(pk__in=custody)
            .order_by("pk")
        )
        held = {
            (row["account"], row["denomination"]): row["total"]
            for row in ChipEntry.objects.filter(account__in=custody)
            .values("account", "denomination")
            .annotate(total=Sum("quantity"))
        }
        for line in lines:
            if line.account.pk in custody and line.quantity < 0:
                have = held.get((line.account.pk, line.denomination.pk), 0)
                if have + line.quantity < 0:
                    raise DomainError(
                        "not_enough_chips",
                        _("%(account)s holds %(have)s chips of %(chip)s; %(asked)s cannot leave it.")
                        % {
                            "account": line.account,
                            "have": have,
                            "chip": line.denomination.value_text,
                            "asked": -line.quantity,
                        },
                        rule=RULE,
                    )
    return posting_insert(
        actor=actor,
        chip_set=chip_set,
        kind=kind,
        lines=lines,
        now=now,
        table_key=table_key,
        table_label=table_label,
        dealer_name=dealer_name,
        floor_name=floor_name,
        note=note,
    )


def posting_insert(
    *,
    actor,
    chip_set: ChipSet,
    kind: str,
    lines: list[ChipLine],
    now: datetime,
    table_key: str = "",
    table_label: str = "",
    dealer_name: str = "",
    floor_name: str = "",
    note: str = "",
    audited: bool = True,
) -> ChipPosting:
    """Insert a posting whose lines are checked (balanced per chip, of `chip_set`, custody
    accounts locked and holding enough): the posting, its entries in one statement, and its
    audit record unless the caller's own record covers it."""
    kinds = {
        sign: {line.account.kind for line in lines if (line.quantity > 0) == sign} for sign in (False, True)
    }
    if len(kinds[False]) != 1 or len(kinds[True]) != 1:
        raise DomainError(
            "one_way_posting", _("A posting moves chips from one place to one other."), rule=RULE
        )
    user = actor if actor is not None and getattr(actor, "is_authenticated", False) else None
    posting = ChipPosting.objects.create(
        venue_id=chip_set.venue_id,
        chip_set=chip_set,
        kind=kind,
        source_kind=kinds[False].pop(),
        target_kind=kinds[True].pop(),
        table_key=table_key,
        table_label=table_label[:80],
        dealer_name=dealer_name[:80],
        floor_name=floor_name[:80],
        note=note[:200],
        created_at=now,
        created_by=user,
    )
    ChipEntry.objects.bulk_create(
        [
            ChipEntry(
                venue_id=chip_set.venue_id,
                posting=posting,
                account=line.account,
                denomination=line.denomination,
                quantity=line.quantity,
            )
            for line in lines
        ]
    )
    if not audited:
        return posting
    # Codes and counts only: the trail shows them in the reader's language.
    audit_record(
        actor=actor,
        action=f"chips.{kind}",
        obj=posting,
        after={
            "kind": kind,
            "source_kind": posting.source_kind,
            "target_kind": posting.target_kind,
            "reference": table_key,
            "chips": {str(line.denomination.value): line.quantity for line in lines if line.quantity > 0},
        },
        now=now,
    )
    return posting


def account_kind_label(kind: str) -> str:
    return str(ChipAccountKind(kind).label)
