"""What the page shell needs on every page: the venue and the navigation for the user's roles."""

from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from cardroom.roles import (
    ADMIN_ROLES,
    CASHIER_ROLES,
    FLOOR_ROLES,
    MANAGER_ROLES,
    PLAYER_DESK_ROLES,
    Role,
    has_role,
)
from cardroom.selectors import venue_get

# (label, url name, roles that see it). Apps add their desks here as they grow.
NAVIGATION = [
    (_("Cashier"), "cashier:desk", CASHIER_ROLES),
    (_("Shifts"), "cashier:shifts", MANAGER_ROLES),
    (_("Corrections"), "cashier:reversals", MANAGER_ROLES),
    (_("Chips"), "cashier:chips", (*CASHIER_ROLES, *MANAGER_ROLES)),
    (pgettext_lazy("page", "Floor"), "floor:room", (*FLOOR_ROLES, *CASHIER_ROLES)),
    (_("Dealers"), "dealers:board", FLOOR_ROLES),
    (_("Players"), "players:list", PLAYER_DESK_ROLES),
    (_("Tournaments"), "tournaments:list", FLOOR_ROLES),
    (_("Tournament cashier"), "tournaments:cashier-list", CASHIER_ROLES),
    (_("Cash tables"), "cashgame:tables", FLOOR_ROLES),
    (_("Waiting lists"), "cashgame:waiting", FLOOR_ROLES),
    (_("Cash-game desk"), "cashgame:cashier", CASHIER_ROLES),
    (_("Cash games"), "cashgame:games", MANAGER_ROLES),
    (_("Dealer tablets"), "devices:list", MANAGER_ROLES),
    (_("Reports"), "reports:daily", MANAGER_ROLES),
    (_("Audit trail"), "audit-list", (*MANAGER_ROLES, *ADMIN_ROLES)),
    (_("Venue"), "venue-settings", MANAGER_ROLES),
    (_("Staff"), "admin:auth_user_changelist", (Role.ADMINISTRATOR,)),
]


def shell(request) -> dict:
    user = getattr(request, "user", None)
    nav = []
    if user is not None and user.is_authenticated:
        for label, url_name, roles in NAVIGATION:
            if has_role(user, *roles):
                nav.append({"label": label, "url": reverse(url_name), "active": False})
        # Exactly one item is the current section: the longest address the page's starts with
        # (/cashier/shifts/3/ is under Shifts, not under the Cashier's /cashier/).
        path = request.path
        current = max(
            (item for item in nav if path.startswith(item["url"])), key=lambda i: len(i["url"]), default=None
        )
        if current is not None:
            current["active"] = True
    return {"venue": venue_get(), "navigation": nav}
