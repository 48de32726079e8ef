"""{% notices_block "me" token %}: the "Tell me on this phone" block of a player's page (NOT-1).
A tag, so the pages that show it (loyalty's, the waiting list's) need not import the notices."""

from django import template
from django.contrib.messages import get_messages
from django.utils.translation import get_language

from cardroom.errors import DomainError
from notices import selectors, services
from notices.push import vapid_public_key

register = template.Library()


@register.inclusion_tag("notices/_tell_me.html", takes_context=True)
def notices_block(context, where: str, token: str):
    request = context.get("request")
    try:
        owner = services.link_owner(where=where, token=token)
    except DomainError:
        return {"shown": False}
    consent = selectors.consent_active_get(player_id=owner.player_id, entry_ids=owner.entry_ids)
    refusals = [m for m in get_messages(request) if "notices" in m.tags] if request is not None else []
    return {
        "shown": True,
        "where": where,
        "token": token,
        "consent": consent,
        "consent_text": services.consent_text(),
        "vapid_public_key": vapid_public_key(),
        "refusals": refusals,
        "lang": f"?lang={get_language()}" if request is not None and request.GET.get("lang") else "",
        "csrf_token": context.get("csrf_token"),
    }
