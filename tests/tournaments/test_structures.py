import json

import pytest
from django.conf import settings
from django.utils import translation

from cardroom.errors import DomainError
from cardroom.models import AuditRecord
from tournaments import structure_io
from tournaments.models import BlindStructure, StructureLevel
from tournaments.selectors import structure_levels_data
from tournaments.services.structures import structure_create, structure_import, validate_levels

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("blind_presets")]


def level(small, big, minutes=20, ante=0, bb_ante=False, note=""):
    return {
        "kind": "level",
        "small_blind_chips": small,
        "big_blind_chips": big,
        "ante_chips": ante,
        "big_blind_ante": bb_ante,
        "minutes": minutes,
        "note": note,
    }


def pause(minutes=10, note=""):
    return {
        "kind": "break",
        "small_blind_chips": 0,
        "big_blind_chips": 0,
        "ante_chips": 0,
        "big_blind_ante": False,
        "minutes": minutes,
        "note": note,
    }


GOOD = [
    level(25, 50),
    level(50, 100),
    pause(10, "Colour up the 25 chips"),
    level(100, 200, ante=200, bb_ante=True),
]


def test_structure_created_with_levels_and_audited__TRN_7(manager):
    structure = structure_create(actor=manager, name="Sunday", levels=GOOD)
    assert structure_levels_data(structure) == GOOD
    assert list(structure.levels.values_list("order", flat=True)) == [1, 2, 3, 4]
    record = AuditRecord.objects.get(action="structure.create")
    assert record.actor == manager
    assert record.after == {"name": "Sunday", "levels": GOOD}


@pytest.mark.parametrize(
    ("levels", "code"),
    [
        ([level(50, 50)], "big_blind_not_above_small"),
        ([level(100, 50)], "big_blind_not_above_small"),
        ([level(0, 50)], "small_blind_missing"),
        ([level(50, 100), level(25, 100)], "level_decreases"),
        ([level(50, 100), level(50, 75)], "level_decreases"),
        ([level(50, 100, ante=100), level(100, 200, ante=50)], "level_decreases"),
        ([level(50, 100), pause(), level(40, 80)], "level_decreases"),
        ([level(25, 50, minutes=0)], "invalid_level_minutes"),
        ([level(25, 50, minutes=241)], "invalid_level_minutes"),
        ([pause(), level(25, 50)], "structure_break_at_edge"),
        ([level(25, 50), pause()], "structure_break_at_edge"),
        ([level(25, 50), {**pause(), "small_blind_chips": 25}, level(50, 100)], "break_with_blinds"),
        ([level(25, 50, bb_ante=True)], "big_blind_ante_missing"),
        ([{**level(25, 50), "kind": "pause"}], "invalid_level_kind"),
        ([], "structure_empty"),
    ],
)
def test_bad_structure_refused_and_nothing_written__TRN_7(manager, levels, code):
    count = BlindStructure.objects.count()
    with pytest.raises(DomainError) as error:
        structure_create(actor=manager, name="Bad", levels=levels)
    assert error.value.code == code
    assert error.value.rule == "TRN-7"
    assert BlindStructure.objects.count() == count
    assert not AuditRecord.objects.filter(action="structure.create").exists()


def test_error_names_the_row__TRN_7():
    with pytest.raises(DomainError) as error:
        validate_levels([level(25, 50), level(50, 100), level(50, 100), level(75, 60)])
    assert error.value.message == "Row 4: the big blind (60) must be larger than the small blind (75)."


def test_equal_levels_are_allowed__TRN_7():
    assert len(validate_levels([level(100, 200), level(100, 200, ante=200, bb_ante=True)])) == 2


def test_floor_cannot_create_structures__ROL_1(floor):
    with pytest.raises(DomainError) as error:
        structure_create(actor=floor, name="Mine", levels=GOOD)
    assert error.value.rule == "ROL-1"


def test_duplicate_name_refused(manager):
    structure_create(actor=manager, name="Sunday", levels=GOOD)
    with pytest.raises(DomainError) as error:
        structure_create(actor=manager, name="sunday", levels=GOOD)
    assert error.value.code == "structure_name_taken"
    assert error.value.status_code == 409


def test_presets_are_shipped_and_valid__TRN_7():
    presets = {s.name: s for s in BlindStructure.objects.filter(name__in=["Turbo", "Regular", "Deep stack"])}
    assert sorted(presets) == ["Deep stack", "Regular", "Turbo"]
    for structure in presets.values():
        assert validate_levels(structure_levels_data(structure))
    regular = structure_levels_data(presets["Regular"])
    assert regular[0] == level(25, 50)
    assert regular[4] == pause(10, "")
    assert regular[9] == pause(10, "Colour up the 25 chips")
    assert {row["minutes"] for row in regular if row["kind"] == "level"} == {20}
    assert sum(1 for row in regular if row["kind"] == "level") == 24
    turbo = structure_levels_data(presets["Turbo"])
    assert {row["minutes"] for row in turbo if row["kind"] == "level"} == {10}
    deep = structure_levels_data(presets["Deep stack"])
    assert {row["minutes"] for row in deep if row["kind"] == "level"} == {30}


def test_a_presets_colour_up_note_reads_in_the_pages_language__TRN_7(client, manager):
    regular = BlindStructure.objects.get(name="Regular")
    client.force_login(manager)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "sk"
    page = client.get(f"/tournaments/structures/{regular.pk}/").content.decode()
    assert "<td>Výmena žetónov 25</td>" in page and "<td>Výmena žetónov 100</td>" in page
    assert "Colour up" not in page
    with translation.override("en"):
        assert regular.levels.get(order=10).note_text == "Colour up the 25 chips"


def test_csv_export_and_import_round_trip__TRN_7(manager):
    structure = structure_create(actor=manager, name="Sunday", levels=GOOD)
    text = structure_io.to_csv(structure_levels_data(structure))
    assert text.splitlines() == [
        "kind,small_blind_chips,big_blind_chips,ante_chips,big_blind_ante,minutes,note",
        "level,25,50,0,false,20,",
        "level,50,100,0,false,20,",
        "break,0,0,0,false,10,Colour up the 25 chips",
        "level,100,200,200,true,20,",
    ]
    copy = structure_import(actor=manager, name="Sunday copy", content=text, file_format="csv")
    assert structure_levels_data(copy) == GOOD


def test_csv_export_marks_a_formula_note_as_text_and_imports_it_unchanged__TRN_7(manager):
    levels = [
        level(25, 50),
        pause(10, '=HYPERLINK("http://evil.example","Prize")'),
        pause(5, "-5 min for photos"),
        level(50, 100),
    ]
    structure = structure_create(actor=manager, name="Tricky notes", levels=levels)
    text = structure_io.to_csv(structure_levels_data(structure))
    assert text.splitlines()[2:4] == [
        'break,0,0,0,false,10,"\'=HYPERLINK(""http://evil.example"",""Prize"")"',
        "break,0,0,0,false,5,'-5 min for photos",
    ]
    copy = structure_import(actor=manager, name="Tricky copy", content=text, file_format="csv")
    assert structure_levels_data(copy) == levels


def test_json_export_and_import_round_trip__TRN_7(manager):
    structure = structure_create(actor=manager, name="Sunday", levels=GOOD)
    text = structure_io.to_json(structure.name, structure_levels_data(structure))
    assert json.loads(text) == {"name": "Sunday", "levels": GOOD}
    with pytest.raises(DomainError):  # the file's own name is taken
        structure_import(actor=manager, content=text, file_format="json")
    copy = structure_import(actor=manager, name="Other", content=text, file_format="json")
    assert structure_levels_data(copy) == GOOD


def test_csv_with_decreasing_level_refused_nothing_written__TRN_7(manager):
    text = "small_blind_chips,big_blind_chips,minutes\n50,100,20\n25,50,20\n"
    before = StructureLevel.objects.count()
    with pytest.raises(DomainError) as error:
        structure_import(actor=manager, name="Down", content=text, file_format="csv")
    assert error.value.code == "level_decreases"
    assert StructureLevel.objects.count() == before
    assert not BlindStructure.objects.filter(name="Down").exists()


@pytest.mark.parametrize(
    ("text", "fmt", "code"),
    [
        ("small_blind_chips,minutes\n25,20\n", "csv", "invalid_structure_file"),
        ("small_blind_chips,big_blind_chips,minutes\n25,5O,20\n", "csv", "invalid_structure_file"),
        ("{not json", "json", "invalid_structure_file"),
        ('{"levels": {"a": 1}}', "json", "invalid_structure_file"),
        ("x", "xml", "invalid_structure_format"),
    ],
)
def test_malformed_files_refused__TRN_7(manager, text, fmt, code):
    with pytest.raises(DomainError) as error:
        structure_import(actor=manager, name="Broken", content=text, file_format=fmt)
    assert error.value.code == code
    assert not BlindStructure.objects.filter(name="Broken").exists()


def test_api_import_and_export(api, manager, floor):
    text = "kind,small_blind_chips,big_blind_chips,minutes,note\nlevel,25,50,15,\nlevel,50,100,15,\n"
    response = api(manager).post(
        "/api/structures/import/", {"name": "Quick", "file_format": "csv", "content": text}, format="json"
    )
    assert response.status_code == 201
    body = response.json()
    assert body["name"] == "Quick"
    assert [row["big_blind_chips"] for row in body["levels"]] == [50, 100]
    exported = api(floor).get(f"/api/structures/{body['id']}/export/json/")
    assert exported.status_code == 200
    assert exported["Content-Disposition"] == 'attachment; filename="quick.json"'
    assert json.loads(exported.content)["levels"][1]["small_blind_chips"] == 50
    assert api(floor).post("/api/structures/import/", {}, format="json").status_code == 403


def test_api_refusal_names_rule__TRN_7(api, manager):
    response = api(manager).post(
        "/api/structures/", {"name": "Down", "levels": [level(50, 100), level(25, 50)]}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "level_decreases"
    assert response.json()["rule"] == "TRN-7"


def test_import_page_for_managers_only__TRN_7(client, manager, floor):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(floor)
    assert client.get("/tournaments/structures/import/").status_code == 403
    client.force_login(manager)
    upload = SimpleUploadedFile(
        "weekly.csv", b"small_blind_chips,big_blind_chips,minutes\n25,50,20\n50,100,20\n"
    )
    response = client.post("/tournaments/structures/import/", {"name": "Weekly", "file": upload})
    structure = BlindStructure.objects.get(name="Weekly")
    assert response.status_code == 302
    assert response["Location"] == f"/tournaments/structures/{structure.pk}/"
    bad = SimpleUploadedFile("down.csv", b"small_blind_chips,big_blind_chips,minutes\n50,100,20\n25,50,20\n")
    page = client.post("/tournaments/structures/import/", {"name": "Down", "file": bad}).content.decode()
    assert "levels never decrease" in page
    # The rule is a link in words to its text, not an ID pasted after the sentence.
    assert '<a class="rule-link" href="/rules/#TRN-7">House rule: Blind structures</a>' in page
    assert "(TRN-7)" not in page
