"""Deployment checks of the room's own settings (`manage.py check --deploy`)."""

from django.conf import settings
from django.core.checks import Tags, Warning, register


@register(Tags.security, deploy=True)
def trusted_proxies_check(app_configs, **kwargs):
    """In production the site sits behind its HTTPS proxy (README.md, Production); without the
    proxy named, every request counts as the proxy's address and its X-Forwarded-Proto is not
    believed (cardroom/network.py)."""
    if settings.TRUSTED_PROXIES:
        return []
    return [
        Warning(
            "DJANGO_TRUSTED_PROXIES is empty: behind the HTTPS proxy every request counts as the "
            "proxy's address, so one device's failed log-ins, pairing codes or waiting-list joins "
            "would hold back every other device; and the proxy's X-Forwarded-Proto is not believed, "
            "so the site takes the devices' HTTPS requests for plain HTTP.",
            hint="Set DJANGO_TRUSTED_PROXIES to the proxy's address, e.g. 127.0.0.1.",
            id="cardroom.W001",
        )
    ]
