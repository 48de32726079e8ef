from datetime import date

import factory

from players.models import Player, normalize


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    first_name = factory.Sequence(lambda n: f"First{n}")
    last_name = factory.Sequence(lambda n: f"Last{n}")
    nickname = ""
    date_of_birth = date(1985, 5, 17)
    card_number = factory.Sequence(lambda n: f"{200000 + n}")
    id_document_type = "id_card"
    id_document_number = factory.Sequence(lambda n: f"EB{100000 + n}")
    first_name_key = factory.LazyAttribute(lambda p: normalize(p.first_name))
    last_name_key = factory.LazyAttribute(lambda p: normalize(p.last_name))
    nickname_key = factory.LazyAttribute(lambda p: normalize(p.nickname))


# The cage's working stock of cash-game chips for tests that buy in (CHP-2: chips follow cash, and
# the cage never hands out chips it does not hold): chip value in cents -> chips, 267,000.00 EUR.
CAGE_STOCK = {50: 2000, 100: 2000, 200: 2000, 500: 2000, 2500: 2000, 10000: 1000, 50000: 200}


def cage_stock(cashier, *, now=None, chips: dict[int, int] | None = None) -> None:
    """Bring cash-game chips into the vault and all of them on to the cage, as a room does before
    its first buy-in. A cashier posts them (ROL-1)."""
    from django.utils import timezone

    from chips.models import ChipAccountKind, ChipSet, ChipSetKind
    from chips.services import chips_receive, chips_transfer

    cash = ChipSet.objects.filter(kind=ChipSetKind.CASH).order_by("pk").first()
    now = now or timezone.now()
    chips = chips or CAGE_STOCK
    chips_receive(actor=cashier, chip_set=cash, chips=chips, now=now)
    chips_transfer(
        actor=cashier,
        chip_set=cash,
        source=ChipAccountKind.VAULT,
        target=ChipAccountKind.CAGE,
        chips=chips,
        now=now,
    )
