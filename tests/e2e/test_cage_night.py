"""Browser journeys of the cage on a busy night (CAG-2 to CAG-6, CHP-2): players the floor seated
come to the cage and the cashier types only the amount, `1,500` on the English page and
`1 500,50` on the Slovak one, each read back before the second tap, the first one tapped twice;
every sale says its receipt, amount, player, table and seat with a print link, and takes its
chips from the cage. Then a shift counted 100.00 EUR short is counted once more before it
closes, and its page shows expected, counted and variance. Each journey ends with the books
checked, in this process and by `manage.py check_books`."""

import pytest
from django.core.management import call_command
from django.db.models import Sum
from django.utils import timezone

from cashgame.models import PlayerSession
from cashgame.services.hands import hand_start
from cashgame.services.sessions import session_buy_in, session_seat, session_state_change
from cashier.models import CashierTransaction, Shift
from cashier.services import shift_open
from chips.models import ChipAccountKind, ChipEntry
from reports.selectors.books import books_problems
from tests.cashgame.conftest import make_game, make_table
from tests.conftest import PASSWORD
from tests.e2e.conftest import double_tap, log_in, screenshot
from tests.factories import CAGE_STOCK, PlayerFactory, cage_stock

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SELL = "#action-buy-in > button[type=submit].big"
CONFIRM = "#action-buy-in .confirm-box button[type=submit]"


def chips(kind: str) -> dict[int, int]:
    rows = (
        ChipEntry.objects.filter(account__kind=kind)
        .values("denomination__value")
        .annotate(total=Sum("quantity"))
    )
    return {row["denomination__value"]: row["total"] for row in rows if row["total"]}


def books_agree() -> None:
    assert books_problems() == []
    call_command("check_books")  # exits non-zero on any difference


def text(page, selector: str) -> str:
    """What the page shows, a Slovak number's no-break space read as a space."""
    return page.inner_text(selector).replace("\xa0", " ")


def open_player(page, card: str, player) -> None:
    page.fill("#player-search", card)
    page.press("#player-search", "Enter")
    page.wait_for_url(f"**/cashier/?player={player.pk}")


def test_the_floors_players_buy_in_typing_only_the_amount__CAG_2_CAG_4_CAG_5_CAG_6_CHP_2(
    page, live_server, cashier, floor
):
    now = timezone.now()
    cage_stock(cashier, now=now)
    shift_open(actor=cashier, opening_float_cents=100_000, now=now)
    table = make_table(
        make_game(name="NLHE 5/10", small=500, big=1_000, min_buy_in=50_000, max_buy_in=300_000), 4
    )
    eva = PlayerFactory(first_name="Eva", last_name="Malá", card_number="515151", id_verified_at=now)
    jan = PlayerFactory(first_name="Ján", last_name="Šťastný", card_number="424242", id_verified_at=now)
    session_seat(actor=floor, table=table, player=eva, seat=2, now=now)
    session_seat(actor=floor, table=table, player=jan, seat=5, now=now)
    log_in(page, live_server, "cashier1", PASSWORD)
    page.goto(f"{live_server.url}/cashier/")

    # Eva, seated by the floor: her table and seat are on her card and on the action, and the
    # cursor is in the amount, the one thing the cashier types.
    open_player(page, "515151", eva)
    assert "Table 4, seat 2" in page.inner_text("#player-card")
    assert page.inner_text("#action-buy-in h3") == "Buy-in at Table 4, seat 2"
    assert page.evaluate("document.activeElement.id") == "id_buy-in_amount"
    assert page.locator("#action-buy-in input:visible").count() == 1  # the amount, nothing else
    page.keyboard.type("1,500")
    page.click(SELL)
    box = page.inner_text(".confirm-box")
    assert "1,500.00 EUR" in box and "one thousand, five hundred euro" in box
    assert not CashierTransaction.objects.exists()
    double_tap(page, CONFIRM)  # the second tap while the first is on its way: paid once
    page.wait_for_url(f"**/cashier/?player={eva.pk}&done=*")
    done = page.inner_text("#done")
    assert "Receipt 1 · Cash-game buy-in 1,500.00 EUR · Eva Malá · Table 4, seat 2" in done
    assert page.get_attribute("#done a.print-link", "href").endswith("?print=1")
    assert CashierTransaction.objects.filter(player=eva).count() == 1
    assert page.locator("#action-top-up").is_visible() and page.locator("#action-cash-out").is_visible()
    # 1,500.00 EUR handed out as 15 black 100.00 EUR chips (none worth more than a quarter).
    assert chips(ChipAccountKind.HANDS) == {10000: 15}
    assert "Chips in the cage: 265,500.00 EUR" in page.inner_text(".heading-row")
    screenshot(page, "cage-desk-after-sale-1280")
    page.set_viewport_size({"width": 1920, "height": 1080})
    screenshot(page, "cage-desk-after-sale-1920")
    page.set_viewport_size({"width": 1280, "height": 800})

    # Ján on the Slovak page: 1 500,50 with a space and a decimal comma.
    page.click("form.lang button[value=sk]")
    page.wait_for_function("document.documentElement.lang === 'sk'")
    open_player(page, "424242", jan)
    assert page.inner_text("#action-buy-in h3") == "Vklad: Stôl 4, miesto 5"
    page.keyboard.type("1 500,50")
    page.click(SELL)
    assert "1 500,50 EUR" in text(page, ".confirm-box")
    page.click(CONFIRM)
    page.wait_for_url(f"**/cashier/?player={jan.pk}&done=*")
    done = text(page, "#done")
    assert "Doklad 2 · Vklad do cash hry 1 500,50 EUR · Ján Šťastný · Stôl 4, miesto 5" in done
    assert "Vytlačiť doklad 2" in done
    screenshot(page, "cage-desk-after-sale-sk-1280")
    assert chips(ChipAccountKind.HANDS) == {50: 1, 10000: 30}
    assert chips(ChipAccountKind.CAGE) == {**CAGE_STOCK, 50: 1999, 10000: 970}

    records = list(CashierTransaction.objects.order_by("receipt_number"))
    assert [(r.receipt_number, r.player_id, r.amount_cents) for r in records] == [
        (1, eva.pk, 150_000),
        (2, jan.pk, 150_050),
    ]
    sessions = {s.player_id: s for s in PlayerSession.objects.all()}
    assert (sessions[eva.pk].seat, sessions[eva.pk].buy_in_cents) == (2, 150_000)
    assert (sessions[jan.pk].seat, sessions[jan.pk].buy_in_cents) == (5, 150_050)

    # A hand starts at table 4 with both of them: no button the rules would refuse, the reason
    # in its place.
    for session in PlayerSession.objects.all():
        session_state_change(actor=floor, session=session, action="posted", now=now)
    hand_start(actor=floor, table=table, seats=[2, 5], now=now)
    page.click("form.lang button[value=en]")
    page.wait_for_function("document.documentElement.lang === 'en'")
    page.goto(f"{live_server.url}/cashier/?player={eva.pk}")
    assert "A hand is in progress at Table 4: top up when it ends." in page.inner_text("#action-top-up")
    assert "Eva Malá is dealt in the hand in progress at Table 4" in page.inner_text("#action-cash-out")
    assert page.locator("#action-top-up button").is_disabled()
    assert page.locator("#action-cash-out button").is_disabled()
    screenshot(page, "cage-desk-refused-during-a-hand-1280")
    page.goto(f"{live_server.url}/cashier/?player={jan.pk}&done={records[1].pk}")

    # The print link opens the receipt.
    page.click("#done a.print-link")
    page.wait_for_url("**/cashier/receipts/**?print=1")
    assert "Receipt 2" in text(page, "article.receipt") and "1,500.50 EUR" in text(page, "article.receipt")
    books_agree()


def test_a_shift_counted_too_far_off_is_counted_once_more_then_shows_the_variance__CAG_3(
    page, live_server, cashier
):
    now = timezone.now()
    cage_stock(cashier, now=now)
    shift = shift_open(actor=cashier, opening_float_cents=50_000, now=now)
    session_buy_in(
        actor=cashier,
        shift=shift,
        table=make_table(make_game(), 1),
        player=PlayerFactory(id_verified_at=now),
        seat=1,
        amount_cents=20_000,
        idempotency_key="night-buy-in-0001",
        now=now,
    )
    log_in(page, live_server, "cashier1", PASSWORD)
    page.goto(f"{live_server.url}/cashier/shifts/{shift.pk}/close/")

    # 700.00 EUR expected; the cashier counts 600.00 (6 x 100): 100.00 short, over 5.00 EUR.
    page.fill("#id_d_10000", "6")
    assert page.inner_text("#running-total") == "600.00 EUR"
    page.click("#count-form > button[type=submit]")
    page.wait_for_url(f"**/cashier/shifts/{shift.pk}/close/")
    recount = page.inner_text("#recount")
    assert "Count the drawer once more." in recount and "more than 5.00 EUR" in recount
    assert "First count: 600.00 EUR" in recount
    assert "700.00" not in page.inner_text("main")  # still blind: no expected figure
    assert Shift.objects.get().status == "open"
    screenshot(page, "cage-shift-recount-1280")
    page.click("form.lang button[value=sk]")
    page.wait_for_function("document.documentElement.lang === 'sk'")
    assert "Spočítajte zásuvku ešte raz." in text(page, "#recount")
    assert "Prvé napočítanie: 600,00 EUR" in text(page, "#recount")
    screenshot(page, "cage-shift-recount-sk-1280")
    page.click("form.lang button[value=en]")
    page.wait_for_function("document.documentElement.lang === 'en'")

    # The recount finds the 100.00 EUR note in the wrong slot, and a 0.50 EUR coin is missing.
    page.fill("#id_d_10000", "6")
    page.fill("#id_d_5000", "1")
    page.fill("#id_d_2000", "2")
    page.fill("#id_d_200", "4")
    page.fill("#id_d_100", "1")
    page.fill("#id_d_20", "2")
    page.fill("#id_d_10", "1")
    assert page.inner_text("#running-total") == "699.50 EUR"
    page.click("#count-form > button[type=submit]")
    page.wait_for_url(f"**/cashier/shifts/{shift.pk}/")
    facts = page.inner_text("dl.facts")
    assert "Expected\n700.00 EUR" in facts and "Counted\n699.50 EUR" in facts
    assert "Variance\n-0.50 EUR" in facts and "First count\n600.00 EUR" in facts
    assert "Shift closed: counted 699.50 EUR, expected 700.00 EUR, variance -0.50 EUR." in page.inner_text(
        "ul.messages"
    )
    screenshot(page, "cage-shift-closed-after-recount-1280")
    shift = Shift.objects.get()
    assert (shift.status, shift.expected_cents, shift.counted_cents, shift.variance_cents) == (
        "closed",
        70_000,
        69_950,
        -50,
    )
    assert shift.first_count_cents == 60_000
    books_agree()
