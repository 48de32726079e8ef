"""Browser journey (ROL-2): a manager pairs a tablet to table 7 with a code shown once; the tablet
logs one hand with one tap per step (New hand, Flop dealt, End hand after typing the pot); the
rake and drop are exact (RAK-3, JKP-2) and the books agree at the end (CAG-6)."""

import pytest
from django.utils import timezone

from cashgame.models import Hand
from cashgame.services.sessions import session_buy_in, session_state_change
from cashier.models import AccountKind
from cashier.selectors import account_amount, jackpot_fund_balance
from cashier.services import shift_open
from devices.models import Device
from reports.selectors.books import books_problems
from tests.cashgame.conftest import make_game, make_table
from tests.conftest import PASSWORD
from tests.e2e.conftest import log_in, menu_go, screenshot
from tests.factories import PlayerFactory, cage_stock

pytestmark = [pytest.mark.e2e, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def tap_targets_below_44px(page) -> list[str]:
    return page.evaluate(
        """() => [...document.querySelectorAll("button, a.button, label.seat, summary")]
            .filter((el) => el.offsetParent !== null)
            .map((el) => [el.textContent.trim().slice(0, 30), el.getBoundingClientRect()])
            .filter(([, box]) => box.width < 44 || box.height < 44)
            .map(([text, box]) => `${text}: ${box.width}x${box.height}`)"""
    )


def test_tablet_paired_and_one_hand_logged_one_tap_per_step__ROL_2_RAK_3_JKP_2(
    browser, page, live_server, floor, cashier, manager
):
    now = timezone.now()
    table = make_table(make_game(), number=7)
    cage_stock(cashier)  # the cage's chips, which follow the cash (CHP-2)
    shift = shift_open(actor=cashier, opening_float_cents=100_000)

    def buy_in(seat: int, name: str):
        return session_buy_in(
            actor=cashier,
            shift=shift,
            table=table,
            player=PlayerFactory(first_name=name, nickname="", id_verified_at=now),
            seat=seat,
            amount_cents=10_000,
            idempotency_key=f"e2e-tablet-buy-in-{seat}",
        )

    for seat, name in enumerate(["Anna", "Boris", "Cyril", "Dana"], start=1):
        session_state_change(actor=floor, session=buy_in(seat, name), action="posted")

    # The manager shows a code for table 7.
    log_in(page, live_server, "manager1", PASSWORD)
    menu_go(page, "Dealers", "Dealer tablets")
    page.select_option("select[name=table]", str(table.pk))
    page.get_by_role("button", name="Show a pairing code").click()
    code = page.inner_text("p.code").strip()
    screenshot(page, "tablet-pairing-code-manager")

    tablet_context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    tablet = tablet_context.new_page()
    tablet.set_default_timeout(10_000)
    try:
        tablet.goto(f"{live_server.url}/tablet/")
        tablet.wait_for_url("**/tablet/pair/")
        tablet.fill("input[name=code]", "ZZZZ-ZZZZ")
        tablet.get_by_role("button", name="Pair", exact=True).click()
        tablet.wait_for_selector("text=This pairing code is not right")
        screenshot(tablet, "tablet-pairing-wrong-code")
        tablet.fill("input[name=code]", code)
        tablet.get_by_role("button", name="Pair", exact=True).click()
        tablet.wait_for_url("**/tablet/")
        assert tablet.locator("nav").count() == 0  # no menu
        assert tablet.locator("label.seat.playing").count() == 4
        assert tap_targets_below_44px(tablet) == []
        screenshot(tablet, "tablet-between-hands-1280x800")

        taps = 0
        # The game's first hand: the dealer taps the seat that won the button draw (HND-2).
        tablet.locator("label.seat:has(.seat-no:text-is('1'))").click()
        taps += 1
        tablet.get_by_role("button", name="New hand", exact=True).click()
        taps += 1
        tablet.wait_for_selector("text=Hand 1 dealt.")
        assert tablet.locator(".seat.dealt").count() == 4
        screenshot(tablet, "tablet-hand-in-progress-1280x800")
        tablet.get_by_role("button", name="Flop dealt", exact=True).click()
        taps += 1
        tablet.wait_for_selector("text=Hand 1: flop dealt")
        tablet.fill("input[name=pot]", "87")
        assert tap_targets_below_44px(tablet) == []
        tablet.get_by_role("button", name="End hand", exact=True).click()
        taps += 1
        tablet.wait_for_selector("text=Hand 1 ended: pot 87.00 EUR, rake 4.00 EUR, jackpot drop 1.00 EUR.")
        assert taps == 4  # the drawn button's seat, then one per step: deal, flop, end
        screenshot(tablet, "tablet-hand-ended-1280x800")
        # Emil sits down after the game's first hand: he waits for the button (CSH-6), not dealt in.
        buy_in(5, "Emil")
        tablet.wait_for_selector(".seat.waiting:has-text('Emil')")  # the drawing polls every 5 s

        # A misdeal on the next hand asks first; shown at portrait size.
        tablet.set_viewport_size({"width": 800, "height": 1280})
        tablet.get_by_role("button", name="New hand", exact=True).click()
        tablet.wait_for_selector("text=Hand 2 dealt.")
        tablet.get_by_role("link", name="Misdeal").click()
        tablet.wait_for_selector("text=Misdeal: void hand 2?")
        assert tap_targets_below_44px(tablet) == []
        screenshot(tablet, "tablet-misdeal-confirm-800x1280")
        tablet.get_by_role("button", name="Yes, void hand 2").click()
        tablet.wait_for_selector("text=Hand 2 is void")
        screenshot(tablet, "tablet-between-hands-800x1280")

        # Every other page sends the tablet back to its page.
        tablet.goto(f"{live_server.url}/reports/")
        tablet.wait_for_url("**/tablet/")
    finally:
        tablet_context.close()

    hand = Hand.objects.get(table=table, number=1)
    device = Device.objects.get()
    assert (hand.dealt_seats, hand.pot_cents, hand.rake_cents, hand.jackpot_drop_cents) == (
        [1, 2, 3, 4],
        8_700,
        400,
        100,
    )
    assert (hand.started_by, hand.ended_by) == (device.user, device.user)
    second = Hand.objects.get(table=table, number=2)
    assert (second.status, second.dealt_seats) == ("voided", [1, 2, 3, 4])
    assert account_amount(kind=AccountKind.RAKE_REVENUE) == 400
    assert jackpot_fund_balance() == 100
    assert books_problems() == []
