"""The loyalty pages (LOY-1): the player card's points and comp form, the settings page, the
player's private page, and the desk's and the waiting page's links to them."""

import re
from datetime import timedelta

from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from cardroom.models import AuditRecord
from cashgame.services.waiting import waiting_add
from cashgame.services.waiting_remote import status_token
from loyalty.models import EarnRate, LoyaltySettings, Movement, Tier
from loyalty.selectors import player_link_token
from loyalty.services import points_award_due, tier_save
from reports.selectors.books import books_problems
from tests.factories import PlayerFactory
from tests.loyalty.conftest import NOW, session_played


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _earned(player, table, minutes=600):
    session_played(player, table, NOW - timedelta(days=3), minutes)
    points_award_due(now=NOW)


def test_player_card_shows_points_and_redeems_a_voucher_LOY_1(cashier, manager, terms, table, player):
    tier_save(actor=manager, name="Silver", min_points=50, now=NOW)
    _earned(player, table)
    page = _client(cashier).get(reverse("players:detail", args=[player.pk])).content.decode()
    assert "<strong>100</strong> (1.00 EUR)" in page
    assert "Silver" in page and "100 points in the last 90 days" in page
    key = re.search(r'name="idempotency_key" value="([^"]+)"', page).group(1)
    response = _client(cashier).post(
        reverse("loyalty:redeem", args=[player.pk]),
        {"comp": "voucher", "value": "0,40", "idempotency_key": key},
    )
    assert response.status_code == 302
    assert Movement.objects.get(kind="voucher").points == -40
    # The same page tapped twice: one voucher.
    _client(cashier).post(
        reverse("loyalty:redeem", args=[player.pk]),
        {"comp": "voucher", "value": "0,40", "idempotency_key": key},
    )
    assert Movement.objects.filter(kind="voucher").count() == 1
    page = _client(cashier).get(reverse("players:detail", args=[player.pk])).content.decode()
    assert "<strong>60</strong> (0.60 EUR)" in page
    assert "Food and drink voucher" in page
    assert books_problems() == []


def test_player_card_refused_comp_is_a_disabled_button_with_the_reason_LOY_1(floor, terms, player):
    page = _client(floor).get(reverse("players:detail", args=[player.pk])).content.decode()
    assert 'disabled aria-describedby="why-redeem"' in page
    assert "No points to redeem." in page
    assert 'action="/loyalty/players/' not in page.split("why-redeem")[0][-400:]


def test_page_refusal_writes_nothing_LOY_1(cashier, terms, table, player):
    _earned(player, table)
    movements = Movement.objects.count()
    response = _client(cashier).post(
        reverse("loyalty:redeem", args=[player.pk]),
        {"comp": "voucher", "value": "abc", "idempotency_key": "page-refused-0001"},
        follow=True,
    )
    assert "Voucher value is not a number" in response.content.decode()
    assert Movement.objects.count() == movements


def test_settings_page_edits_rates_tiers_and_terms_LOY_1(manager, game):
    client = _client(manager)
    venue_page = client.get(reverse("venue-settings")).content.decode()
    assert f'<a href="{reverse("loyalty:settings")}">Loyalty settings</a>' in venue_page
    assert client.get(reverse("loyalty:settings")).status_code == 200
    form = {
        "action": "settings",
        "default_points_per_hour": "12",
        "entry_points": "5",
        "entry_points_per_100_eur": "1",
        "value_cents": "1",
        "value_points": "2",
        "tier_period_days": "60",
        "expiry_months": "12",
    }
    assert client.post(reverse("loyalty:settings"), form).status_code == 302
    assert LoyaltySettings.objects.get().value_points == 2
    client.post(reverse("loyalty:settings"), {"action": "rate", "game": game.pk, "points_per_hour": "30"})
    assert EarnRate.objects.get(game=game).points_per_hour == 30
    client.post(reverse("loyalty:settings"), {"action": "tier", "name": "Gold", "min_points": "500"})
    assert list(Tier.objects.values_list("name", "min_points")) == [("Gold", 500)]
    assert set(
        AuditRecord.objects.filter(action__startswith="loyalty.").values_list("action", flat=True)
    ) == {
        "loyalty.settings",
        "loyalty.rate",
        "loyalty.tier",
    }


def test_private_page_in_english_and_slovak_and_revocable_LOY_1(cashier, manager, terms, table, player):
    tier_save(actor=manager, name="Gold", min_points=500, now=NOW)
    _earned(player, table)
    url = reverse("loyalty_room:me", args=[player_link_token(player_id=player.pk)])
    page = Client().get(url).content.decode()
    assert "100 points" in page and "Worth 1.00 EUR in comps" in page and "400 points to Gold" in page
    slovak = Client().get(url + "?lang=sk").content.decode()
    assert "Moje body" in slovak
    translation.activate("en")
    assert Client().get(url[:-5] + "xxxx/").status_code == 404
    _client(cashier).post(reverse("loyalty:link-revoke", args=[player.pk]))
    assert Client().get(url).status_code == 404
    assert (
        Client().get(reverse("loyalty_room:me", args=[player_link_token(player_id=player.pk)])).status_code
        == 200
    )


def test_waiting_page_links_a_known_player_to_his_points_LOY_1(floor, game, player):
    entry = waiting_add(actor=floor, game=game, player=player, now=timezone.now())
    page = (
        Client()
        .get(reverse("wait:status", args=[status_token([entry.pk], now=timezone.now())]))
        .content.decode()
    )
    mine = reverse("loyalty_room:me", args=[player_link_token(player_id=player.pk)])
    assert f'href="{mine}">My points</a>' in page
    stranger = waiting_add(actor=floor, game=game, player=PlayerFactory(), now=timezone.now())
    stranger.player = None
    page = (
        Client()
        .get(reverse("wait:status", args=[status_token([stranger.pk], now=timezone.now())]))
        .content.decode()
    )
    assert "My points" not in page or stranger.player_id is None


def test_cage_desk_shows_the_points_LOY_1(cashier, terms, table, player):
    from cashier.services import shift_open

    _earned(player, table)
    shift_open(actor=cashier, opening_float_cents=0, now=NOW)
    page = _client(cashier).get("/cashier/", {"player": player.pk}).content.decode()
    assert "100 (1.00 EUR)" in page


def test_player_card_offers_only_tickets_he_can_buy_LOY_1(floor, terms, table, player, tournament):
    from tests.tournaments.factories import TournamentFactory
    from tournaments.models import Ticket

    _earned(player, table)  # 100 points
    cheap = TournamentFactory(name="Freeroll plus", prize_cents=40, fee_cents=10, levels=[(25, 50, 600)])
    page = _client(floor).get(reverse("players:detail", args=[player.pk])).content.decode()
    assert f'<option value="{tournament.pk}" disabled>' in page and "10000 points (not enough points)" in page
    assert f'<option value="{cheap.pk}">Freeroll plus' in page and "0.50 EUR · 50 points</option>" in page
    _client(floor).post(
        reverse("loyalty:redeem", args=[player.pk]),
        {"comp": "ticket", "tournament": cheap.pk, "idempotency_key": "page-ticket-0001"},
    )
    ticket = Ticket.objects.get()
    assert (ticket.tournament_id, ticket.source, ticket.value_cents) == (cheap.pk, "loyalty", 50)
    assert Movement.objects.get(kind="ticket").balance_after == 50
    assert books_problems() == []
