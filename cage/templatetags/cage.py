"""What a cashier reference or an account's owner ("table:7", "tournament:3", a drawer's token)
names, for staff to read on a receipt.

The ledger keeps references as account owners and knows no game (cashier imports neither game);
the cage, which knows both, turns one back into the table or tournament it names."""

from django import template

from cashgame.models import CashTable
from cashier.models import Shift
from tournaments.models import Tournament

register = template.Library()

MODELS = {"table": CashTable, "tournament": Tournament}


@register.filter
def reference_label(reference: str) -> str:
    kind, _, pk = reference.partition(":")
    if kind == "drawer":  # a drawer's owner is a random token; its shift names it
        shift = Shift.objects.filter(drawer__owner=reference).select_related("cashier").first()
        return str(shift) if shift is not None else reference
    model = MODELS.get(kind)
    if model is None or not pk.isdigit():
        return reference
    found = model.objects.filter(pk=int(pk)).first()
    return str(found) if found is not None else reference
