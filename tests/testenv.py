"""Loaded by pytest before Django settings (``-p tests.testenv`` in pyproject.toml).

Tests run with DEBUG on (plain static files storage, no HTTPS redirect) and a throw-away secret
key, unless the environment already says otherwise (CI's production-like check does).
"""

import os

os.environ.setdefault("DJANGO_DEBUG", "1")
os.environ.setdefault("DJANGO_SECRET_KEY", "test-only-secret-key-not-for-production-use-0123456789")
os.environ.setdefault("AXES_ENABLED", "1")
