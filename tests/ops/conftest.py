"""Fixtures of the operator's endpoints' tests (OPS-2)."""

import contextlib

import pytest
from prometheus_client.parser import text_string_to_metric_families

from cardroom.celery import app


@contextlib.contextmanager
def broker(url: str):
    """This process's Celery app pointed at `url` for the body (what /health/ checks)."""
    previous = app.conf.broker_url
    app.conf.broker_url = url
    try:
        yield
    finally:
        app.conf.broker_url = previous


@pytest.fixture
def memory_broker():
    """An in-process broker, always there: the checks that are not the broker's own."""
    with broker("memory://"):
        yield


def samples(text: bytes | str) -> dict[tuple, float]:
    """Prometheus text as {(sample name, (label, value), ...): value}."""
    if isinstance(text, bytes):
        text = text.decode()
    return {
        (sample.name, *sorted(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }
