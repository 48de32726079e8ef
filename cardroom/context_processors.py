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

# The menu: at most seven entries, each one page or a group of pages (the group's label on a
# <details> disclosure). A group of which the user sees one page is that page, under the group's
# label; a group of none is not shown. (label, url name, roles that see it) per page.
MENU = [
    (
        pgettext_lazy("page", "Floor"),
        [(pgettext_lazy("page", "Floor"), "floor:room", (*FLOOR_ROLES, *CASHIER_ROLES))],
    ),
    (
        _("Cash games"),
        [
            (_("Cash tables"), "cashgame:tables", FLOOR_ROLES),
            (_("Waiting lists"), "cashgame:waiting", FLOOR_ROLES),
            (_("Cash-game desk"), "cashgame:cashier", CASHIER_ROLES),
            (_("Games and stakes"), "cashgame:games", MANAGER_ROLES),
        ],
    ),
    (
        _("Tournaments"),
        [
            (_("Tournaments"), "tournaments:list", FLOOR_ROLES),
            (_("Tournament cashier"), "tournaments:cashier-list", CASHIER_ROLES),
        ],
    ),
    (
        pgettext_lazy("menu", "Cage"),
        [
            (_("Cage desk"), "cashier:desk", CASHIER_ROLES),
            (_("Chips"), "cashier:chips", (*CASHIER_ROLES, *MANAGER_ROLES)),
            (_("Shifts"), "cashier:shifts", MANAGER_ROLES),
            (_("Corrections"), "cashier:reversals", MANAGER_ROLES),
        ],
    ),
    (_("Players"), [(_("Players"), "players:list", PLAYER_DESK_ROLES)]),
    (
        _("Dealers"),
        [
            (_("Dealer board"), "dealers:board", FLOOR_ROLES),
            (_("Dealer tablets"), "devices:list", MANAGER_ROLES),
        ],
    ),
    (
        pgettext_lazy("menu", "Management"),
        [
            (_("Reports"), "reports:daily", MANAGER_ROLES),
            (_("Audit trail"), "audit-list", (*MANAGER_ROLES, *ADMIN_ROLES)),
            (_("Venue"), "venue-settings", MANAGER_ROLES),
            (_("Staff"), "admin:auth_user_changelist", (Role.ADMINISTRATOR,)),
        ],
    ),
]


def shell(request) -> dict:
    """`menu`: the groups the user sees, each {"label", "items", "active"}, an item {"label",
    "url", "active"}; `navigation`: the same pages in one list (the home page's tiles)."""
    user = getattr(request, "user", None)
    menu = []
    if user is not None and user.is_authenticated:
        for group_label, pages in MENU:
            items = [
                {"label": label, "url": reverse(url_name), "active": False}
                for label, url_name, roles in pages
                if has_role(user, *roles)
            ]
            if items:
                menu.append({"label": group_label, "items": items, "active": False})
        # Exactly one item is the current section: the longest address the page's starts with
        # (/cashier/shifts/3/ is under Shifts, not under the Cashier's /cashier/).
        path = request.path
        current = max(
            ((group, item) for group in menu for item in group["items"] if path.startswith(item["url"])),
            key=lambda pair: len(pair[1]["url"]),
            default=None,
        )
        if current is not None:
            current[0]["active"] = current[1]["active"] = True
    navigation = [item for group in menu for item in group["items"]]
    return {"venue": venue_get(), "menu": menu, "navigation": navigation}
