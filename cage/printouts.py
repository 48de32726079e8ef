"""The cage's papers as the thermal printer prints them (CAG-4 receipts, CHP-2 fill and credit
slips): the same facts, in the same words, as the receipt and slip pages, laid out as lines
(printing.documents). The cage builds them because only the cage knows both games: the
receipt names the table and seat or the tournament and entry."""

from functools import partial

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from cage.selectors import ReceiptFacts, chip_table_names, receipt_facts_get
from cardroom.money import format_chips, format_eur
from cardroom.selectors import venue_get, venue_zone
from cashier.models import CashierTransaction, PaymentMethod
from cashier.selectors import open_shift_for
from chips.selectors import chip_posting_get
from printing.documents import Document, Line
from printing.models import JobKind
from printing.selectors import shift_printer_get
from printing.services import print_after_commit


def _local_time(moment) -> str:
    """The time as the venue's clock showed it (the printer has no time zone of its own)."""
    return date_format(timezone.localtime(moment, venue_zone()), "Y-m-d H:i:s")


def receipt_document(*, record: CashierTransaction, facts: ReceiptFacts | None = None) -> Document:
    facts = facts if facts is not None else receipt_facts_get(record=record)
    title = _("Receipt %(n)s") % {"n": record.receipt_number}
    lines = [
        Line(text=venue_get().name, heading=True),
        Line(text=title, bold=True),
        Line(text=_local_time(record.created_at)),
        Line(rule=True),
        Line(text=_("Transaction"), right=record.get_kind_display()),
    ]
    if record.player is not None:
        lines.append(Line(text=_("Player"), right=f"{record.player.full_name} #{record.player.card_number}"))
    if facts.tournament:
        lines.append(Line(text=_("Tournament"), right=facts.tournament))
        lines.append(Line(text=_("Entry"), right=str(facts.entry_number)))
    if facts.table:
        lines.append(Line(text=_("Seat"), right=f"{facts.table}, {_('seat')} {facts.seat}"))
    lines += [
        Line(text=_("Payment"), right=record.get_method_display()),
        Line(rule=True),
        Line(text=_("Amount"), right=format_eur(record.amount_cents), bold=True),
        Line(rule=True),
        Line(text=_("Cashier"), right=f"{record.cashier.get_username()}, {_('Shift')} #{record.shift_id}"),
    ]
    return Document(title=title, lines=lines)


def receipt_browser_url(record: CashierTransaction) -> str:
    return f"{reverse('cashier:receipt', args=[record.pk])}?print=1"


def receipt_opens_drawer(record: CashierTransaction) -> bool:
    """Cash changed hands: the drawer opens (a card or a ticket moves no cash)."""
    return record.method == PaymentMethod.CASH


def chip_slip_document(*, posting_id: int) -> Document:
    slip = chip_posting_get(pk=posting_id)
    posting = slip["posting"]
    names = chip_table_names(
        keys={a.table_key for a in slip["sources"] + slip["targets"]} | {posting.table_key}
    )

    def account_name(account) -> str:
        return names.get(account.table_key, account.label) if account.table_key else str(account)

    title = f"{posting.get_kind_display()} #{posting.pk}"
    lines = [
        Line(text=venue_get().name, heading=True),
        Line(text=title, bold=True),
        Line(text=_local_time(posting.created_at)),
        Line(rule=True),
        Line(text=_("Chips"), right=str(posting.chip_set)),
    ]
    table = names.get(posting.table_key, posting.table_label) if posting.table_key else ""
    if table:
        lines.append(Line(text=_("Table"), right=table, bold=True))
    lines += [
        Line(text=_("From"), right=", ".join(account_name(a) for a in slip["sources"])),
        Line(text=_("To"), right=", ".join(account_name(a) for a in slip["targets"])),
        Line(rule=True),
    ]
    for line in slip["lines"]:
        chip = line["chip"]
        lines.append(
            Line(
                text=f"{chip.value_text} {chip.colour_label} × {format_chips(line['quantity'])}",
                right=line["worth_text"],
            )
        )
    lines += [
        Line(rule=True),
        Line(text=f"{_('Total')} × {format_chips(slip['chips'])}", right=slip["total_text"], bold=True),
        Line(),
        Line(text=f"{_('Cashier')}: {posting.created_by.get_username() if posting.created_by else ''}"),
        Line(),
        Line(text=f"{_('Dealer')}: {posting.dealer_name or '_' * 20}"),
        Line(),
        Line(text=f"{_('Floor')}: {posting.floor_name or '_' * 20}"),
    ]
    return Document(title=title, lines=lines)


def receipt_print(*, actor, shift_id: int, record: CashierTransaction) -> None:
    """The receipt to the desk's printer, with the drawer kick for cash (CAG-4). Without a
    printer at the desk (one query) nothing more is read."""
    printer = shift_printer_get(shift_id=shift_id)
    if printer is None:
        return
    print_after_commit(
        actor=actor,
        printer=printer,
        kind=JobKind.RECEIPT,
        reference=f"receipt:{record.pk}",
        document=receipt_document(record=record),
        open_drawer=receipt_opens_drawer(record),
        browser_url=receipt_browser_url(record),
    )


def receipt_print_when_committed(sender, *, record: CashierTransaction, **kwargs) -> None:
    """cashier.signals.transaction_recorded: whichever door wrote the transaction, its receipt
    prints once it commits. The paper is laid out then, when the game's service has linked the
    entry or the seat it names; a rolled-back transaction prints nothing."""
    transaction.on_commit(
        partial(receipt_print, actor=record.cashier, shift_id=record.shift_id, record=record), robust=True
    )


def chip_slip_print(*, actor, posting_id: int) -> None:
    """A fill or credit slip to the cashier's desk printer once it commits (CHP-2), for the
    dealer and the floor to sign."""
    shift = open_shift_for(cashier=actor) if getattr(actor, "is_authenticated", False) else None
    printer = shift_printer_get(shift_id=shift.pk) if shift is not None else None
    if printer is None:
        return
    print_after_commit(
        actor=actor,
        printer=printer,
        kind=JobKind.CHIP_SLIP,
        reference=f"chip_slip:{posting_id}",
        document=chip_slip_document(posting_id=posting_id),
        browser_url=f"{reverse('cashier:chip-slip', args=[posting_id])}?print=1",
    )
