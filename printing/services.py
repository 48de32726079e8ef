"""Writes of the printing app: printers set up by a manager, and print jobs (CAG-4, CHP-2, TRN-9).

A print never holds up or undoes the business it prints. A job is written inside the caller's
transaction (a rolled-back buy-in leaves no job) and sent to the printer only once that
transaction has committed (`transaction.on_commit`), at most TIMEOUT_SECONDS later, in the
request: the cashier expects the paper now, and a room without a Celery worker still prints.
Whatever goes wrong (printer off, refused, timed out, no paper) is kept on the job with its
error and shown at the desk with "print again"; nothing is raised to the caller.
"""

import logging
from dataclasses import dataclass
from datetime import datetime
from functools import partial

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cardroom.errors import DomainError
from cardroom.services import audit_record, snapshot
from printing import thermal
from printing.documents import Document
from printing.models import JobStatus, Printer, PrintJob, ShiftPrinter

logger = logging.getLogger(__name__)

PRINTER_FIELDS = [
    "name",
    "desk",
    "desk_kind",
    "connection",
    "host",
    "port",
    "usb_vendor_id",
    "usb_product_id",
    "paper_width",
    "code_page",
    "has_cash_drawer",
    "active",
]
JOB_FIELDS = ["status", "error", "attempts", "printed_at"]


@transaction.atomic
def printer_save(*, actor, printer: Printer | None = None, now: datetime | None = None, **values) -> Printer:
    """Create a printer, or change one; audited with its values before and after."""
    creating = printer is None
    printer = printer or Printer()
    before = None if creating else snapshot(printer, PRINTER_FIELDS)
    for name in PRINTER_FIELDS:
        if name in values:
            setattr(printer, name, values[name])
    if printer.connection == "network" and not printer.host:
        raise DomainError("printer_host_required", _("A network printer needs its host name or address."))
    if printer.connection == "usb" and (printer.usb_vendor_id is None or printer.usb_product_id is None):
        raise DomainError("printer_usb_required", _("A USB printer needs its vendor and product id."))
    if Printer.objects.filter(name=printer.name).exclude(pk=printer.pk).exists():
        raise DomainError("printer_name_taken", _("A printer named %s exists already.") % printer.name)
    printer.save()
    audit_record(
        actor=actor,
        action="printing.printer_create" if creating else "printing.printer_update",
        obj=printer,
        before=before,
        after=snapshot(printer, PRINTER_FIELDS),
        now=now,
    )
    return printer


@transaction.atomic
def shift_printer_set(*, actor, shift_id: int, printer: Printer, now: datetime | None = None) -> None:
    """The cashier says which desk (printer) his shift works at."""
    ShiftPrinter.objects.update_or_create(shift_id=shift_id, defaults={"printer": printer})
    audit_record(
        actor=actor,
        action="printing.shift_printer_set",
        object_type="cashier.shift",
        object_id=shift_id,
        after={"printer": printer.pk},
        now=now,
    )


def print_after_commit(
    *,
    actor,
    printer: Printer | None,
    kind: str,
    reference: str,
    document: Document,
    open_drawer: bool = False,
    browser_url: str = "",
    now: datetime | None = None,
) -> PrintJob | None:
    """Keep a print job for `document` in the caller's transaction and print it once that has
    committed. No printer (none set up for the desk): nothing, the browser prints."""
    if printer is None or PrintJob.objects.filter(reference=reference).exists():
        return None  # no printer at this desk, or a repeated request printed it already
    job = PrintJob.objects.create(
        printer=printer,
        kind=kind,
        title=document.title[:120],
        reference=reference,
        document=document.as_json(),
        open_drawer=open_drawer and printer.has_cash_drawer,
        browser_url=browser_url,
        created_by=actor if getattr(actor, "is_authenticated", False) else None,
        created_at=now or timezone.now(),
    )
    transaction.on_commit(partial(print_job_run, actor=actor, job_id=job.pk), robust=True)
    return job


def print_job_run(*, actor, job_id: int, now: datetime | None = None) -> PrintJob:
    """Send the job to its printer and keep the outcome (printed, or failed with its error),
    audited. Never raises for the printer's sake: a failure is the job's status."""
    job = PrintJob.objects.select_related("printer").get(pk=job_id)
    before = snapshot(job, JOB_FIELDS)
    try:
        thermal.send(job.printer, Document.from_json(job.document), open_drawer=job.open_drawer)
    except Exception as error:  # any failure of the device is the job's, never the caller's
        job.status = JobStatus.FAILED
        job.error = f"{type(error).__name__}: {error}".replace("\n", " ")[:300]
        logger.warning("print job %s on %s failed: %s", job.pk, job.printer.address, job.error)
    else:
        job.status = JobStatus.DONE
        job.error = ""
        job.printed_at = now or timezone.now()
    job.attempts += 1
    with transaction.atomic():
        job.save(update_fields=JOB_FIELDS)
        audit_record(
            actor=actor,
            action="printing.print" if job.attempts == 1 else "printing.reprint",
            obj=job,
            before=before,
            after=snapshot(job, JOB_FIELDS),
            note=job.title,
            now=now,
        )
    return job


def print_job_retry(*, actor, job: PrintJob, now: datetime | None = None) -> PrintJob:
    """ "Print again": the same paper on the same printer (the drawer stays shut: the cash went
    in or out when the transaction was made). A job printed already is not printed twice."""
    if job.status == JobStatus.DONE:
        raise DomainError(
            "already_printed", _("%s was printed already.") % job.title, rule="CAG-4", status_code=409
        )
    if job.open_drawer:
        PrintJob.objects.filter(pk=job.pk).update(open_drawer=False)
    return print_job_run(actor=actor, job_id=job.pk, now=now)


@dataclass(frozen=True)
class Printout:
    """One paper of a batch: what it is, what it prints, and the page the browser prints it from."""

    kind: str
    reference: str
    document: Document
    browser_url: str = ""


@transaction.atomic
def print_batch(*, actor, printer: Printer, printouts: list[Printout], now: datetime | None = None) -> int:
    """Several papers to one printer (a move slip a player, a sheet a table), kept together and
    printed once all are kept; each printed once only. Answers how many were sent."""
    sent = 0
    for printout in printouts:
        job = print_after_commit(
            actor=actor,
            printer=printer,
            kind=printout.kind,
            reference=printout.reference,
            document=printout.document,
            browser_url=printout.browser_url,
            now=now,
        )
        sent += job is not None
    return sent
