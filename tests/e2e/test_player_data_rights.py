"""Browser journey (GDP-1), in English and Slovak: a manager exports a player's data as JSON and
as CSV from the player card, erases the person through the confirm step (typing the request,
tapping twice: one erasure), finds the card under its pseudonym and the person gone from the
public tournament page, then reads the sealed identity with a reason. The books are checked
before and after: an erasure never changes a single posting."""

import io
import json
import zipfile
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from cardroom.models import AuditRecord
from cashier.models import Entry, Posting
from players.models import PlayerErasure
from players.selectors.data_export import SECTIONS
from reports.selectors.books import books_problems
from tests.conftest import PASSWORD
from tests.e2e.conftest import double_tap, log_in, screenshot
from tests.players.history import build_history

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en": {
        "json": "Export data (JSON)",
        "csv": "Export data (CSV)",
        "erase": "Erase personal data",
        "request": "The player's request",
        "sealed": "sealed until 2031-11-10",
        "read": "Read the sealed identity",
        "why": "Why you need the identity",
        "erased": "Personal data erased: the card is now",
        "seated": "Seated at Table 1, seat 5: the player cashes out and leaves the table first.",
    },
    "sk": {
        "json": "Exportovať údaje (JSON)",
        "csv": "Exportovať údaje (CSV)",
        "erase": "Vymazať osobné údaje",
        "request": "Žiadosť hráča",
        "sealed": "zapečatená do 2031-11-10",
        "read": "Prečítať zapečatenú totožnosť",
        "why": "Prečo totožnosť potrebujete",
        "erased": "Osobné údaje sú vymazané: karta je teraz",
        "seated": "Sedí pri hre – Stôl 1, miesto 5: najprv treba vyplatiť žetóny a uvoľniť miesto.",
    },
}


def books_agree() -> str:
    """The books check as the operator runs it; it exits non-zero on any difference."""
    out = StringIO()
    call_command("check_books", stdout=out)
    assert books_problems() == []
    return out.getvalue()


@pytest.mark.parametrize("language", ["en", "sk"])
def test_a_manager_exports_and_erases_a_player_and_reads_the_seal__GDP_1(
    browser, page, live_server, floor, cashier, manager, language
):
    words = WORDS[language]
    history = build_history(floor=floor, cashier=cashier, manager=manager)
    player = history.player
    books_agree()
    ledger = (list(Posting.objects.order_by("pk").values()), list(Entry.objects.order_by("pk").values()))

    log_in(page, live_server, "manager1", PASSWORD)
    if language == "sk":
        page.get_by_role("button", name="SK", exact=True).click()
        page.wait_for_load_state()
    # Eva is still seated: her card shows the erasure greyed out, with the reason in words.
    page.goto(f"{live_server.url}/players/{history.other.pk}/")
    refused = page.get_by_role("button", name=words["erase"])
    assert refused.is_disabled()
    assert page.inner_text("#why-erase").startswith(words["seated"])
    screenshot(page, f"player-data-refused-{language}-1280x800")
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, f"player-data-refused-{language}-390x844")
    page.set_viewport_size({"width": 1280, "height": 800})

    page.goto(f"{live_server.url}/players/{player.pk}/")
    page.wait_for_selector("#personal-data")
    screenshot(page, f"player-data-card-{language}-1280x800")

    with page.expect_download() as download:
        page.get_by_role("link", name=words["json"]).click()
    document = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert (document["identity"]["first_name"], document["identity"]["last_name"]) == ("Ján", "Šťastný")
    assert len(document["transactions"]) == 4
    with page.expect_download() as download:
        page.get_by_role("link", name=words["csv"]).click()
    files = zipfile.ZipFile(io.BytesIO(Path(download.value.path()).read_bytes()))
    assert len(files.namelist()) == len(SECTIONS) == 12

    page.get_by_role("link", name=words["erase"]).click()
    page.wait_for_selector("textarea[name=request]")
    screenshot(page, f"player-data-erase-confirm-{language}-1280x800")
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, f"player-data-erase-confirm-{language}-390x844")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.get_by_label(words["request"]).fill(
        "List z 10. novembra" if language == "sk" else "Letter of 10 November"
    )
    double_tap(page, "form.stack button[type=submit].danger")
    page.wait_for_selector(f"text={words['erased']}")
    assert PlayerErasure.objects.count() == 1
    assert page.locator(".messages li").count() == 1  # one erasure, said once
    assert AuditRecord.objects.filter(action="player.erase").count() == 1
    card = page.inner_text("main")
    assert f"Anonym {player.pk}" in card and "Šťastný" not in card and "Kobra" not in card
    assert words["sealed"] in card
    screenshot(page, f"player-data-erased-card-{language}-1280x800")

    # The public tournament page names the winner by the pseudonym.
    public = page.context.browser.new_context(viewport={"width": 390, "height": 844})
    try:
        phone = public.new_page()
        phone.goto(f"{live_server.url}/room/tournaments/{history.tournament.pk}/")
        text = phone.inner_text("body")
        assert f"Anonym {player.pk}" in text and "Kobra" not in text and "Šťastný" not in text
    finally:
        public.close()

    page.get_by_role("link", name=words["read"]).click()
    page.get_by_label(words["why"]).fill("Finančná polícia 17/2026")
    page.get_by_role("button", name=words["read"]).click()
    page.wait_for_selector("text=EA123456")
    assert "Šťastný" in page.inner_text("main")
    screenshot(page, f"player-data-sealed-identity-{language}-1280x800")
    assert AuditRecord.objects.get(action="player.identity_read").note == "Finančná polícia 17/2026"

    # Not a single posting changed, and the books agree as they did before.
    assert (
        list(Posting.objects.order_by("pk").values()),
        list(Entry.objects.order_by("pk").values()),
    ) == ledger
    books_agree()
