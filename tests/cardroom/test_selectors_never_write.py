"""Selectors never write (STYLE.md: services hold every write, selectors every non-trivial read).
The guard reads the source of every selectors module, so a write slipped into a read fails CI
rather than waiting for a reviewer."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ("cardroom", "players", "cashier", "cashgame", "tournaments", "reports", "cage")
# ORM calls that write or lock. `update` is judged by what it is called on (a dict may be updated).
WRITES = {
    "save",
    "create",
    "get_or_create",
    "update_or_create",
    "delete",
    "bulk_create",
    "bulk_update",
    "select_for_update",
}
# The project's own writers a selector must not reach for.
WRITERS = {"audit_record", "account_for", "run_once"}
QUERYSET_HINTS = ("objects", ".filter(", ".exclude(", ".all(", "_set")


def selector_modules() -> list[Path]:
    modules = []
    for app in APPS:
        modules += [ROOT / app / "selectors.py"] if (ROOT / app / "selectors.py").exists() else []
        modules += sorted((ROOT / app / "selectors").glob("*.py"))
    return modules


def writes_in(path: Path, root: Path = ROOT) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if not isinstance(node, ast.Call):
            continue
        function = node.func
        name = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", "")
        on = ast.unparse(function.value) if isinstance(function, ast.Attribute) else ""
        is_write = (
            name in WRITES
            or name in WRITERS
            or (name == "update" and any(hint in on for hint in QUERYSET_HINTS))
        )
        if is_write:
            found.append(f"{path.relative_to(root)}:{node.lineno} {ast.unparse(function)}(...)")
    return found


def test_every_app_has_its_selectors_read():
    assert len(selector_modules()) >= 5


def test_selectors_never_write():
    assert [write for path in selector_modules() for write in writes_in(path)] == []


def test_the_guard_sees_a_write(tmp_path):
    module = tmp_path / "selectors.py"
    module.write_text(
        "def rules_get(t):\n"
        "    rules, _ = Rules.objects.get_or_create(tournament=t)\n"
        "    Entry.objects.filter(tournament=t).update(present=True)\n"
        "    state = {}\n"
        "    state.update(a=1)\n"
        "    return rules\n"
    )
    found = [line.split(" ", 1)[1] for line in writes_in(module, root=tmp_path)]
    assert found == ["Rules.objects.get_or_create(...)", "Entry.objects.filter(tournament=t).update(...)"]
