"""CAG-4 on paper: a cash transaction at a desk prints its receipt on the desk's thermal printer
after it commits and opens the drawer; a printer that is off never stops the transaction, the
print is kept as failed and "print again" prints it. Every test ends with the books checked."""

import pytest
from django.utils import translation

from cage.services import DeskRequest, transaction_route
from cardroom.models import AuditRecord
from cardroom.selectors import venue_get
from cashier.models import CashierTransaction
from printing.models import JobStatus, PrintJob
from printing.services import print_job_retry
from reports.selectors.books import books_problems
from tests.cage.conftest import key
from tests.cashgame.conftest import T0
from tests.printing.stand_in import read_escpos
from tests.tournaments.factories import TournamentFactory
from tournaments.services.registration.entries import entry_register

pytestmark = pytest.mark.django_db

DRAWER_KICK = b"\x1bp\x00\x32\x32"  # ESC p 0 50 50: pin 2, 100 ms on and off
CUT = b"\x1dV\x00"  # GS V 0: full cut
PC852 = b"\x1bt\x12"  # ESC t 18


def row(left: str, right: str, width: int = 48) -> str:
    """A line of paper (48 characters on 80 mm): the right part against the edge."""
    return left + right.rjust(width - len(left))


def buy_in(cashier, shift, table, player, *, amount_cents=150_000, method="cash", seat=2):
    return transaction_route(
        actor=cashier,
        shift=shift,
        request=DeskRequest(
            kind="cash_buy_in",
            player_id=player.pk,
            amount_cents=amount_cents,
            method=method,
            table_id=table.pk,
            seat=seat,
        ),
        idempotency_key=key(),
        now=T0,
    )


def test_cash_buy_in_prints_its_receipt_and_opens_the_drawer__CAG_4(
    cashier, shift, table, player, cage_printer, stand_in, django_capture_on_commit_callbacks
):
    with translation.override("en"), django_capture_on_commit_callbacks(execute=True):
        record = buy_in(cashier, shift, table, player)
    printout = read_escpos(stand_in.wait_for(1)[0])
    assert printout.lines == [
        venue_get().name,
        f"Receipt {record.receipt_number}",
        "2026-11-10 18:00:00",  # the venue's clock (17:00 UTC)
        "-" * 48,
        row("Transaction", "Cash-game buy-in"),
        row("Player", "Šimon Šťastný #100042"),
        row("Seat", "Table 3, seat 2"),
        row("Payment", "Cash"),
        "-" * 48,
        row("Amount", "1,500.00 EUR"),
        "-" * 48,
        row("Cashier", f"cashier1, Shift #{shift.pk}"),
        "",
    ]
    assert printout.has(PC852) and printout.has(DRAWER_KICK) and printout.has(CUT)
    assert printout.commands.index(DRAWER_KICK) < printout.commands.index(CUT)
    job = PrintJob.objects.get()
    assert (job.status, job.error, job.attempts, job.reference) == (
        JobStatus.DONE,
        "",
        1,
        f"receipt:{record.pk}",
    )
    assert AuditRecord.objects.filter(action="printing.print", object_id=str(job.pk)).count() == 1
    assert books_problems() == []


def test_slovak_letters_print_in_the_printers_code_page__CAG_4(
    cashier, shift, table, player, cage_printer, stand_in, django_capture_on_commit_callbacks
):
    player.first_name, player.last_name = "Ľubica", "Nováková-Ďurčíková"
    player.save()
    with translation.override("sk"), django_capture_on_commit_callbacks(execute=True):
        buy_in(cashier, shift, table, player)
    stream = stand_in.wait_for(1)[0]
    # The bytes of the name are CP852's own (Š is 0xE6, ť is 0x9C in PC852 Latin-2).
    assert "Ľubica Nováková-Ďurčíková".encode("cp852") in stream
    assert "Šťastný".encode("cp852") == b"\xe6\x9castn\xec"
    lines = read_escpos(stream).lines
    assert any(line.endswith("Ľubica Nováková-Ďurčíková #100042") for line in lines)
    assert "1\xa0500,00 EUR" in " ".join(lines)


def test_a_card_payment_prints_without_opening_the_drawer__CAG_4(
    cashier, shift, table, player, cage_printer, stand_in, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        buy_in(cashier, shift, table, player, method="card")
    printout = read_escpos(stand_in.wait_for(1)[0])
    assert not any(command.startswith(b"\x1bp") for command in printout.commands)
    assert printout.has(CUT)
    assert books_problems() == []


def test_a_printer_switched_off_keeps_the_print_and_the_transaction_stands__CAG_4(
    cashier, shift, table, player, cage_printer, stand_in, django_capture_on_commit_callbacks
):
    stand_in.stop()
    with django_capture_on_commit_callbacks(execute=True):
        record = buy_in(cashier, shift, table, player)
    assert CashierTransaction.objects.filter(pk=record.pk).exists()
    job = PrintJob.objects.get()
    assert (job.status, job.attempts) == (JobStatus.FAILED, 1)
    assert job.error == (
        "DeviceNotFoundError: Device not found "
        "(Could not open socket for 127.0.0.1: [Errno 111] Connection refused)"
    )
    assert stand_in.prints == []

    stand_in.start()
    job = print_job_retry(actor=cashier, job=job)
    assert (job.status, job.error, job.attempts) == (JobStatus.DONE, "", 2)
    printout = read_escpos(stand_in.wait_for(1)[0])
    assert f"Receipt {record.receipt_number}" in printout.lines
    # The cash went in when the transaction was made: a reprint does not open the drawer.
    assert not any(command.startswith(b"\x1bp") for command in printout.commands)
    assert list(
        AuditRecord.objects.filter(object_type="printing.printjob", object_id=str(job.pk))
        .order_by("pk")
        .values_list("action", "after__status")
    ) == [("printing.print", "failed"), ("printing.reprint", "done")]
    assert books_problems() == []


def test_no_printer_at_the_desk_prints_nothing_and_keeps_no_job__CAG_4(
    cashier, shift, table, player, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        buy_in(cashier, shift, table, player)
    assert not PrintJob.objects.exists()
    assert books_problems() == []


def test_a_buy_in_at_the_tournaments_own_desk_prints_too__CAG_4(
    cashier, shift, player, cage_printer, stand_in, django_capture_on_commit_callbacks
):
    """Not only the cage's desk: the tournament's cashier page writes through the same cashier
    service, and its receipt prints at the cashier's desk, naming the tournament and the entry."""
    tournament = TournamentFactory(name="Sunday Deepstack", prize_cents=9_000, fee_cents=1_000)
    with translation.override("en"), django_capture_on_commit_callbacks(execute=True):
        entry = entry_register(
            actor=cashier, tournament=tournament, player=player, shift=shift, idempotency_key=key(), now=T0
        )
    record = CashierTransaction.objects.get(kind="tournament_buy_in")
    printout = read_escpos(stand_in.wait_for(1)[0])
    assert printout.lines[4:8] == [
        row("Transaction", "Tournament buy-in"),
        row("Player", "Šimon Šťastný #100042"),
        row("Tournament", "Sunday Deepstack"),
        row("Entry", str(entry.number)),
    ]
    assert row("Amount", "100.00 EUR") in printout.lines and printout.has(DRAWER_KICK)
    assert PrintJob.objects.get().reference == f"receipt:{record.pk}"
    assert books_problems() == []
