"""What a cashier reads once a transaction went through (CAG-4): one line naming the receipt, the
kind and amount, the player and what it was for (a table and seat, a tournament), and a link that
opens the receipt and prints it. Every desk that moves money says it the same way; the caller
names the table or tournament, which only the games know."""

from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from cardroom.money import format_eur
from cashier.models import CashierTransaction


def receipt_print_url(record: CashierTransaction) -> str:
    """The receipt's page, which prints itself (static/js/receipt.js)."""
    return f"{reverse('cashier:receipt', args=[record.pk])}?print=1"


def receipt_message(*, record: CashierTransaction, where: str = "") -> SafeString:
    """ "Receipt 12 · Cash-game buy-in 1,500.00 EUR · Eva Malá · Table 3, seat 2" and a print link;
    the names are escaped (a message is shown as it is)."""
    values = {
        "n": record.receipt_number,
        "kind": record.get_kind_display(),
        "amount": format_eur(record.amount_cents),
        "player": record.player.full_name if record.player is not None else "",
    }
    if where:
        text = _("Receipt %(n)s · %(kind)s %(amount)s · %(player)s · %(where)s") % {**values, "where": where}
    else:
        text = _("Receipt %(n)s · %(kind)s %(amount)s · %(player)s") % values
    return format_html(
        '<span class="done-line">{}</span> <a class="button print-link" href="{}">{}</a>',
        text,
        receipt_print_url(record),
        _("Print receipt %(n)s") % {"n": record.receipt_number},
    )
