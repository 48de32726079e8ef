"""Staff roles (ROL-1) and the one helper every service, view and API view uses to check them.

Floor staff run games and tournaments but post no money; cashiers post money but change no
games, structures or report settings; managers configure, approve corrections and see reports;
administrators manage staff. A superuser is treated as every role (the bootstrap account).
"""

from collections.abc import Iterable
from enum import StrEnum
from urllib.parse import urlencode

from django.contrib.auth.mixins import AccessMixin
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from rest_framework.permissions import BasePermission

from cardroom.errors import PermissionDenied
from cardroom.venues import SESSION_VENUE, venue_all, venue_current


class Role(StrEnum):
    FLOOR = "Floor"
    CASHIER = "Cashier"
    MANAGER = "Manager"
    ADMINISTRATOR = "Administrator"


# Model permissions each group gets (for the admin site); synced after every migrate.
ROLE_MODEL_PERMISSIONS: dict[Role, list[str]] = {
    Role.FLOOR: [
        "players.view_player",
        "players.add_player",
        "players.change_player",
        "tournaments.view_blindstructure",
        "tournaments.view_tournament",
        "cashgame.view_game",
        "cashgame.view_cashtable",
        "cashgame.view_playersession",
        "cashgame.view_hand",
        "cashgame.view_waitingentry",
        "cashgame.view_ruling",
    ],
    Role.CASHIER: [
        "players.view_player",
        "players.add_player",
        "players.change_player",
        "cashgame.view_cashtable",
        "cashgame.view_playersession",
        "cashgame.view_jackpotshare",
    ],
    Role.MANAGER: [
        "players.view_player",
        "players.add_player",
        "players.change_player",
        "cardroom.view_venue",
        "cardroom.change_venue",
        "cardroom.view_auditrecord",
        "tournaments.view_blindstructure",
        "tournaments.view_tournament",
        "cashgame.view_game",
        "cashgame.view_cashtable",
        "cashgame.view_playersession",
        "cashgame.view_hand",
        "cashgame.view_dropboxcount",
        "cashgame.view_jackpotclaim",
        "cashgame.view_jackpotshare",
        "cashgame.view_ruling",
    ],
    Role.ADMINISTRATOR: [
        "auth.view_user",
        "auth.add_user",
        "auth.change_user",
        "auth.view_group",
        "cardroom.view_auditrecord",
    ],
}


def roles_known(user, *, venue_roles: set[tuple[int, str]], groups: set[str]) -> None:
    """Keep on the user object, for the request, the roles per venue and the device flag: for a
    caller that read them with the user (the API's token authentication), so `user_roles` and
    `is_device` read nothing more."""
    user._cardroom_venue_roles = _by_venue(venue_roles)
    user._cardroom_device = DEVICE_GROUP in groups


def _by_venue(rows) -> dict[int, frozenset[str]]:
    held: dict[int, set[str]] = {}
    for venue_id, role in rows:
        if role in ROLE_NAMES:
            held.setdefault(venue_id, set()).add(role)
    return {venue_id: frozenset(roles) for venue_id, roles in held.items()}


ROLE_NAMES = frozenset(Role)


def user_venue_roles(user) -> dict[int, frozenset[str]]:
    """A staff member's roles in each venue where he holds any (VEN-1), read once per request.
    A superuser (the bootstrap account) is every role in every venue."""
    if user is None or not user.is_authenticated:
        return {}
    cached = getattr(user, "_cardroom_venue_roles", None)
    if cached is None:
        if user.is_superuser:
            cached = {venue.pk: ROLE_NAMES for venue in venue_all()}
        else:
            cached = _by_venue(user.venue_roles.values_list("venue_id", "role"))
        user._cardroom_venue_roles = cached
    return cached


def user_roles(user) -> frozenset[str]:
    """The roles of a user in the venue the request works for (ROL-1 is checked per venue)."""
    if user is None or not user.is_authenticated:
        return frozenset()
    if user.is_superuser:
        return ROLE_NAMES
    return user_venue_roles(user).get(venue_current().pk, frozenset())


# ROL-2: a dealer tablet is a device, not a person. Its user is in this group only: it holds no
# staff role, so no page and no API admits it (IsStaffMember, RoleRequiredMixin), and the one
# thing it may do, logging hands, admits it by name (require_role_or_device). devices/ pairs it.
DEVICE_GROUP = "Dealer tablet"


def is_device(user) -> bool:
    """True for a paired dealer tablet's user; cached on the user object like its roles."""
    if user is None or not user.is_authenticated:
        return False
    cached = getattr(user, "_cardroom_device", None)
    if cached is None:
        cached = user.groups.filter(name=DEVICE_GROUP).exists()
        user._cardroom_device = cached
    return cached


def require_role_or_device(user, *roles: Role) -> None:
    """require_role, or a paired dealer tablet (ROL-2). Which table the tablet may touch is the
    devices app's check, made before it calls the service."""
    # The staff's roles first: they are cached for the request, so staff pay no extra query.
    if not has_role(user, *roles) and not is_device(user):
        require_role(user, *roles)


def has_role(user, *roles: Role) -> bool:
    """True when the user holds any of the roles."""
    return bool(user_roles(user) & set(roles))


def require_role(user, *roles: Role) -> None:
    """Raise a 403 DomainError naming ROL-1 unless the user holds one of the roles."""
    if not has_role(user, *roles):
        names = ", ".join(str(_(r.value)) for r in roles)
        raise PermissionDenied(
            "role_required",
            _("This needs one of these roles: %(roles)s.") % {"roles": names},
            rule="ROL-1",
        )


def venue_pick_redirect(request):
    """Where a staff member must go first to work in a venue, or None (VEN-1). A page reached at
    a venue's own address works for that venue. Otherwise the venue he picked for this session
    counts; one who holds roles in one venue only works there without picking; one who holds
    roles in several picks one, once per session."""
    if getattr(request, "venue_from_address", None) is not None or not hasattr(request, "session"):
        return None
    held = user_venue_roles(request.user)
    picked = request.session.get(SESSION_VENUE)
    if picked in held or not held:
        return None
    if len(held) == 1:
        (only,) = held
        if only == venue_current().pk:
            return None
        request.session[SESSION_VENUE] = only
        return redirect(request.get_full_path())
    return redirect(f"{reverse('venue-pick')}?{urlencode({'next': request.get_full_path()})}")


class RoleRequiredMixin(AccessMixin):
    """Page views: anonymous users go to log-in, staff who work in several venues pick one, and
    staff without the role in the venue get 403."""

    allowed_roles: Iterable[Role] = ()

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        elsewhere = venue_pick_redirect(request)
        if elsewhere is not None:
            return elsewhere
        if not has_role(request.user, *self.allowed_roles):
            raise DjangoPermissionDenied(_("Your role does not allow this page."))
        return super().dispatch(request, *args, **kwargs)


class IsStaffMember(BasePermission):
    """The API default: any authenticated user with at least one staff role (fail closed)."""

    def has_permission(self, request, view) -> bool:
        return bool(user_roles(request.user))


def roles_permission(*roles: Role) -> type[BasePermission]:
    """An API permission class that admits the given roles only."""

    class HasRole(BasePermission):
        message = _("Your role does not allow this.")

        def has_permission(self, request, view) -> bool:
            return has_role(request.user, *roles)

    HasRole.__name__ = "HasRole_" + "_".join(r.name for r in roles)
    return HasRole


# Who may do what: named once here, used by pages and API alike.
FLOOR_ROLES = (Role.FLOOR, Role.MANAGER)
CASHIER_ROLES = (Role.CASHIER,)
MANAGER_ROLES = (Role.MANAGER,)
ADMIN_ROLES = (Role.ADMINISTRATOR,)
# Looking a player up is part of every desk's work.
PLAYER_DESK_ROLES = (Role.FLOOR, Role.CASHIER, Role.MANAGER)
