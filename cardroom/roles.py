"""Staff roles (ROL-1) and the one helper every service, view and API view uses to check them.

Floor staff run games and tournaments but post no money; cashiers post money but change no
games, structures or report settings; managers configure, approve corrections and see reports;
administrators manage staff. A superuser is treated as every role (the bootstrap account).
"""

from collections.abc import Iterable
from enum import StrEnum

from django.contrib.auth.mixins import AccessMixin
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.utils.translation import gettext as _
from rest_framework.permissions import BasePermission

from cardroom.errors import PermissionDenied


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


def groups_known(user, names: set[str]) -> None:
    """Keep on the user object, for the request, the roles and the device flag its group names
    give: for a caller that read the names with the user (the API's token authentication), so
    `user_roles` and `is_device` read nothing more."""
    user._cardroom_roles = frozenset(Role) if user.is_superuser else frozenset(names) & frozenset(Role)
    user._cardroom_device = DEVICE_GROUP in names


def user_roles(user) -> frozenset[str]:
    """The roles of a user, cached on the user object for the request."""
    if user is None or not user.is_authenticated:
        return frozenset()
    cached = getattr(user, "_cardroom_roles", None)
    if cached is None:
        if user.is_superuser:
            cached = frozenset(Role)
        else:
            cached = frozenset(user.groups.values_list("name", flat=True)) & frozenset(Role)
        user._cardroom_roles = cached
    return cached


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


class RoleRequiredMixin(AccessMixin):
    """Page views: anonymous users go to log-in, staff without the role get 403."""

    allowed_roles: Iterable[Role] = ()

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
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
