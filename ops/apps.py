from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OpsConfig(AppConfig):
    """What an operator watches (OPS-2): `/health/` for the load balancer and the monitoring,
    `/metrics` for Prometheus, error reports to Sentry or GlitchTip, and the heartbeats of the
    beat and the workers they read.

    An app of its own, not the kernel: it reads every game's state (the clock, the pushes, the
    seat holds, the ledger, the books check), and the kernel `cardroom` is imported by those apps
    and imports none of them. Like the floor view and the lobby it is imported by nobody: the
    settings name its middleware and its beat scheduler, and `manage.py check_books` records its
    result through its service."""

    name = "ops"
    verbose_name = _("Operations")

    def ready(self) -> None:
        # In every process that may run a task (the worker, and the web's eager tasks): a failed
        # task is counted (ops/tasks.py).
        from ops import tasks  # noqa: F401
