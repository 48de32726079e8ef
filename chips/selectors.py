"""Reads of the chip inventory (CHP-2). Never writes."""

from collections import defaultdict
from dataclasses import dataclass

from django.db import transaction
from django.db.models import F, Sum

from cardroom.money import format_chips, format_eur
from cardroom.venues import venue_id_current
from chips.models import (
    ChipAccount,
    ChipAccountKind,
    ChipCount,
    ChipEntry,
    ChipPosting,
    ChipSet,
    ChipSetKind,
    Denomination,
)

# The order the inventory lists accounts in.
KIND_ORDER = [
    ChipAccountKind.VAULT,
    ChipAccountKind.CAGE,
    ChipAccountKind.TRAY,
    ChipAccountKind.HANDS,
    ChipAccountKind.IN_SERVICE,
]


def account_balance(*, account: ChipAccount) -> dict[int, int]:
    """Denomination id -> chips the account holds."""
    rows = ChipEntry.objects.filter(account=account).values("denomination").annotate(total=Sum("quantity"))
    return {row["denomination"]: row["total"] for row in rows}


@dataclass(frozen=True)
class CashChips:
    """The cash-game set, its chips by value and its cage and players' hands accounts."""

    chip_set: ChipSet
    chips: dict[int, Denomination]
    cage: ChipAccount | None
    hands: ChipAccount | None

    @property
    def smallest(self) -> int:
        return min(self.chips) if self.chips else 0


# The set, its chips and its accounts change only with a migration: each process remembers them
# once both accounts exist (the cage's comes with the first chips brought to it, the players' with
# the first sale), and only once the transaction that read them commits, so a row of a transaction
# that rolls back is never kept. Tests clear it between tests.
# The cash-game chips of each venue (by its key).
_cache: dict[int, CashChips] = {}


def cash_chips_cache_clear() -> None:
    _cache.clear()


def cash_chips_get() -> CashChips | None:
    """The room's cash-game chips, or None when the room has no cash-game set."""
    known = _cache.get(venue_id_current())
    if known is not None:
        return known
    chip_set = (
        ChipSet.all_venues.filter(venue_id=venue_id_current(), kind=ChipSetKind.CASH).order_by("pk").first()
    )
    if chip_set is None:
        return None
    chips = {chip.value: chip for chip in chip_set.denominations.all()}
    accounts = {
        account.kind: account
        for account in ChipAccount.objects.filter(
            chip_set=chip_set, kind__in=[ChipAccountKind.CAGE, ChipAccountKind.HANDS], table_key=""
        )
    }
    found = CashChips(
        chip_set=chip_set,
        chips=chips,
        cage=accounts.get(ChipAccountKind.CAGE),
        hands=accounts.get(ChipAccountKind.HANDS),
    )
    cash_chips_remember(found)
    return found


def cash_chips_remember(cash: CashChips) -> None:
    """Keep the cash-game chips for this process once both accounts exist and this transaction
    commits."""
    if cash.cage is not None and cash.hands is not None:
        transaction.on_commit(lambda: _cache.setdefault(cash.chip_set.venue_id, cash))


def chips_held(account: ChipAccount | None) -> dict[int, int]:
    """Denomination id -> chips the account holds, in one statement ({} for no account)."""
    return account_balance(account=account) if account is not None else {}


def cash_chips_worth(*, cash: CashChips, held: dict[int, int]) -> int:
    """What chips held ({denomination id: chips}) are worth in cents, counting no chip below 0."""
    return sum(value * max(held.get(chip.pk, 0), 0) for value, chip in cash.chips.items())


def cash_chips_in_cage() -> int:
    """What the cage's cash-game chips are worth, in cents (one statement)."""
    worth = ChipEntry.objects.filter(
        account__kind=ChipAccountKind.CAGE, account__chip_set__kind=ChipSetKind.CASH
    ).aggregate(worth=Sum(F("quantity") * F("denomination__value")))["worth"]
    return worth or 0


def chip_set_default(*, kind: str) -> ChipSet | None:
    """The set a table or tournament plays with when none is named: the first of its kind."""
    return ChipSet.objects.filter(kind=kind).order_by("pk").first()


def chip_sets_list() -> list[ChipSet]:
    return list(ChipSet.objects.prefetch_related("denominations").order_by("kind", "pk"))


def chip_inventory_get(*, chip_set: ChipSet) -> dict:
    """Every account of the set with its chips per denomination and their worth; the set's
    total in service. Three queries."""
    chips = list(chip_set.denominations.order_by("value"))
    accounts = sorted(
        ChipAccount.objects.filter(chip_set=chip_set),
        key=lambda account: (KIND_ORDER.index(account.kind), account.label, account.pk),
    )
    totals: dict[int, dict[int, int]] = defaultdict(dict)
    for row in (
        ChipEntry.objects.filter(account__chip_set=chip_set)
        .values("account", "denomination")
        .annotate(total=Sum("quantity"))
    ):
        totals[row["account"]][row["denomination"]] = row["total"]
    rows = []
    for account in accounts:
        held = totals.get(account.pk, {})
        sign = -1 if account.kind == ChipAccountKind.IN_SERVICE else 1
        counts = [sign * held.get(chip.pk, 0) for chip in chips]
        worth = sum(count * chip.value for count, chip in zip(counts, chips, strict=True))
        rows.append(
            {"account": account, "counts": counts, "worth": worth, "worth_text": _worth(chip_set, worth)}
        )
    return {"chip_set": chip_set, "chips": chips, "rows": rows}


def _worth(chip_set: ChipSet, value: int) -> str:
    return format_eur(value) if chip_set.kind == ChipSetKind.CASH else format_chips(value)


def chip_slips_list(*, chip_set: ChipSet, limit: int = 20) -> list[ChipPosting]:
    return list(
        ChipPosting.objects.filter(chip_set=chip_set)
        .select_related("created_by")
        .order_by("-created_at", "-pk")[:limit]
    )


def chip_posting_get(*, pk: int) -> dict:
    """A posting as its slip shows it: per denomination the chips and their worth, and the total."""
    posting = ChipPosting.objects.select_related("chip_set", "created_by").get(pk=pk)
    entries = posting.entries.select_related("denomination", "account").order_by("denomination__value")
    lines = []
    total = 0
    for entry in entries:
        if entry.quantity > 0:
            worth = entry.quantity * entry.denomination.value
            total += worth
            lines.append(
                {
                    "chip": entry.denomination,
                    "quantity": entry.quantity,
                    "worth_text": _worth(posting.chip_set, worth),
                    "to": entry.account,
                }
            )
    return {
        "posting": posting,
        "lines": lines,
        "total_text": _worth(posting.chip_set, total),
        "chips": sum(line["quantity"] for line in lines),
        "sources": list(
            {entry.account.pk: entry.account for entry in entries if entry.quantity < 0}.values()
        ),
        "targets": list(
            {entry.account.pk: entry.account for entry in entries if entry.quantity > 0}.values()
        ),
    }


def chip_counts_list(*, chip_set: ChipSet, limit: int = 10) -> list[ChipCount]:
    return list(
        ChipCount.objects.filter(account__chip_set=chip_set)
        .select_related("account", "counted_by")
        .order_by("-counted_at", "-pk")[:limit]
    )


def chip_count_get(*, pk: int) -> dict:
    count = ChipCount.objects.select_related("account__chip_set", "counted_by").get(pk=pk)
    chip_set = count.account.chip_set
    lines = []
    for line in count.lines.select_related("denomination").order_by("denomination__value"):
        lines.append(
            {
                "chip": line.denomination,
                "expected": line.expected,
                "counted": line.counted,
                "difference": line.difference,
                "difference_worth_text": _worth(chip_set, line.difference * line.denomination.value),
            }
        )
    return {"count": count, "lines": lines, "differs": any(line["difference"] for line in lines)}
