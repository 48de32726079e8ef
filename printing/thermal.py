"""ESC/POS through python-escpos: a document laid out for the printer's paper and code page,
the cash drawer's kick and the cut. The one place this project speaks to a printer.

The code page is forced (`charcode`), not guessed: python-escpos's magic encoder would otherwise
switch tables in the middle of a line, which cheap clones print as garbage. CP852 carries every
Slovak letter (č, ď, ľ, ĺ, ň, ô, ŕ, š, ť, ž and the acute vowels); a letter the page lacks
prints as "?" rather than failing the print.
"""

from escpos.escpos import Escpos
from escpos.printer import Network, Usb

from printing.documents import Document, fitted
from printing.models import Connection, Printer

# A printer on the desk's network answers in milliseconds; one that does not answer in this
# time is off or unplugged, and the cashier must not wait longer than this for his next tap.
TIMEOUT_SECONDS = 2.0
# Pin 2 is the drawer's usual connector; python-escpos sends ESC p 0 50 50 (a 100 ms pulse).
DRAWER_PIN = 2


def device_for(printer: Printer, *, timeout: float = TIMEOUT_SECONDS) -> Escpos:
    """The python-escpos printer for a configured printer; it connects on its first write."""
    if printer.connection == Connection.USB:
        return Usb(printer.usb_vendor_id, printer.usb_product_id, timeout=int(timeout * 1000))
    return Network(printer.host, printer.port, timeout=timeout)


def write_document(
    device: Escpos, document: Document, *, width: int, code_page: str, open_drawer: bool
) -> None:
    """Lay the document out on `device`; the drawer opens before the cut, while the paper is
    still printing, as cage printers do."""
    device.charcode(code_page)
    for line in document.lines:
        if line.heading:
            device.set_with_default(align="center", bold=True, double_height=True, double_width=True)
            device.textln(line.text[: width // 2])
        else:
            device.set_with_default(bold=line.bold)
            device.textln(fitted(line, width))
    device.set_with_default()
    if open_drawer:
        device.cashdraw(DRAWER_PIN)
    device.cut()


def send(printer: Printer, document: Document, *, open_drawer: bool) -> None:
    """Print the document on the printer, or raise why not (connection refused, timeout, no
    such USB device): the caller keeps the failure on the print job."""
    device = device_for(printer)
    try:
        write_document(
            device,
            document,
            width=printer.paper_width,
            code_page=printer.code_page,
            open_drawer=open_drawer and printer.has_cash_drawer,
        )
    finally:
        device.close()
