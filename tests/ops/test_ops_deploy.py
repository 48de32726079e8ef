"""The deployment kit's part of OPS-2: nginx keeps /metrics off the public internet, the web
unit gives gunicorn's workers their metrics folder, and the environment file lets this machine
scrape."""

import re
from pathlib import Path

from django.conf import settings

DEPLOY = Path(settings.BASE_DIR) / "deploy"


def location(site: str, path: str) -> str:
    found = re.search(r"location = " + re.escape(path) + r" \{(.*?)\n    \}", site, re.DOTALL)
    assert found, path
    return found.group(1)


def test_nginx_lets_only_this_machine_reach_metrics__OPS_2():
    site = (DEPLOY / "nginx" / "cardroom.conf").read_text()
    metrics = location(site, "/metrics")
    rules = re.findall(r"^\s*(allow|deny) ([^;]+);", metrics, re.MULTILINE)
    assert rules == [("allow", "127.0.0.1"), ("allow", "::1"), ("deny", "all")]
    for block in (metrics, location(site, "/health/")):
        assert "proxy_pass http://cardroom_web;" in block
        assert "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;" in block


def test_the_web_unit_gives_gunicorn_its_metrics_folder__OPS_2():
    unit = (DEPLOY / "systemd" / "cardroom-web.service").read_text()
    folder = re.search(r"^RuntimeDirectory=(\S+)$", unit, re.MULTILINE).group(1)
    assert f"\nEnvironment=PROMETHEUS_MULTIPROC_DIR=/run/{folder}\n" in unit


def test_the_environment_file_lets_this_machine_scrape__OPS_2():
    env = (DEPLOY / "cardroom.env").read_text()
    assert "\nMETRICS_ALLOWED_ADDRESSES=127.0.0.1,::1\n" in env
    for optional in ("METRICS_TOKEN", "SENTRY_DSN", "SENTRY_ENVIRONMENT", "PROMETHEUS_MULTIPROC_DIR"):
        assert re.search(rf"^# {optional}=", env, re.MULTILINE), optional


def test_the_beat_stamps_and_sends_the_workers_heartbeat__OPS_2():
    assert settings.CELERY_BEAT_SCHEDULER == "ops.scheduler:Scheduler"
    assert settings.CELERY_BEAT_SCHEDULE["ops-heartbeat"] == {
        "task": "ops.heartbeat",
        "schedule": 5.0,
        "options": {"expires": 5.0},
    }
    assert settings.MIDDLEWARE[0] == "ops.middleware.OpsMiddleware"
