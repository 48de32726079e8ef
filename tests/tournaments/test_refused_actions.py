"""No tournament page offers a tap the rules will refuse (TRN-1, TRN-6, TRN-8, TRN-9, TRN-10):
every one-tap action a page offers (a form with nothing to type) is carried out when tapped, in
each state a tournament passes through; an action the state refuses is shown greyed out, with
the service's own reason in words and no rule ID in the text."""

import random
import re
from datetime import timedelta
from html.parser import HTMLParser

import pytest
from django.db import transaction
from django.utils import timezone

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from tests.tournaments.factories import seat_players
from tournaments.models import Entry, MoveSlip
from tournaments.services import clock
from tournaments.services.payouts import entry_bust
from tournaments.services.registration import tournament_start
from tournaments.services.seating import seating_draw, seating_final_table_draw
from tournaments.services.tournaments import tournament_cancel, tournament_finish

pytestmark = pytest.mark.django_db

PAGES = ["", "entries/", "seating/", "bust/", "payouts/", "levels/", "colour-up/"]
RULE_ID = re.compile(r"\b(TRN|CHP|CAG|CSH)-\d+\b")


class OneTapForms(HTMLParser):
    """The page's POST forms with nothing to type: (action, hidden data, enabled buttons)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms: list[dict] = []
        self.disabled: list[str] = []
        self._form: dict | None = None
        self._button: dict | None = None

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        if tag == "form" and values.get("method") == "post":
            self._form = {"action": values.get("action", ""), "data": {}, "buttons": [], "typed": False}
        elif tag == "button" and "disabled" in values:
            self._button = {"disabled": True, "label": ""}
        elif self._form is not None and tag == "button" and values.get("type", "submit") == "submit":
            self._button = {"name": values.get("name"), "value": values.get("value", ""), "label": ""}
        elif self._form is not None and tag in ("input", "select", "textarea"):
            if tag == "input" and values.get("type") == "hidden":
                self._form["data"][values["name"]] = values.get("value", "")
            else:
                self._form["typed"] = True

    def handle_data(self, data):
        if self._button is not None:
            self._button["label"] += data

    def handle_endtag(self, tag):
        if tag == "button" and self._button is not None:
            button, self._button = self._button, None
            if button.get("disabled"):
                self.disabled.append(" ".join(button["label"].split()))
            elif self._form is not None:
                self._form["buttons"].append(button)
        elif tag == "form" and self._form is not None:
            if not self._form["typed"]:
                self.forms.append(self._form)
            self._form = None


def one_tap_actions(client, tournament) -> tuple[list[tuple[str, dict, str]], list[str]]:
    """Every one-tap action the tournament's floor pages offer, and the greyed-out labels."""
    actions, disabled = [], []
    seated = tournament.entries.filter(status="active", table__isnull=False).order_by("pk").first()
    urls = [f"/tournaments/{tournament.pk}/{page}" for page in PAGES]
    if seated is not None:
        urls.append(f"/tournaments/{tournament.pk}/seating/?seat={seated.pk}")
    for url in urls:
        page = client.get(url)
        assert page.status_code == 200, url
        html = page.content.decode()
        text = re.sub(r"<[^>]+>", " ", re.sub(r"<(script|style)[^>]*>.*?</\1>", "", html, flags=re.S))
        assert not RULE_ID.search(text), (url, RULE_ID.search(text))
        parser = OneTapForms()
        parser.feed(html)
        disabled += parser.disabled
        for form in parser.forms:
            if not form["action"].startswith(f"/tournaments/{tournament.pk}/"):
                continue
            for button in form["buttons"]:
                data = dict(form["data"])
                if button.get("name"):
                    data[button["name"]] = button["value"]
                actions.append((form["action"], data, " ".join(button["label"].split())))
    return actions, disabled


class Rollback(Exception):
    pass


def refusals_of(client, actions) -> list[tuple[str, str]]:
    """Tap each action on the same state (each undone after), and what the page said no to."""
    refused = []
    for action, data, label in actions:
        try:
            with transaction.atomic():
                answer = client.post(action, data, follow=True)
                html = answer.content.decode()
                errors = re.findall(r'<li class="error"[^>]*>(.*?)</li>', html, flags=re.S)
                if answer.status_code >= 400 or errors:
                    refused.append((label, answer.status_code, errors))
                raise Rollback
        except Rollback:
            pass
    return refused


def registering_short(make_tournament, register, floor):
    tournament = make_tournament(min_players=3, late_registration_level=2)
    register(tournament), register(tournament)
    seating_draw(actor=floor, tournament=tournament, rng=random.Random(1))
    return tournament


def registering_ready(make_tournament, register, floor):
    tournament = make_tournament(min_players=3, late_registration_level=2)
    for _ in range(3):
        register(tournament)
    return tournament


def running_with_moves(make_tournament, register, floor):
    tournament = make_tournament(min_players=3, late_registration_level=3, table_size=9)
    for _ in range(12):
        register(tournament)
    tournament_start(actor=floor, tournament=tournament, now=timezone.now(), rng=random.Random(3))
    first = Entry.objects.filter(tournament=tournament).order_by("pk").first().table_id
    out = list(Entry.objects.filter(table_id=first, status="active").order_by("seat"))[:2]
    entry_bust(actor=floor, tournament=tournament, busted=[(out[0].pk, 100), (out[1].pk, 200)])
    assert MoveSlip.objects.filter(confirmed_at__isnull=True).exists()
    return tournament


def running_last_level(make_tournament, register, floor):
    tournament = make_tournament(min_players=3, late_registration_level=0)
    for _ in range(4):
        register(tournament)
    tournament_start(actor=floor, tournament=tournament, now=timezone.now(), rng=random.Random(3))
    for _ in range(tournament.levels.count() - 1):
        clock.clock_next_level(actor=floor, tournament=tournament)
    return tournament


def final_table(make_tournament, register, floor):
    tournament = make_tournament(min_players=3, late_registration_level=0, table_size=6)
    for _ in range(8):
        register(tournament)
    tournament_start(actor=floor, tournament=tournament, now=timezone.now(), rng=random.Random(3))
    out = list(Entry.objects.filter(tournament=tournament).order_by("pk"))[:2]
    entry_bust(actor=floor, tournament=tournament, busted=[(out[0].pk, 100), (out[1].pk, 200)])
    seating_final_table_draw(actor=floor, tournament=tournament, rng=random.Random(4))
    return tournament


def finished(make_tournament, register, floor):
    tournament = running_last_level(make_tournament, register, floor)
    return tournament_finish(actor=floor, tournament=tournament)


def cancelled(make_tournament, register, floor):
    tournament = registering_short(make_tournament, register, floor)
    return tournament_cancel(actor=floor, tournament=tournament)


@pytest.mark.parametrize(
    "state",
    [
        registering_short,
        registering_ready,
        running_with_moves,
        running_last_level,
        final_table,
        finished,
        cancelled,
    ],
    ids=lambda state: state.__name__,
)
def test_no_page_offers_a_tap_the_rules_refuse__TRN_1_TRN_8_TRN_9_TRN_10(
    client, floor, make_tournament, register, state
):
    tournament = state(make_tournament, register, floor)
    client.force_login(floor)
    actions, _disabled = one_tap_actions(client, tournament)
    assert actions or tournament.status in ("finished", "cancelled")
    assert refusals_of(client, actions) == []


def test_short_field_start_and_bust_before_the_clock_are_greyed_out__TRN_1_TRN_10(
    client, floor, make_tournament, register
):
    tournament = registering_short(make_tournament, register, floor)
    client.force_login(floor)
    actions, disabled = one_tap_actions(client, tournament)
    assert {"Start the clock", "Bust", "Record bust-out", "Undo last bust-out", "Finalise payouts"} <= set(
        disabled
    )
    assert not any(label in ("Start the clock", "Bust", "Final table draw") for _a, _d, label in actions)
    dashboard = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert (
        "Only 2 players are registered; this tournament needs at least 3 to start. "
        "Postpone the start or cancel the tournament."
    ) in dashboard
    seated = tournament.entries.filter(table__isnull=False).first()
    panel = client.get(
        f"/tournaments/{tournament.pk}/seating/", {"seat": seated.pk}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "Bust-outs are recorded while the tournament runs." in panel
    assert "/seating/bust/" not in panel and "Another player is out in this hand" not in panel


def test_the_reason_shown_is_the_one_the_service_gives__TRN_1(client, floor, make_tournament, register):
    tournament = registering_short(make_tournament, register, floor)
    records = AuditRecord.objects.count()
    with pytest.raises(DomainError) as refused:
        tournament_start(actor=floor, tournament=tournament)
    assert refused.value.rule == "TRN-1"
    client.force_login(floor)
    assert refused.value.message in client.get(f"/tournaments/{tournament.pk}/").content.decode()
    tournament.refresh_from_db()
    assert (tournament.status, AuditRecord.objects.count()) == ("registering", records)


def test_clock_steps_greyed_out_at_the_first_and_last_level__TRN_8(client, floor, make_tournament, register):
    tournament = running_last_level(make_tournament, register, floor)
    client.force_login(floor)
    _actions, disabled = one_tap_actions(client, tournament)
    assert "Next level" in disabled and "Previous level" not in disabled
    assert "This is the last level." in client.get(f"/tournaments/{tournament.pk}/").content.decode()


def test_minus_a_minute_greyed_out_with_less_than_a_minute_left__TRN_8(
    client, floor, make_tournament, register
):
    tournament = make_tournament(min_players=2, levels=[(25, 50, 45), (50, 100, 600)])
    register(tournament), register(tournament)
    tournament_start(actor=floor, tournament=tournament, now=timezone.now() - timedelta(seconds=5))
    client.force_login(floor)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    # 45-second level started 5 seconds ago: 40 seconds left, less the time the test took.
    left = re.search(r"Only (\d+) seconds are left in this level; go to the next level instead\.", page)
    assert left and 0 < int(left.group(1)) <= 40
    _actions, disabled = one_tap_actions(client, tournament)
    assert "−1 min" in disabled and "+1 min" not in disabled


def test_final_table_draw_is_refused_before_the_clock__TRN_9(floor, make_tournament, register):
    tournament = registering_short(make_tournament, register, floor)
    before = (MoveSlip.objects.count(), AuditRecord.objects.count())
    with pytest.raises(DomainError) as refused:
        seating_final_table_draw(actor=floor, tournament=tournament)
    assert (refused.value.code, refused.value.rule) == ("tournament_not_running", "TRN-9")
    assert (MoveSlip.objects.count(), AuditRecord.objects.count()) == before


def test_seat_draw_greyed_out_with_no_one_registered__TRN_9(client, floor, make_tournament):
    tournament = make_tournament()
    client.force_login(floor)
    page = client.get(f"/tournaments/{tournament.pk}/seating/").content.decode()
    assert "No one is registered yet." in page and "/seating/draw/" not in page
    seat_players(tournament, 2)
    assert "/seating/draw/" in client.get(f"/tournaments/{tournament.pk}/seating/").content.decode()
