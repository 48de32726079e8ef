#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys

# What a developer runs by hand on a checkout. Run with neither DJANGO_DEBUG nor
# DJANGO_SECRET_KEY set, these default to debug on, as `make run` and `make test` do, and say so
# on stderr. Production always has DJANGO_SECRET_KEY set (the settings refuse to start without it
# when debug is off), so it never gets debug by default; gunicorn and Celery never pass here.
# Other commands (collectstatic, ...) still stop and ask for the key.
DEVELOPMENT_COMMANDS = {
    "runserver",
    "migrate",
    "makemigrations",
    "showmigrations",
    "sqlmigrate",
    "demo",
    "shell",
    "dbshell",
    "createsuperuser",
    "changepassword",
    "check",
    "check_books",
    "compilemessages",
    "test",
}


def development_default(argv: list[str], environ) -> bool:
    """Set DJANGO_DEBUG=1 for a development command on a checkout without a secret key."""
    command = argv[1] if len(argv) > 1 else ""
    if "DJANGO_DEBUG" in environ or environ.get("DJANGO_SECRET_KEY") or command not in DEVELOPMENT_COMMANDS:
        return False
    environ["DJANGO_DEBUG"] = "1"
    return True


def main():
    """Run administrative tasks."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")
    if development_default(sys.argv, os.environ):
        print(
            "manage.py: no DJANGO_SECRET_KEY set, so this runs as a development checkout with "
            "DJANGO_DEBUG=1 (README.md, Configuration).",
            file=sys.stderr,
        )
    try:
        from django.core.management import execute_from_command_line
    except ImportError as exc:
        raise ImportError(
            "Couldn't import Django. Are you sure it's installed and "
            "available on your PYTHONPATH environment variable? Did you "
            "forget to activate a virtual environment?"
        ) from exc
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
