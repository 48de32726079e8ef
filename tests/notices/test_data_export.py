"""GDP-1 covers what NOT-1 and LOY-1 keep about a player: his consent to notices (the words he
agreed to, the SMS number, the phones by their push service's host), the notices sent, and his
loyalty points, in the export's JSON and in its CSV and XLSX tables."""

from datetime import datetime, timedelta

import pytest
from django.utils import timezone, translation

from cardroom.selectors import venue_zone
from cashier.services import shift_open
from loyalty.services import loyalty_settings_update, points_award_due
from notices.services import consent_give, consent_text, notices_tournament_start, subscription_add
from players.selectors.data_export import player_data_document, player_data_tables
from tests.cashgame.conftest import make_game, make_table
from tests.loyalty.conftest import session_played
from tests.notices.push_service import LocalPushService
from tests.tournaments.conftest import LEVELS
from tests.tournaments.factories import TournamentFactory
from tournaments.services.registration import entry_register

pytestmark = pytest.mark.django_db
FCM = "https://fcm.googleapis.com/fcm/send/"
KEYS = LocalPushService()


def test_the_export_names_his_notice_consent_the_notices_and_his_points__NOT_1_GDP_1(
    member, member_token, manager, cashier
):
    now = datetime(2026, 11, 20, 19, 0, tzinfo=venue_zone())
    with translation.override("en"):
        consent_give(where="me", token=member_token, consent=True, sms_number="0905 123 456", now=now)
        subscription_add(
            where="me",
            token=member_token,
            endpoint=FCM + "abc:secret",
            p256dh=KEYS.p256dh,
            auth=KEYS.auth,
            now=now,
        )
        words = consent_text()
    shift = shift_open(actor=cashier, opening_float_cents=100_000)
    tournament = TournamentFactory(levels=LEVELS, name="Friday 50")
    entry_register(
        actor=cashier, tournament=tournament, player=member, shift=shift, idempotency_key="gdp-not1-1"
    )
    tournament.status = "running"
    tournament.save(update_fields=["status"])
    with translation.override("en"):
        notices_tournament_start(tournament_id=tournament.pk, now=now + timedelta(minutes=5))
    loyalty_settings_update(actor=manager, default_points_per_hour=10, now=now)
    session_played(member, make_table(make_game()), now - timedelta(days=2), 90)
    points_award_due(now=now)

    document = player_data_document(player=member, now=now + timedelta(hours=1))
    assert document["notice_consents"] == [
        {
            "given_at": "2026-11-20T19:00:00+01:00",
            "given_on": "player_page",
            "language": "en",
            "consent_text": words,
            "sms_number": "0905123456",
            "phones": ["fcm.googleapis.com"],
            "withdrawn_at": None,
        }
    ]
    assert [(n["at"], n["channel"], n["kind"], n["title"], n["status"]) for n in document["notices"]] == [
        ("2026-11-20T19:05:00+01:00", "push", "tournament_start", "Your tournament has started", "queued"),
        ("2026-11-20T19:05:00+01:00", "sms", "tournament_start", "Your tournament has started", "queued"),
    ]
    assert [
        (m["kind"], m["points"], m["value_cents"], m["balance_after"]) for m in document["loyalty_points"]
    ] == [
        ("award", 15, 15, 15),
    ]
    tables = player_data_tables(document)
    assert tables["notice_consents"][1][0][4:6] == ["0905123456", '["fcm.googleapis.com"]']
    assert tables["loyalty_points"][0] == [
        "venue",
        "at",
        "kind",
        "points",
        "value",
        "balance_after",
        "description",
    ]
    assert "abc:secret" not in str(document) and timezone.is_aware(now)
