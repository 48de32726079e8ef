"""Reading the settings' environment variables (cardroom/settings.py): a switch, a list, and a
list of addresses or networks, each refused at start-up with the variable's name when it is not
what it should be."""

import ipaddress
import os

from django.core.exceptions import ImproperlyConfigured


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_networks(name: str) -> list[str]:
    """Addresses or networks (`127.0.0.1`, `10.0.0.0/8`), comma-separated."""
    for item in (items := env_list(name)):
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise ImproperlyConfigured(
                f"{name}: {item!r} is not an address or a network (e.g. 127.0.0.1 or 10.0.0.0/8)."
            ) from None
    return items
