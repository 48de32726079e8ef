"""Project settings plus the bare baseline view of bench/cashier_buyins.py."""

from cardroom.settings import *  # noqa: F403

ROOT_URLCONF = "bench.baseline_urls"
