"""Demo data of the chips app: each default set's chips brought into the vault, and a working
stock in the cage (CHP-2).

Idempotent: a set that has any posting already is left alone, so running the demo again adds
nothing.
"""

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from cardroom.roles import Role
from chips.models import ChipAccountKind, ChipSet, ChipSetKind
from chips.services import chips_receive, chips_transfer

# Chip value -> (chips in service, chips in the cage).
STOCK = {
    ChipSetKind.CASH: {50: (1000, 300), 100: (1000, 300), 200: (600, 200), 500: (1500, 500), 2500: (600, 200),
                       10000: (200, 60), 50000: (40, 10)},
    ChipSetKind.TOURNAMENT: {25: (4000, 1000), 100: (6000, 1500), 500: (3000, 800), 1000: (3000, 800),
                             5000: (1200, 300), 25000: (300, 60)},
}  # fmt: skip


@transaction.atomic
def load(*, actor, stdout) -> None:
    # Only cashiers post chips (ROL-1): the demo's first cashier does, not the manager it is given.
    cashier = get_user_model().objects.filter(groups__name=Role.CASHIER.value).order_by("pk").first()
    if cashier is None:
        return
    actor = cashier
    now = timezone.now()
    for chip_set in ChipSet.objects.prefetch_related("denominations"):
        stock = STOCK.get(chip_set.kind)
        if stock is None or chip_set.postings.exists():
            continue
        values = {chip.value for chip in chip_set.denominations.all()}
        chips_receive(
            actor=actor,
            chip_set=chip_set,
            chips={v: n for v, (n, _c) in stock.items() if v in values},
            now=now,
        )
        chips_transfer(
            actor=actor,
            chip_set=chip_set,
            source=ChipAccountKind.VAULT,
            target=ChipAccountKind.CAGE,
            chips={v: c for v, (_n, c) in stock.items() if v in values},
            now=now,
        )
        stdout.write(f"Chips: {chip_set.name} stocked in the vault and the cage.")
