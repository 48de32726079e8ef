"""The house style's limit on a module's size: one that passes about 400 lines is split by job
(a package of modules, or a helper module beside the tests). The project's own Python files are
counted, tests and benchmarks included; migrations are generated and are not."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 400
# What is not the project's own source: installed packages, generated and run-time files.
SKIPPED = {".venv", "var", "test-artifacts", "node_modules", "migrations", ".git"}


def project_modules():
    for top in sorted(ROOT.iterdir()):
        if top.name in SKIPPED or top.name.startswith("."):
            continue
        paths = [top] if top.suffix == ".py" else top.rglob("*.py") if top.is_dir() else []
        yield from (path for path in paths if not SKIPPED.intersection(path.relative_to(ROOT).parts))


def test_no_module_is_over_400_lines():
    sizes = {
        str(path.relative_to(ROOT)): len(path.read_text(encoding="utf-8").splitlines())
        for path in project_modules()
    }
    assert len(sizes) > 300  # the walk found the project, not an empty directory
    assert {name: lines for name, lines in sizes.items() if lines > LIMIT} == {}
