"""A newcomer's start: `manage.py` by hand on a checkout works without exporting anything, and
production (a secret key set) never gets debug by default; `make run PORT=... HOST=...` serves
elsewhere when 8000 is taken, and says so when the port is busy."""

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRINT_DEBUG = "from django.conf import settings; print(settings.DEBUG)"


def manage(*args: str, **environment: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k not in ("DJANGO_DEBUG", "DJANGO_SECRET_KEY")}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**base, **environment},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_development_command_on_a_checkout_runs_with_debug_and_says_so():
    result = manage("shell", "-c", PRINT_DEBUG)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "True"
    assert (
        "no DJANGO_SECRET_KEY set, so this runs as a development checkout with DJANGO_DEBUG=1"
        in result.stderr
    )


def test_with_a_secret_key_debug_stays_off_as_in_production():
    result = manage("shell", "-c", PRINT_DEBUG, DJANGO_SECRET_KEY="k" * 50)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "False"
    assert "DJANGO_DEBUG=1" not in result.stderr


def test_debug_said_off_stays_off_and_asks_for_the_key():
    result = manage("shell", "-c", PRINT_DEBUG, DJANGO_DEBUG="0")
    assert result.returncode == 1
    assert "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off" in result.stderr


def test_a_production_command_without_a_key_stops_and_says_what_to_export():
    result = manage("collectstatic", "--noinput", "--dry-run")
    assert result.returncode == 1
    assert "On a development checkout, export DJANGO_DEBUG=1" in result.stderr


def test_the_web_server_and_celery_never_default_to_debug():
    """gunicorn (cardroom.wsgi) and Celery import the settings without manage.py."""
    base = {k: v for k, v in os.environ.items() if k not in ("DJANGO_DEBUG", "DJANGO_SECRET_KEY")}
    for module in ("cardroom.wsgi", "cardroom.celery"):
        result = subprocess.run(
            [sys.executable, "-c", f"import {module}; from django.conf import settings; settings.DEBUG"],
            cwd=ROOT,
            env={**base, "DJANGO_SETTINGS_MODULE": "cardroom.settings"},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 1, module
        assert "DJANGO_SECRET_KEY must be set" in result.stderr, module


@pytest.fixture
def taken_port():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        yield busy.getsockname()[1]


def test_bin_run_on_a_taken_port_says_which_and_how_to_pick_another(taken_port):
    result = subprocess.run(
        ["bin/run", "127.0.0.1", str(taken_port)], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 1
    assert f"Port {taken_port} on 127.0.0.1 is taken" in result.stderr
    assert "make run PORT=8123" in result.stderr


def test_bin_run_refuses_a_port_that_is_not_a_number():
    result = subprocess.run(
        ["bin/run", "127.0.0.1", "80a"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2
    assert "PORT must be a number from 1 to 65535, not '80a'" in result.stderr


def test_make_run_hands_host_and_port_to_bin_run():
    dry = subprocess.run(
        ["make", "-n", "run", "PORT=8123", "HOST=0.0.0.0"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert dry.returncode == 0, dry.stderr
    assert "bin/run 0.0.0.0 8123" in dry.stdout
    default = subprocess.run(
        ["make", "-n", "run"], cwd=ROOT, env={**os.environ, "HOST": "somebox"}, capture_output=True, text=True
    )
    assert "bin/run 127.0.0.1 8000" in default.stdout  # a shell's own HOST is not a bind address
