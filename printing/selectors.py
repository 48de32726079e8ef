"""Reads of the printing app: which printer a desk prints on, and the prints still owed."""

from django.db.models import Exists, OuterRef, QuerySet

from printing.models import DeskKind, JobStatus, Printer, PrintJob, ShiftPrinter


def printer_list() -> QuerySet[Printer]:
    return Printer.objects.order_by("desk_kind", "desk", "name", "pk")


def cage_printers_for(*, shift_id: int) -> tuple[Printer | None, list[Printer]]:
    """The printer of the cashier's desk and the cage's printers in use, in one query: the
    one his shift chose, else the cage's only printer; None when there is none (the browser
    prints) or several and none chosen."""
    chosen = ShiftPrinter.objects.filter(shift_id=shift_id, printer_id=OuterRef("pk"))
    printers = list(
        Printer.objects.filter(active=True, desk_kind=DeskKind.CAGE)
        .annotate(chosen=Exists(chosen))
        .order_by("desk", "name", "pk")
    )
    mine = next((printer for printer in printers if printer.chosen), None)
    if mine is None and len(printers) == 1:
        mine = printers[0]
    return mine, printers


def shift_printer_get(*, shift_id: int) -> Printer | None:
    return cage_printers_for(shift_id=shift_id)[0]


def cage_printers() -> list[Printer]:
    return list(Printer.objects.filter(active=True, desk_kind=DeskKind.CAGE).order_by("desk", "name", "pk"))


def floor_printer_get() -> Printer | None:
    """The floor desk's printer: the first in use (a room has one floor desk)."""
    return Printer.objects.filter(active=True, desk_kind=DeskKind.FLOOR).order_by("pk").first()


def jobs_failed(*, printer: Printer | None, limit: int = 10) -> list[PrintJob]:
    """The prints on this printer that did not come out, newest first: the desk shows them with
    "print again" until they do."""
    if printer is None:
        return []
    return list(
        PrintJob.objects.filter(printer=printer, status=JobStatus.FAILED).order_by("-created_at", "-pk")[
            :limit
        ]
    )


def jobs_for(*, reference: str) -> list[PrintJob]:
    return list(PrintJob.objects.filter(reference=reference).select_related("printer").order_by("-pk"))
