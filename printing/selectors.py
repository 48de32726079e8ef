"""Reads of the printing app: which printer a desk prints on, and the prints still owed."""

from django.db.models import QuerySet

from printing.models import DeskKind, JobStatus, Printer, PrintJob, ShiftPrinter


def printer_list() -> QuerySet[Printer]:
    return Printer.objects.order_by("desk_kind", "desk", "name", "pk")


def _only_active(kind: str) -> Printer | None:
    printers = list(Printer.objects.filter(active=True, desk_kind=kind).order_by("pk")[:2])
    return printers[0] if len(printers) == 1 else None


def shift_printer_get(*, shift_id: int) -> Printer | None:
    """The printer of the cashier's desk: the one his shift chose, else the venue's only cage
    printer in use; None when there is none (the browser prints) or several and none chosen."""
    chosen = (
        ShiftPrinter.objects.filter(shift_id=shift_id, printer__active=True).select_related("printer").first()
    )
    return chosen.printer if chosen is not None else _only_active(DeskKind.CAGE)


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
