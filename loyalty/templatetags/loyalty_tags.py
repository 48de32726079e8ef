"""Template helpers of the loyalty pages: a QR code of an address, and the private points page
of a player (for pages of other apps that show a player, without importing loyalty)."""

import io

import segno
from django import template
from django.urls import reverse
from django.utils.safestring import mark_safe

from loyalty.selectors import player_link_token

register = template.Library()


@register.filter
def qr_svg(address: str) -> str:
    """The address as an inline SVG QR code, black on a white quiet zone."""
    buffer = io.BytesIO()
    segno.make(address, error="m", micro=False).save(
        buffer, kind="svg", xmldecl=False, svgns=True, border=4, dark="#000", light="#fff", omitsize=True
    )
    return mark_safe(buffer.getvalue().decode())  # noqa: S308 (segno's own SVG, no user text in it)


@register.simple_tag
def my_points_url(player_id: int | None) -> str:
    """The player's private points page (empty when no player is known)."""
    if not player_id:
        return ""
    return reverse("loyalty_room:me", args=[player_link_token(player_id=player_id)])
