"""The audit trail names every action in words (cardroom/audit_actions.py): no code such as
"shift.close" is left for a manager to decode, in English or in Slovak."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from cardroom.audit_actions import ACTION_LABELS, SEAT_ACTION_LABELS, action_label, note_text
from cardroom.services import audit_record
from cashgame.models import STATE_ACTIONS
from cashier.models import TransactionKind
from chips.models import ChipPostingKind
from tournaments.models import MoveReason

ROOT = Path(settings.BASE_DIR)
APPS = ["cage", "cardroom", "cashgame", "cashier", "chips", "dealers", "devices", "screens"]
APPS += ["leagues", "loyalty", "players", "reports", "tournaments"]
# The first part of every action the services write.
PREFIXES = (
    "bag|bounty|cashgame|cashier|chips|clock|dealer|devices|entry|event|player|report|reversal|seating|shift"
    "|league|loyalty|structure|ticket|tournament|venue"
)
LITERAL = re.compile(rf"""["']((?:{PREFIXES})\.[a-z_]+)["']""")
# Literals of those shapes that are not actions: Celery task names, permissions, model labels,
# URLconf modules and attribute paths in strings.
NOT_ACTIONS = re.compile(
    r"^(cashgame\.(waiting_pass_due|waiting_reconcile|high_hand_sweep|view_\w+|cashtable|playersession|waitingentry"
    r"|jackpotshare|\w+urls)|cashier\.(ledger_days_close|get_username|posting)|chips\.posting|entry\.number|player\.full_name"
    r"|players?\.\w+_player|\w+\.urls|loyalty\.(points_award|me))$"
)


def production_literals() -> set[str]:
    found = set()
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            found |= set(LITERAL.findall(path.read_text(encoding="utf-8")))
    return {code for code in found if not NOT_ACTIONS.match(code)}


def test_every_action_the_services_write_has_a_label():
    literals = production_literals()
    assert len(literals) > 100
    assert sorted(literals - set(ACTION_LABELS)) == []


def test_the_actions_made_from_a_kind_have_labels_for_every_kind():
    # cashier.<kind>, chips.<kind>, seating.<reason>, entry.<what>_due_again, entry.<rebuy|add_on>
    made = {f"cashier.{kind}" for kind in TransactionKind.values}
    made |= {f"chips.{kind}" for kind in ChipPostingKind.values}
    made |= {f"seating.{reason}" for reason in MoveReason.values}
    made |= {f"entry.{what}_due_again" for what in ("prize", "bounty", "refund")}
    made |= {"entry.rebuy", "entry.add_on"}
    assert sorted(made - set(ACTION_LABELS)) == []
    assert sorted(set(STATE_ACTIONS) - set(SEAT_ACTION_LABELS)) == []


def test_no_label_is_a_code_and_each_is_translated():
    assert [code for code, label in ACTION_LABELS.items() if "." in str(label) or "_" in str(label)] == []
    with translation.override("en"):
        english = {code: str(label) for code, label in ACTION_LABELS.items()}
    with translation.override("sk"):
        untranslated = [code for code, label in ACTION_LABELS.items() if str(label) == english[code]]
    # Labels that read the same in Slovak (the game's own words the catalogue keeps).
    assert sorted(untranslated) == ["entry.add_on", "entry.rebuy"]


def test_an_action_without_a_label_reads_as_other_change_not_as_its_code():
    with translation.override("en"):
        assert action_label("shift.close") == "Shift closed"
        assert action_label("something.new") == "Other change"
    with translation.override("sk"):
        assert action_label("shift.close") == "Smena uzavretá"


@pytest.mark.parametrize(
    ("note", "english", "slovak", "system"),
    [
        ("end of level 3", "end of level 3", "koniec úrovne 3", True),
        ("receipt 12 reversed", "receipt 12 reversed", "doklad 12 stornovaný", True),
        ("+60 s", "+60 s", "+60 s", True),
        ("Zlé miesto pri stole", "Zlé miesto pri stole", "Zlé miesto pri stole", False),
    ],
)
def test_the_systems_own_notes_are_translated_and_typed_ones_kept(note, english, slovak, system):
    with translation.override("en"):
        assert note_text(note) == (english, system)
    with translation.override("sk"):
        assert note_text(note) == (slovak, system)


@pytest.mark.django_db
def test_the_trail_shows_the_action_and_a_rule_in_words_in_slovak(client, manager):
    audit_record(
        actor=manager, action="cashgame.hand_void", object_type="cashgame.hand", after={"rule": "FLR-1"}
    )
    audit_record(actor=manager, action="shift.close", object_type="cashier.shift", note="end of level 2")
    client.force_login(manager)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "sk"
    page = client.get("/audit/").content.decode()
    rows = page[page.index("<tbody>") : page.index("</tbody>")]
    assert '<td class="action" data-action="shift.close">Smena uzavretá</td>' in rows
    assert '<td class="action" data-action="cashgame.hand_void">Hra zrušená</td>' in rows
    assert "<dd>Chybné rozdanie</dd>" in rows
    assert '<td class="note">koniec úrovne 2</td>' in rows
    assert "FLR-1" not in rows.replace('data-action="', "")
