"""The deployment kit (deploy/) agrees with the README and the settings: the environment file
names every variable the README's configuration table lists, and the units and the nginx site
agree on where gunicorn listens, where the static files are, and what the units run.
`systemd-analyze verify` and `nginx -t` check the files themselves (deploy/check, in .ci/run)."""

import re
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
DEPLOY = ROOT / "deploy"
INSTALL = Path("/srv/cardroom")


def readme_variables() -> list[str]:
    section = ROOT.joinpath("README.md").read_text().split("## Configuration", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `([A-Z][A-Z0-9_]+)` \|", section, re.MULTILINE)


def env_file_variables() -> list[str]:
    return re.findall(r"^#? ?([A-Z][A-Z0-9_]+)=", DEPLOY.joinpath("cardroom.env").read_text(), re.MULTILINE)


def unit(name: str) -> str:
    return DEPLOY.joinpath("systemd", name).read_text()


def test_the_environment_file_names_every_variable_of_the_readme():
    listed = readme_variables()
    assert len(listed) >= 18
    assert sorted(set(env_file_variables())) == sorted(set(listed))


def test_every_unit_reads_the_environment_file_and_runs_from_the_installation():
    services = [
        path.name for path in DEPLOY.joinpath("systemd").glob("cardroom-*.service") if "@" not in path.name
    ]
    assert sorted(services) == [
        "cardroom-backup.service",
        "cardroom-beat.service",
        "cardroom-check-books.service",
        "cardroom-web.service",
        "cardroom-worker.service",
    ]
    for name in services:
        text = unit(name)
        assert "EnvironmentFile=/etc/cardroom/cardroom.env\n" in text, name
        assert f"WorkingDirectory={INSTALL}\n" in text, name
        assert f"ExecStart={INSTALL}/.venv/bin/" in text, name
        # The services may write where the settings keep their local state.
        assert f"ReadWritePaths={INSTALL / settings.VAR_DIR.relative_to(ROOT)}" in text, name


def test_the_site_serves_the_static_files_and_proxies_to_gunicorn():
    site = DEPLOY.joinpath("nginx", "cardroom.conf").read_text()
    bind = re.search(r"--bind (\S+)", unit("cardroom-web.service")).group(1)
    assert f"server {bind};" in site
    assert f"alias {INSTALL / settings.STATIC_ROOT.relative_to(ROOT)}/;" in site
    assert f"location /{settings.STATIC_URL.strip('/')}/ {{" in site
    assert "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;" in site
    assert "proxy_set_header X-Forwarded-Proto $scheme;" in site
    assert settings.SECURE_PROXY_SSL_HEADER == ("HTTP_X_FORWARDED_PROTO", "https")


def test_the_nightly_jobs_run_the_commands_of_the_readme():
    assert "ExecStart=/srv/cardroom/.venv/bin/python manage.py backup --dir /var/backups/cardroom\n" in unit(
        "cardroom-backup.service"
    )
    assert "ExecStart=/srv/cardroom/.venv/bin/python manage.py check_books\n" in unit(
        "cardroom-check-books.service"
    )
    for job in ("backup", "check-books"):
        assert f"Unit=cardroom-{job}.service\n" in unit(f"cardroom-{job}.timer")
        assert "OnFailure=cardroom-alert@%n.service\n" in unit(f"cardroom-{job}.service")
    # The beat's schedule file outlives restarts where systemd keeps the unit's state.
    assert "StateDirectory=cardroom\n" in unit("cardroom-beat.service")
    assert "--schedule=/var/lib/cardroom/celerybeat-schedule" in unit("cardroom-beat.service")
