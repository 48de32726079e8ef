"""Who may read /metrics (OPS-2): the addresses (the device's, behind the trusted proxies) or the
bearer token the operator configures, and nobody else, who gets the site's own 404 page. And the
figures of several gunicorn workers added up (prometheus-client's multiprocess mode)."""

import subprocess
import sys
import textwrap

import pytest
from django.conf import settings
from django.test import override_settings

from tests.ops.conftest import samples

pytestmark = pytest.mark.django_db
TOKEN = "k8Jx-3vQ_pRw7ZtY2mNb4cLs9"
PROMETHEUS = "10.0.0.5"


def scrape(client, address: str, **headers):
    return client.get("/metrics", REMOTE_ADDR=address, **headers)


def looks_like_no_such_page(client, response) -> bool:
    other = client.get("/no-such-page", REMOTE_ADDR="192.168.1.9")
    return (response.status_code, response.content) == (404, other.content)


@override_settings(METRICS_ALLOWED_ADDRESSES=["10.0.0.0/24"], TRUSTED_PROXIES=["127.0.0.1"], METRICS_TOKEN="")
def test_metrics_for_the_configured_addresses_only__OPS_2(client):
    response = scrape(client, PROMETHEUS)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8"
    assert samples(response.content)[("cardroom_database_up",)] == 1.0
    # Through the trusted proxy (nginx), the device's address is its X-Forwarded-For.
    assert scrape(client, "127.0.0.1", HTTP_X_FORWARDED_FOR=PROMETHEUS).status_code == 200
    # Anyone else, and anyone claiming the address without a trusted proxy, sees no such page.
    assert looks_like_no_such_page(client, scrape(client, "192.168.1.9"))
    assert looks_like_no_such_page(client, scrape(client, "192.168.1.9", HTTP_X_FORWARDED_FOR=PROMETHEUS))
    assert looks_like_no_such_page(client, scrape(client, "127.0.0.1", HTTP_X_FORWARDED_FOR="192.168.1.9"))
    assert client.post("/metrics", REMOTE_ADDR=PROMETHEUS).status_code == 404


@override_settings(METRICS_ALLOWED_ADDRESSES=[], METRICS_TOKEN=TOKEN)
def test_metrics_for_the_bearer_token__OPS_2(client):
    assert scrape(client, "192.168.1.9", HTTP_AUTHORIZATION=f"Bearer {TOKEN}").status_code == 200
    assert scrape(client, "192.168.1.9", HTTP_AUTHORIZATION=f"bearer {TOKEN}").status_code == 200
    for wrong in (f"Bearer {TOKEN[:-1]}", f"Basic {TOKEN}", TOKEN, ""):
        assert looks_like_no_such_page(client, scrape(client, "192.168.1.9", HTTP_AUTHORIZATION=wrong))


@override_settings(METRICS_ALLOWED_ADDRESSES=[], METRICS_TOKEN="")
def test_without_configuration_nobody_reads_metrics__OPS_2(client):
    assert looks_like_no_such_page(client, scrape(client, "127.0.0.1"))


SCRIPT = """
import os, django
django.setup()
from django.utils import timezone
from ops import metrics

def serve():
    metrics.REQUEST_SECONDS.labels(method="GET", route="/room/").observe(0.02)

children = []
for _ in range(2):
    pid = os.fork()
    if pid == 0:
        serve()
        os._exit(0)
    children.append(pid)
for pid in children:
    os.waitpid(pid, 0)
serve()
print(metrics.exposition(now=timezone.now()).decode())
"""


def test_the_web_workers_figures_are_added_up__OPS_2(tmp_path):
    folder = tmp_path / "metrics"
    folder.mkdir()
    env = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "cardroom.settings",
        "DJANGO_DEBUG": "1",
        "PROMETHEUS_MULTIPROC_DIR": str(folder),
        # No tables there: the scrape still answers, and says the database could not be read.
        "DATABASE_URL": f"sqlite:///{tmp_path / 'empty.sqlite3'}",
    }
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(SCRIPT)],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    found = samples(result.stdout)
    count = ("cardroom_http_request_duration_seconds_count", ("method", "GET"), ("route", "/room/"))
    assert found[count] == 3.0
    assert found[("cardroom_database_up",)] == 0.0
    assert len(list(folder.glob("histogram_*.db"))) == 3
