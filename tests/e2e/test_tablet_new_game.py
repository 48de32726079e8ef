"""Browser journeys of a new game (CSH-6, HND-2, ROL-2): the floor opens a ten-seat table, nine
players buy in, and the first hand is dealt and ended on the paired tablet with its taps alone
(the seat that won the button draw, New hand, Flop dealt, End hand), in English and in Slovak,
nobody tapped "posted" first. The tablet shows its whole table, no seat clipped, at 1280x800 and
800x1280, and no staff menu. The floor's dealer page does the same first hand. Every journey
ends with the books checked (CAG-6)."""

import pytest
from django.utils import timezone

from cashgame.models import CashTable, Hand, HandStatus, PlayerSession, SeatState, TableStatus
from cashgame.services.sessions import session_buy_in
from cashier.models import AccountKind
from cashier.selectors import account_amount
from cashier.services import shift_open
from devices.services import pairing_code_create
from reports.selectors.books import books_problems
from tests.cashgame.conftest import make_game
from tests.conftest import PASSWORD
from tests.e2e.conftest import log_in, screenshot
from tests.e2e.test_dealer_tablet import tap_targets_below_44px
from tests.factories import PlayerFactory, cage_stock

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

# Long names and the longest seat states, so that a seat as wide as it gets is drawn.
NAMES = ["Anna", "Bartolomej", "Cyril", "Dana", "Emil", "Františka", "Gregor", "Hedviga", "Ivan"]
WORDS = {
    "en": {
        "new_hand": "New hand",
        "flop": "Flop dealt",
        "end": "End hand",
        "first": "First hand of the game",
        "button_error": "Button: draw for it",
        "dealt": "Hand 1 dealt.",
        "pot": "87",
        "ended": "Hand 1 ended: pot 87.00 EUR, rake 4.00 EUR, jackpot drop 1.00 EUR.",
    },
    "sk": {
        "new_hand": "Nová hra",
        "flop": "Flop rozdaný",
        "end": "Ukončiť hru",
        "first": "Prvá hra od otvorenia stola",
        "button_error": "Button: vylosujte ho",
        "dealt": "Hra 1 rozdaná.",
        "pot": "87,00",
        "ended": "Hra 1 skončila: pot 87,00 EUR, rake 4,00 EUR, odvod do jackpotu 1,00 EUR.",
    },
}


def drawing_problems(page) -> list[str]:
    """Every seat (with its button and ring) inside the drawing and the screen, none on another,
    and no staff menu on the page."""
    return page.evaluate(
        """() => {
            const problems = [];
            const wrap = document.querySelector("#oval").getBoundingClientRect();
            const width = document.documentElement.clientWidth;
            const seats = [...document.querySelectorAll("#oval .seat")];
            const boxes = seats.map((seat) => {
                const box = seat.getBoundingClientRect();
                const button = seat.querySelector(".dealer-button");
                const shown = button && getComputedStyle(button).display !== "none";
                const all = shown ? button.getBoundingClientRect() : box;
                const name = seat.querySelector(".seat-no").textContent.trim();
                const left = Math.min(box.left, all.left) - 3, right = Math.max(box.right, all.right) + 3;
                const top = Math.min(box.top, all.top) - 3, bottom = Math.max(box.bottom, all.bottom) + 3;
                if (left < wrap.left || right > wrap.right || top < wrap.top || bottom > wrap.bottom)
                    problems.push(`seat ${name} leaves the drawing`);
                if (left < 0 || right > width) problems.push(`seat ${name} leaves the screen`);
                const name_el = seat.querySelector(".seat-name");
                if (name_el && name_el.scrollWidth > name_el.clientWidth + 1)
                    problems.push(`seat ${name}: name cut`);
                return [name, box];
            });
            for (let i = 0; i < boxes.length; i++)
                for (let j = i + 1; j < boxes.length; j++) {
                    const [a, p] = boxes[i], [b, q] = boxes[j];
                    if (p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom)
                        problems.push(`seats ${a} and ${b} overlap`);
                }
            if (wrap.bottom > window.innerHeight) problems.push("the drawing is taller than the screen");
            if (document.querySelector("nav, .topbar, .mainnav, form[action$='/logout/']"))
                problems.push("a staff menu is shown");
            if (document.documentElement.scrollWidth > width) problems.push("the page scrolls sideways");
            return problems;
        }"""
    )


def look(page, name: str) -> list[str]:
    """Photograph the page for a person to look at, then list what is wrong with its drawing."""
    screenshot(page, name)
    return drawing_problems(page)


def new_game(browser, live_server, floor_page, cashier, *, number: int) -> CashTable:
    """A closed ten-seat table that the floor opens on the tables page; nine players buy in at
    the cage and nobody taps anything for them."""
    table = CashTable.objects.create(number=number, game=make_game(), seats=10, status=TableStatus.CLOSED)
    log_in(floor_page, live_server, "floor1", PASSWORD)
    floor_page.goto(f"{live_server.url}/cashgame/")
    floor_page.locator(f"form[action='/cashgame/tables/{table.pk}/open/'] button[type=submit]").click()
    floor_page.wait_for_selector(f"text=Table {number} is open.")
    shift = shift_open(actor=cashier, opening_float_cents=100_000)
    cage_stock(cashier)  # the cage's chips, which follow the cash (CHP-2)
    for seat, name in enumerate(NAMES, start=1):
        session_buy_in(
            actor=cashier,
            shift=shift,
            table=table,
            player=PlayerFactory(first_name=name, nickname="", id_verified_at=timezone.now()),
            seat=seat,
            amount_cents=10_000,
            idempotency_key=f"e2e-new-game-{number}-{seat}",
        )
    assert set(PlayerSession.objects.filter(table=table).values_list("state", flat=True)) == {
        SeatState.WAITING_FOR_BUTTON
    }
    return table


@pytest.mark.parametrize("language", ["en", "sk"])
def test_a_new_games_first_hand_on_the_tablet_with_taps_alone__CSH_6_HND_2_ROL_2(
    browser, page, live_server, floor, cashier, manager, language
):
    words = WORDS[language]
    table = new_game(browser, live_server, page, cashier, number=12)
    _pairing, code = pairing_code_create(actor=manager, table=table)

    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    tablet = context.new_page()
    tablet.set_default_timeout(10_000)
    try:
        tablet.goto(f"{live_server.url}/tablet/pair/")
        tablet.fill("input[name=code]", code)
        tablet.get_by_role("button", name="Pair", exact=True).click()
        tablet.wait_for_url("**/tablet/")
        if language == "sk":
            tablet.get_by_role("button", name="SK", exact=True).click()
        tablet.wait_for_selector(f"text={words['first']}")
        assert tablet.locator("label.seat.playing").count() == 9
        assert tablet.locator("input[name=button_seat]:checked").count() == 0  # to be drawn
        assert look(tablet, f"tablet-new-game-{language}-1280x800") == []
        assert tap_targets_below_44px(tablet) == []
        tablet.set_viewport_size({"width": 800, "height": 1280})
        assert look(tablet, f"tablet-new-game-{language}-800x1280") == []

        # New hand before the draw's seat is tapped: the error stands by the button, nothing dealt.
        tablet.get_by_role("button", name=words["new_hand"], exact=True).click()
        tablet.wait_for_selector(f"#button-error:has-text('{words['button_error']}')")
        assert Hand.objects.filter(table=table).count() == 0
        screenshot(tablet, f"tablet-new-game-button-error-{language}-800x1280")

        taps = 0
        tablet.locator("label.seat", has=tablet.locator(".seat-no", has_text="6")).click()  # won the draw
        taps += 1
        tablet.get_by_role("button", name=words["new_hand"], exact=True).click()
        taps += 1
        tablet.wait_for_selector(f"text={words['dealt']}")
        assert tablet.locator(".seat.dealt").count() == 9
        assert look(tablet, f"tablet-new-game-first-hand-{language}-800x1280") == []
        tablet.set_viewport_size({"width": 1280, "height": 800})
        assert look(tablet, f"tablet-new-game-first-hand-{language}-1280x800") == []
        tablet.get_by_role("button", name=words["flop"], exact=True).click()
        taps += 1
        tablet.wait_for_selector("#id_pot")
        tablet.fill("#id_pot", words["pot"])
        tablet.get_by_role("button", name=words["end"], exact=True).click()
        taps += 1
        tablet.wait_for_selector(f"text={words['ended']}")
        assert taps == 4  # the button's seat, then one tap per step; no "posted" anywhere
        assert look(tablet, f"tablet-new-game-ended-{language}-1280x800") == []
    finally:
        context.close()

    hand = Hand.objects.get(table=table)
    # 5 % of 87.00 is 4.35, down to the 0.50 chip: 4.00 (RAK-3); nine dealt in at 1/2, pot over
    # 20.00: 1.00 to the jackpot (JKP-1, JKP-2).
    assert (hand.status, hand.dealt_seats, hand.button_seat, hand.pot_cents, hand.rake_cents) == (
        HandStatus.ENDED,
        list(range(1, 10)),
        6,
        8_700,
        400,
    )
    assert hand.jackpot_drop_cents == 100 and account_amount(kind=AccountKind.RAKE_REVENUE) == 400
    assert set(PlayerSession.objects.filter(table=table).values_list("state", flat=True)) == {
        SeatState.PLAYING
    }
    assert books_problems() == []


def test_a_new_games_first_hand_on_the_floors_slovak_dealer_page__CSH_6_HND_2(
    browser, page, live_server, floor, cashier
):
    table = new_game(browser, live_server, page, cashier, number=14)
    page.get_by_role("button", name="SK", exact=True).click()
    page.goto(f"{live_server.url}/cashgame/tables/{table.pk}/dealer/")
    page.wait_for_selector("text=Prvá hra od otvorenia stola")
    assert page.locator("input[name=seats]:checked").count() == 9
    screenshot(page, "sk-dealer-first-hand-1280")
    page.get_by_role("button", name="Rozdať", exact=True).click()
    page.wait_for_selector("#button-error:has-text('Button: vylosujte ho')")
    screenshot(page, "sk-dealer-first-hand-button-error-1280")
    assert Hand.objects.filter(table=table).count() == 0
    page.select_option("#id_button_seat", "3")
    page.get_by_role("button", name="Rozdať", exact=True).click()
    page.wait_for_selector("text=Hra 1 rozdaná.")
    page.get_by_role("button", name="Flop rozdaný", exact=True).click()
    page.fill("#id_pot", "1 000")  # more than the 900,00 EUR in play: refused beside the pot
    page.get_by_role("button", name="Ukončiť hru", exact=True).click()
    page.wait_for_selector("#pot-error:has-text('viac ako všetky žetóny v hre')")
    assert page.input_value("#id_pot") == "1 000"
    screenshot(page, "sk-dealer-pot-error-1280")
    page.fill("#id_pot", "87,00")
    page.get_by_role("button", name="Ukončiť hru", exact=True).click()
    page.wait_for_selector("text=Hra 1 skončila")
    hand = Hand.objects.get(table=table)
    assert (hand.dealt_seats, hand.button_seat, hand.pot_cents, hand.rake_cents, hand.jackpot_drop_cents) == (
        list(range(1, 10)),
        3,
        8_700,
        400,
        100,
    )
    assert books_problems() == []
