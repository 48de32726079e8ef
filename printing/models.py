"""Thermal receipt printers and what was sent to them (CAG-4, CHP-2, TRN-9).

A printer stands at a desk: the cage window that prints receipts and fill and credit slips (and
whose cash drawer hangs from the printer), or the floor desk that prints move slips, seat tickets
and chip-race sheets. Each print is a PrintJob that keeps the document exactly as it was first
printed, so "print again" prints the same paper, and a print that failed stays in front of the
cashier until it is printed.
"""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from cardroom.venues import VenueScoped


class DeskKind(models.TextChoices):
    CAGE = "cage", _("Cage window (receipts, fill and credit slips)")
    FLOOR = "floor", _("Floor desk (move slips, seat tickets, chip-race sheets)")


class Connection(models.TextChoices):
    NETWORK = "network", _("Network (host and port)")
    USB = "usb", _("USB (vendor and product id)")


class PaperWidth(models.IntegerChoices):
    # Characters per line in the printer's standard font A (12 x 24 dots).
    MM80 = 48, _("80 mm (48 characters a line)")
    MM58 = 32, _("58 mm (32 characters a line)")


class CodePage(models.TextChoices):
    # The printer's character table; python-escpos selects it with ESC t. CP852 (PC852 Latin-2)
    # carries every Slovak letter and is on every Epson-compatible printer.
    CP852 = "CP852", _("PC852 Latin-2 (Slovak, Czech)")
    CP1250 = "CP1250", _("Windows-1250 (Central European)")
    ISO_8859_2 = "ISO_8859-2", _("ISO 8859-2 (Latin-2)")
    CP858 = "CP858", _("PC858 (Western European, no Slovak letters)")


class Printer(VenueScoped):
    name = models.CharField(_("name"), max_length=60)
    desk = models.CharField(_("desk"), max_length=60, help_text=_("Where it stands, e.g. Cage window 1."))
    desk_kind = models.CharField(
        _("prints for"), max_length=10, choices=DeskKind.choices, default=DeskKind.CAGE
    )
    connection = models.CharField(
        _("connection"), max_length=10, choices=Connection.choices, default=Connection.NETWORK
    )
    host = models.CharField(_("host"), max_length=120, blank=True)
    port = models.PositiveIntegerField(
        _("port"), default=9100, validators=[MinValueValidator(1), MaxValueValidator(65535)]
    )
    usb_vendor_id = models.PositiveIntegerField(_("USB vendor id"), null=True, blank=True)
    usb_product_id = models.PositiveIntegerField(_("USB product id"), null=True, blank=True)
    paper_width = models.PositiveSmallIntegerField(
        _("paper width"), choices=PaperWidth.choices, default=PaperWidth.MM80
    )
    code_page = models.CharField(
        _("code page"), max_length=20, choices=CodePage.choices, default=CodePage.CP852
    )
    has_cash_drawer = models.BooleanField(_("has a cash drawer"), default=False)
    active = models.BooleanField(_("in use"), default=True)

    class Meta:
        verbose_name = _("printer")
        verbose_name_plural = _("printers")
        ordering = ["desk", "name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["venue", "name"], name="printer_name_per_venue"),
            models.CheckConstraint(
                condition=Q(connection="usb") | ~Q(host=""), name="printer_network_has_host"
            ),
            models.CheckConstraint(
                condition=Q(connection="network")
                | Q(usb_vendor_id__isnull=False, usb_product_id__isnull=False),
                name="printer_usb_has_ids",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.desk})"

    @property
    def address(self) -> str:
        if self.connection == Connection.USB:
            return f"USB {self.usb_vendor_id:04x}:{self.usb_product_id:04x}"
        return f"{self.host}:{self.port}"


class JobKind(models.TextChoices):
    RECEIPT = "receipt", _("Receipt")
    CHIP_SLIP = "chip_slip", _("Fill or credit slip")
    MOVE_SLIP = "move_slip", _("Move slip")
    SEAT_TICKET = "seat_ticket", _("Seat ticket")
    CHIP_RACE = "chip_race", _("Chip-race sheet")


class JobStatus(models.TextChoices):
    PENDING = "pending", _("Waiting")
    DONE = "done", _("Printed")
    FAILED = "failed", _("Not printed")


class PrintJob(VenueScoped):
    """One document sent to one printer: kept with its outcome, reprinted from `document`."""

    printer = models.ForeignKey(Printer, on_delete=models.PROTECT, related_name="jobs")
    kind = models.CharField(_("kind"), max_length=20, choices=JobKind.choices)
    title = models.CharField(_("what"), max_length=120)
    # "receipt:12", "chip_slip:4": what was printed, for the pages that show its jobs.
    reference = models.CharField(max_length=40, db_index=True)
    # The document as printed (printing.documents.Document.as_json): a reprint is the same paper.
    document = models.JSONField()
    open_drawer = models.BooleanField(default=False)
    # The page that prints it from the browser: the fallback shown beside a failed print.
    browser_url = models.CharField(max_length=200, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=JobStatus.choices, default=JobStatus.PENDING
    )
    error = models.CharField(_("error"), max_length=300, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(_("time"))
    printed_at = models.DateTimeField(_("printed"), null=True, blank=True)

    class Meta:
        verbose_name = _("print job")
        verbose_name_plural = _("print jobs")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["printer", "status"], name="printjob_printer_status")]

    def __str__(self) -> str:
        return f"{self.title} → {self.printer.name}"


class ShiftPrinter(VenueScoped):
    """The printer of the desk a cashier's shift works at, when the venue has more than one
    cage printer (with one, that one is every shift's)."""

    shift = models.OneToOneField("cashier.Shift", on_delete=models.CASCADE, related_name="+")
    printer = models.ForeignKey(Printer, on_delete=models.PROTECT, related_name="+")

    def __str__(self) -> str:
        return f"{self.shift_id} → {self.printer_id}"
