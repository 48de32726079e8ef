from django.apps import AppConfig
from django.core.signals import got_request_exception
from django.db.models.signals import post_migrate
from django.urls import register_converter

from cardroom.converters import NumberConverter


class CardroomConfig(AppConfig):
    name = "cardroom"
    verbose_name = "Card room"

    def ready(self) -> None:
        # Imported once the app registry is ready (Django's place for it): these modules import
        # models, or register checks and signal handlers.
        from cardroom import checks  # noqa: F401 (registers the deployment checks)
        from cardroom.failures import remember_failure
        from cardroom.permissions_sync import ensure_venue, sync_role_permissions

        # Model permissions exist only after every app migrated, so the groups (created by a
        # migration) receive theirs here, after each migrate.
        post_migrate.connect(sync_role_permissions, dispatch_uid="cardroom_sync_role_permissions")
        post_migrate.connect(ensure_venue, dispatch_uid="cardroom_ensure_venue")
        # Before any URLconf loads: every app's paths take their numbers as `<number:...>`.
        register_converter(NumberConverter, "number")
        # A request that failed outside every view keeps its exception for FailureMiddleware.
        got_request_exception.connect(remember_failure, dispatch_uid="cardroom_remember_failure")
