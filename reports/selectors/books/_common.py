"""What the books' checks share (checks.py: the ledger, the cage and the cash games;
tournaments.py: prize pools, entries and tickets): the check itself, the sums they read and the
tournament's ledger owner."""

from dataclasses import dataclass

from django.db.models import Sum

from tournaments.models import Tournament


@dataclass(frozen=True)
class BookCheck:
    """One reconciliation: the records' figure against the ledger's (cents, or a count)."""

    name: str
    expected: int
    actual: int
    unit: str = "cents"
    venue: str = ""  # the venue's name; empty: the operator's books (every venue together)

    @property
    def ok(self) -> bool:
        return self.expected == self.actual

    @property
    def difference(self) -> int:
        return self.actual - self.expected


def _sum(queryset, field: str = "amount_cents") -> int:
    return queryset.aggregate(total=Sum(field))["total"] or 0


def _sums(queryset, **fields: Sum) -> dict[str, int]:
    """Several sums of one queryset in one query (0 where there is nothing to sum)."""
    return {name: total or 0 for name, total in queryset.aggregate(**fields).items()}


def _tournament_owner(tournament: Tournament) -> str:
    return f"tournament:{tournament.pk}"
