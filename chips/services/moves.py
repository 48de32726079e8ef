"""What the cage does with chips (CHP-2): bring chips into service, move them between the
vault, the cage and the players, fill and credit a table's tray (a slip the dealer and the floor
sign), and count an account at a shift's end. Only cashiers post chips (ROL-1); each movement is
one posting and one audit record."""

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import partial

from django.db import transaction
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.idempotency import run_once
from cardroom.roles import CASHIER_ROLES, require_role
from cardroom.services import audit_record
from chips.models import (
    ChipAccount,
    ChipAccountKind,
    ChipCount,
    ChipCountLine,
    ChipPosting,
    ChipPostingKind,
    ChipSet,
    ChipSetKind,
    Denomination,
)
from chips.selectors import account_balance
from chips.services.ledger import RULE, ChipLine, check_quantity, chip_account_for, chip_posting_post

# Chip value -> number of chips.
Chips = Mapping[int, int]

# Where a transfer may go: (from, to) -> the posting's kind.
TRANSFERS = {
    (ChipAccountKind.VAULT, ChipAccountKind.CAGE): ChipPostingKind.TRANSFER,
    (ChipAccountKind.CAGE, ChipAccountKind.VAULT): ChipPostingKind.TRANSFER,
    (ChipAccountKind.CAGE, ChipAccountKind.HANDS): ChipPostingKind.SALE,
    (ChipAccountKind.HANDS, ChipAccountKind.CAGE): ChipPostingKind.REDEMPTION,
}


@dataclass(frozen=True)
class TableRef:
    """A table as its game sees it, locked by the caller: its key ("cash:3", "tournament:12"),
    its name on the slip, whether it is open and the chip set it plays with."""

    key: str
    label: str
    is_open: bool
    chip_set: ChipSet


def _denominations(chip_set: ChipSet) -> dict[int, Denomination]:
    return {chip.value: chip for chip in chip_set.denominations.all()}


def _lines(chip_set: ChipSet, chips: Chips, source: ChipAccount, target: ChipAccount) -> list[ChipLine]:
    known = _denominations(chip_set)
    lines = []
    for value, quantity in chips.items():
        check_quantity(quantity)
        if value not in known:
            raise DomainError(
                "unknown_chip",
                _("%(set)s has no chip of %(value)s.") % {"set": chip_set, "value": value},
                rule=RULE,
            )
        if quantity:
            lines += [ChipLine(source, known[value], -quantity), ChipLine(target, known[value], quantity)]
    return lines


@transaction.atomic
def chips_receive(
    *, actor, chip_set: ChipSet, chips: Chips, now: datetime, note: str = "", request_key: str | None = None
) -> ChipPosting:
    """New chips brought into service, into the vault."""
    require_role(actor, *CASHIER_ROLES)
    source = chip_account_for(chip_set=chip_set, kind=ChipAccountKind.IN_SERVICE)
    vault = chip_account_for(chip_set=chip_set, kind=ChipAccountKind.VAULT)
    return chip_posting_post(
        actor=actor,
        chip_set=chip_set,
        kind=ChipPostingKind.RECEIVE,
        lines=_lines(chip_set, chips, source, vault),
        now=now,
        note=note,
        request_key=request_key,
    )


@transaction.atomic
def chips_transfer(
    *,
    actor,
    chip_set: ChipSet,
    source: str,
    target: str,
    chips: Chips,
    now: datetime,
    note: str = "",
    request_key: str | None = None,
) -> ChipPosting:
    """Vault to cage and back; chips sold to players and redeemed at the cage."""
    require_role(actor, *CASHIER_ROLES)
    kind = TRANSFERS.get((source, target))
    if kind is None:
        raise DomainError("bad_transfer", _("Chips cannot move that way."), rule=RULE)
    if chip_set.kind == ChipSetKind.CASH and ChipAccountKind.HANDS in (source, target):
        # They move with the money (chips.services.cash): a move without it would part the two.
        raise DomainError(
            "chips_follow_cash",
            _(
                "Cash-game chips reach the players with a buy-in or top-up at the cage and come "
                "back with a cash-out, together with the money."
            ),
            rule=RULE,
        )
    return chip_posting_post(
        actor=actor,
        chip_set=chip_set,
        kind=kind,
        lines=_lines(
            chip_set,
            chips,
            chip_account_for(chip_set=chip_set, kind=source),
            chip_account_for(chip_set=chip_set, kind=target),
        ),
        now=now,
        note=note,
        request_key=request_key,
    )


def _tray(table: TableRef) -> ChipAccount:
    return chip_account_for(
        chip_set=table.chip_set, kind=ChipAccountKind.TRAY, table_key=table.key, label=table.label
    )


@transaction.atomic
def table_fill(
    *,
    actor,
    table: TableRef,
    chips: Chips,
    dealer_name: str,
    floor_name: str,
    now: datetime,
    request_key: str | None = None,
) -> ChipPosting:
    """Chips from the cage to a table's tray: a slip signed by the dealer and the floor. A table
    that is closed gets no fill."""
    require_role(actor, *CASHIER_ROLES)
    if not table.is_open:
        raise DomainError(
            "table_closed",
            _("%(table)s is closed: a closed table gets no fill. Open it first.") % {"table": table.label},
            rule=RULE,
        )
    return _slip(actor, table, chips, dealer_name, floor_name, now, ChipPostingKind.FILL, request_key)


@transaction.atomic
def table_credit(
    *,
    actor,
    table: TableRef,
    chips: Chips,
    dealer_name: str,
    floor_name: str,
    now: datetime,
    request_key: str | None = None,
) -> ChipPosting:
    """Chips from a table's tray back to the cage (also when the table closes)."""
    require_role(actor, *CASHIER_ROLES)
    return _slip(actor, table, chips, dealer_name, floor_name, now, ChipPostingKind.CREDIT, request_key)


def _slip(actor, table, chips, dealer_name, floor_name, now, kind, request_key=None) -> ChipPosting:
    if not dealer_name.strip() or not floor_name.strip():
        raise DomainError("slip_unsigned", _("A slip names the dealer and the floor who sign it."), rule=RULE)
    cage = chip_account_for(chip_set=table.chip_set, kind=ChipAccountKind.CAGE)
    tray = _tray(table)
    source, target = (cage, tray) if kind == ChipPostingKind.FILL else (tray, cage)
    return chip_posting_post(
        actor=actor,
        chip_set=table.chip_set,
        kind=kind,
        lines=_lines(table.chip_set, chips, source, target),
        now=now,
        table_key=table.key,
        table_label=table.label,
        dealer_name=dealer_name.strip(),
        floor_name=floor_name.strip(),
        request_key=request_key,
    )


@transaction.atomic
def chip_count_record(
    *,
    actor,
    account: ChipAccount,
    counted: Chips,
    now: datetime,
    note: str = "",
    request_key: str | None = None,
) -> ChipCount:
    """A count by denomination (every chip of the set, 0 included) against what the ledger says
    the account holds. Each difference is reported; nothing is posted. A negative count is
    refused. With the page's request key, the form sent twice records one count (CAG-2)."""
    require_role(actor, *CASHIER_ROLES)
    record = partial(_count_write, actor=actor, account=account, counted=counted, now=now, note=note)
    if not request_key:
        return record()
    return run_once(
        key=request_key,
        operation="chips.count",
        request={"account": account.pk, "counted": sorted(counted.items()), "note": note},
        run=record,
        load=lambda pk: ChipCount.objects.get(pk=pk),
        now=now,
    )


def _count_write(*, actor, account: ChipAccount, counted: Chips, now: datetime, note: str) -> ChipCount:
    known = _denominations(account.chip_set)
    for value, quantity in counted.items():
        if isinstance(quantity, int) and not isinstance(quantity, bool) and quantity < 0:
            raise DomainError(
                "negative_count",
                _("A count cannot be negative (%(value)s: %(quantity)s chips).")
                % {"value": known[value].value_text if value in known else value, "quantity": quantity},
                rule=RULE,
            )
        check_quantity(quantity)
    missing = sorted(set(known) - set(counted))
    if missing or set(counted) - set(known):
        raise DomainError(
            "count_incomplete", _("Count every chip of the set, writing 0 for none."), rule=RULE
        )
    ChipAccount.objects.select_for_update(of=("self",), no_key=True).get(pk=account.pk)
    held = account_balance(account=account)
    user = actor if actor is not None and getattr(actor, "is_authenticated", False) else None
    count = ChipCount.objects.create(account=account, counted_at=now, counted_by=user, note=note[:200])
    lines = ChipCountLine.objects.bulk_create(
        [
            ChipCountLine(
                count=count, denomination=chip, expected=held.get(chip.pk, 0), counted=counted[value]
            )
            for value, chip in sorted(known.items())
        ]
    )
    audit_record(
        actor=actor,
        action="chips.count",
        obj=count,
        after={
            "reference": f"{account.kind}:{account.table_key}" if account.table_key else account.kind,
            "chips": {str(line.denomination.value): line.counted for line in lines},
            "differences": {
                str(line.denomination.value): line.difference for line in lines if line.difference
            },
        },
        now=now,
    )
    return count
