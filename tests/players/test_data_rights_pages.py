"""GDP-1 through the pages: the player card's export and erasure for managers, the confirm step,
the sealed identity behind a reason; after an erasure the person appears nowhere: not on the
public pages (room page, tournament results, TV state, the board), not in the reports or their
CSV files, not in the audit trail, not in the player search."""

import csv
import io
import json
import re
import zipfile
from datetime import datetime

import pytest
from django.urls import reverse
from django.utils import timezone
from openpyxl import load_workbook

from cardroom.models import AuditRecord
from cardroom.services import venue_update
from players.models import PlayerErasure
from tests.players.history import DOCUMENT, FIRST, LAST, NICK, OLD_NICK, PHONE, build_history

pytestmark = pytest.mark.django_db

# What must not be shown once Ján is erased (his card number was 100001).
TRACES = (FIRST, LAST, NICK, OLD_NICK, "1980-03-04", "04.03.1980", "4. 3. 1980", DOCUMENT, PHONE, "100001")
PERIOD = {"start": "2026-11-01", "end": "2026-11-30"}


@pytest.fixture
def history(floor, cashier, manager, venue):
    built = build_history(floor=floor, cashier=cashier, manager=manager)
    # A low AML threshold puts Ján (640.00 EUR of cash in one day) on the AML list.
    venue_update(actor=manager, venue=venue, aml_threshold_cents=50_000)
    return built


def public_and_staff_pages(client, history, manager) -> dict[str, str]:
    """Every page and file a trace could show on, as text."""
    tournament = history.tournament.pk
    client.logout()
    pages = {
        "room page": client.get(reverse("lobby:room")).content.decode(),
        "tournament page": client.get(reverse("lobby:tournament", args=[tournament])).content.decode(),
        "TV state": client.get(reverse("tv:state", args=[tournament])).content.decode(),
        "board": client.get(reverse("board:board")).content.decode(),
    }
    client.force_login(manager)
    pages.update(
        {
            "player activity": client.get(reverse("reports:players"), PERIOD).content.decode(),
            "player activity CSV": client.get(
                reverse("reports:players"), {**PERIOD, "export": "players"}
            ).content.decode(),
            "AML list": client.get(reverse("reports:aml"), PERIOD).content.decode(),
            "AML CSV": client.get(reverse("reports:aml"), {**PERIOD, "export": "aml"}).content.decode(),
            "daily report": client.get(reverse("reports:daily"), {"day": "2026-11-10"}).content.decode(),
            "audit trail": client.get(reverse("audit-list")).content.decode(),
            "player card": client.get(reverse("players:detail", args=[history.player.pk])).content.decode(),
            # The results alone (htmx), not the search box that echoes what staff typed.
            "player search": client.get(
                reverse("players:list"), {"q": "Šťastný"}, HTTP_HX_REQUEST="true"
            ).content.decode(),
        }
    )
    return pages


def shown(pages: dict[str, str]) -> dict[str, list[str]]:
    return {
        name: [trace for trace in TRACES if trace in text]
        for name, text in pages.items()
        if any(t in text for t in TRACES)
    }


def test_after_erasure_the_person_appears_on_no_page_report_export_or_audit_line__GDP_1(
    client, history, manager
):
    before = public_and_staff_pages(client, history, manager)
    # Before: the staff's pages name Ján, the public ones by his nickname only (WTL-3).
    assert "Šťastný" in before["player activity"] and "Šťastný" in before["AML list"]
    assert "Šťastný" in before["AML CSV"] and "Šťastný" in before["audit trail"]
    assert "Kobra" in before["tournament page"] and "Šťastný" not in before["tournament page"]

    client.force_login(manager)
    response = client.post(
        reverse("players:erase", args=[history.player.pk]), {"request": "Letter of 10 November"}
    )
    assert response.status_code == 302
    after = public_and_staff_pages(client, history, manager)
    assert shown(after) == {}
    pseudonym = f"Anonym {history.player.pk}"
    for name in (
        "tournament page",
        "TV state",
        "player activity",
        "player activity CSV",
        "AML list",
        "AML CSV",
    ):
        assert pseudonym in after[name], name
    assert "Horváthová" in after["player activity"]  # Eva is still herself


def test_card_offers_export_and_erasure_to_managers_only__GDP_1(client, history, manager, cashier, floor):
    url = reverse("players:detail", args=[history.player.pk])
    for user in (cashier, floor):
        client.force_login(user)
        page = client.get(url).content.decode()
        assert "Personal data" not in page and "Erase personal data" not in page
    client.force_login(manager)
    page = client.get(url).content.decode()
    assert reverse("players:export", args=[history.player.pk, "json"]) in page
    assert reverse("players:export", args=[history.player.pk, "csv"]) in page
    assert f'href="{reverse("players:erase", args=[history.player.pk])}"' in page


def test_card_greys_the_erasure_out_with_the_reason_and_a_post_is_refused_writing_nothing__GDP_1(
    client, floor, cashier, manager
):
    history = build_history(floor=floor, cashier=cashier, manager=manager, cashed_out=False)
    client.force_login(manager)
    page = client.get(reverse("players:detail", args=[history.player.pk])).content.decode()
    assert 'disabled aria-describedby="why-erase">Erase personal data</button>' in page
    reason = "Seated at Table 1, seat 3: the player cashes out and leaves the table first."
    assert reason in page
    assert f'href="{reverse("players:erase", args=[history.player.pk])}"' not in page
    confirm = client.get(reverse("players:erase", args=[history.player.pk])).content.decode()
    assert reason in confirm and 'type="submit" class="danger"' not in confirm
    records = AuditRecord.objects.count()
    response = client.post(reverse("players:erase", args=[history.player.pk]), {"request": "Letter"})
    assert response.status_code == 200
    assert reason in response.content.decode()
    assert "GDP-1" not in re.sub(r"<[^>]*>", "", response.content.decode())  # linked, never pasted as text
    assert (AuditRecord.objects.count(), PlayerErasure.objects.count()) == (records, 0)


def test_confirm_step_names_what_happens_in_english_and_slovak__GDP_1(client, history, manager):
    client.force_login(manager)
    url = reverse("players:erase", args=[history.player.pk])
    page = client.get(url).content.decode()
    assert f"replaced by “Anonym {history.player.pk}”" in page
    assert "the anti-money-laundering law makes the room keep it until 2031-11-10" in page
    assert "after the last transaction, on 2026-11-10" in page
    client.cookies.load({"django_language": "sk"})
    page = client.get(url).content.decode()
    assert "Vymazať osobné údaje" in page
    assert "zákon proti praniu špinavých peňazí ukladá herni uchovávať ju do 2031-11-10" in page


def test_export_downloads_json_and_a_zip_of_csv_files_each_audited__GDP_1(client, history, manager):
    client.force_login(manager)
    response = client.get(reverse("players:export", args=[history.player.pk, "json"]))
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"].startswith(
        f'attachment; filename="player-{history.player.pk}-data-'
    )
    assert response["Cache-Control"] == "no-store"
    document = json.loads(response.content)
    assert document["identity"]["last_name"] == "Šťastný"
    assert [row["amount_cents"] for row in document["transactions"]] == [15_000, 21_000, 10_000, 18_000]

    response = client.get(reverse("players:export", args=[history.player.pk, "csv"]))
    assert response["Content-Type"] == "application/zip"
    files = zipfile.ZipFile(io.BytesIO(response.content))
    names = sorted(name.rsplit("/", 1)[1] for name in files.namelist())
    assert names == sorted(
        f"{section}.csv"
        for section in (
            "identity",
            "id_checks",
            "sessions",
            "entries",
            "transactions",
            "jackpot_shares",
            "waiting_lists",
            "loyalty_points",
            "notice_consents",
            "notices",
            "exclusions",
            "audit_records",
        )
    )
    transactions = next(name for name in files.namelist() if name.endswith("/transactions.csv"))
    rows = list(csv.reader(io.StringIO(files.read(transactions).decode("utf-8-sig"))))
    assert rows[0] == ["venue", "receipt", "kind", "amount", "method", "for", "at", "reversed"]
    assert [(row[0], row[2], row[3]) for row in rows[1:]] == [
        ("Card Room", "cash_buy_in", "150.00"),
        ("Card Room", "cash_out", "210.00"),
        ("Card Room", "tournament_buy_in", "100.00"),
        ("Card Room", "prize_payout", "180.00"),
    ]
    assert list(
        AuditRecord.objects.filter(action="player.export")
        .order_by("pk")
        .values_list("after__format", flat=True)
    ) == [
        "json",
        "csv",
    ]
    assert client.get(reverse("players:export", args=[history.player.pk, "xml"])).status_code == 404


def test_sealed_identity_page_needs_a_reason_and_is_audited__GDP_1(client, history, manager):
    client.force_login(manager)
    client.post(reverse("players:erase", args=[history.player.pk]), {"request": "Letter"})
    card = client.get(reverse("players:detail", args=[history.player.pk])).content.decode()
    assert "sealed until 2031-11-10" in card
    assert 'disabled aria-describedby="why-edit">Edit</button>' in card
    url = reverse("players:identity", args=[history.player.pk])
    records = AuditRecord.objects.count()
    refused = client.post(url, {"reason": ""})
    assert refused.status_code == 200 and "Šťastný" not in refused.content.decode()
    assert AuditRecord.objects.count() == records
    page = client.post(url, {"reason": "Financial police 17/2026"})
    text = page.content.decode()
    assert page["Cache-Control"] == "no-store"
    assert "Šťastný" in text and "EA123456" in text and "1980-03-04" in text
    record = AuditRecord.objects.get(action="player.identity_read")
    assert (record.actor, record.note) == (manager, "Financial police 17/2026")
    # Reading leaves nothing behind on the card.
    assert "Šťastný" not in client.get(reverse("players:detail", args=[history.player.pk])).content.decode()


def test_export_downloads_one_workbook_with_numbers_and_times__GDP_1(client, history, manager):
    client.force_login(manager)
    document = json.loads(client.get(reverse("players:export", args=[history.player.pk, "json"])).content)
    response = client.get(reverse("players:export", args=[history.player.pk, "xlsx"]))
    assert response["Content-Type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    assert response["Content-Disposition"].endswith('.xlsx"')
    workbook = load_workbook(io.BytesIO(response.content))
    assert workbook.sheetnames == [
        "identity",
        "id_checks",
        "sessions",
        "entries",
        "transactions",
        "jackpot_shares",
        "waiting_lists",
        "loyalty_points",
        "notice_consents",
        "notices",
        "exclusions",
        "audit_records",
    ]
    sheet = workbook["transactions"]
    assert [cell.value for cell in sheet[1]] == [
        "venue", "receipt", "kind", "amount", "method", "for", "at (Europe/Bratislava)", "reversed",
    ]  # fmt: skip
    amounts = [(row[2].value, row[3].value, row[3].number_format) for row in sheet.iter_rows(min_row=2)]
    assert amounts == [
        ("cash_buy_in", 150, "#,##0.00"),
        ("cash_out", 210, "#,##0.00"),
        ("tournament_buy_in", 100, "#,##0.00"),
        ("prize_payout", 180, "#,##0.00"),
    ]
    first_at = timezone.localtime(datetime.fromisoformat(document["transactions"][0]["at"]))
    assert sheet["G2"].is_date and sheet["G2"].value == first_at.replace(tzinfo=None)
    assert workbook["identity"]["A1"].value == "field" and sheet.freeze_panes == "A2"
    assert AuditRecord.objects.filter(action="player.export").latest("pk").after["format"] == "xlsx"
