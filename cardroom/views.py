"""Pages of the shared kernel: home, venue settings, the audit trail and the rule book."""

from datetime import datetime, time
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.paginator import Paginator
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import get_script_prefix, reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views import defaults
from django.views.generic import FormView, TemplateView

from cardroom.audit_actions import action_label, note_text
from cardroom.audit_display import actor_label, audit_lines, object_label
from cardroom.errors import DomainError
from cardroom.house_rules import rule_book
from cardroom.middleware import VENUE_PATH_PREFIX
from cardroom.refusals import refusal
from cardroom.roles import (
    ADMIN_ROLES,
    MANAGER_ROLES,
    Role,
    RoleRequiredMixin,
    user_roles,
    user_venue_roles,
    venue_pick_redirect,
)
from cardroom.selectors import audit_list, venue_get
from cardroom.services import venue_update
from cardroom.venue_forms import AuditFilterForm, VenueForm
from cardroom.venues import SESSION_VENUE, venue_all, venue_by_host, venue_default

# The roles by the names a person reads (Role's values are the groups' names, in English).
ROLE_LABELS = {
    Role.FLOOR: gettext_lazy("Floor"),
    Role.CASHIER: gettext_lazy("Cashier"),
    Role.MANAGER: gettext_lazy("Manager"),
    Role.ADMINISTRATOR: gettext_lazy("Administrator"),
}


def _venue_paths(venue, name: str, *, came_as: str = "") -> tuple[str, str, bool]:
    """The address of the page `name` at the venue's prefix (/v/<slug>/room/) and without it
    (/room/), under the installation's own script prefix; and whether the request came by the
    venue's prefix (VenuePathMiddleware moved it into the script prefix), under its address
    name `came_as` (the venue's own unless named: the one it had before a change)."""
    prefix = get_script_prefix()
    rest = reverse(name)[len(prefix) :]
    tail = f"{VENUE_PATH_PREFIX}{came_as or venue.slug}/"
    by_path = prefix.endswith(tail)
    root = prefix[: len(prefix) - len(tail) + 1] if by_path else prefix
    return f"{root}{VENUE_PATH_PREFIX[1:]}{venue.slug}/{rest}", f"{root}{rest}", by_path


def venue_public_url(request, name: str = "lobby:room") -> str:
    """The absolute address of one of the request's venue's public pages (VEN-1), for the QR
    codes its screens show: a phone that scans it must land at this venue.

    At the venue's own host name when the screen was opened by one; else at PUBLIC_BASE_URL (or
    the screen's own address), under /v/<slug>/ whenever the address without it would not pick
    this venue: the screen was opened by the prefix, or the bare address is another venue's."""
    venue = request.venue
    if request.get_host().partition(":")[0].lower() in venue.host_name_list():
        return request.build_absolute_uri(reverse(name))
    prefixed, bare, by_path = _venue_paths(venue, name)
    base = settings.PUBLIC_BASE_URL
    host = urlsplit(base).hostname if base else request.get_host().partition(":")[0]
    bare_venue = venue_by_host(host or "") or venue_default()
    path = prefixed if by_path or bare_venue.pk != venue.pk else bare
    return f"{base}{path}" if base else request.build_absolute_uri(path)


def venue_public_addresses(request, venue) -> list[str]:
    """Every address of the venue's room page (VEN-1): /v/<slug>/room/ at the public address
    (PUBLIC_BASE_URL, or this request's), then the room page at each of its host names."""
    prefixed, bare, _by_path = _venue_paths(venue, "lobby:room")
    base = settings.PUBLIC_BASE_URL or f"{request.scheme}://{request.get_host()}"
    return [f"{base}{prefixed}", *(f"{request.scheme}://{host}{bare}" for host in venue.host_name_list())]


class HomeView(LoginRequiredMixin, TemplateView):
    template_name = "cardroom/home.html"

    def dispatch(self, request, *args, **kwargs):
        elsewhere = venue_pick_redirect(request) if request.user.is_authenticated else None
        return elsewhere or super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        roles = [ROLE_LABELS[Role(role)] for role in sorted(user_roles(self.request.user))]
        venues = len(user_venue_roles(self.request.user))
        return super().get_context_data(roles=roles, venue_count=venues, **kwargs)


class VenuePickView(LoginRequiredMixin, TemplateView):
    """A staff member who works in several venues picks the one he works in now, once per
    session (VEN-1); the pages, the API calls of his pages and the reports then work for it."""

    template_name = "cardroom/venue_pick.html"

    def held(self) -> list:
        held = user_venue_roles(self.request.user)
        return [venue for venue in venue_all() if venue.pk in held]

    def get_context_data(self, **kwargs):
        held = user_venue_roles(self.request.user)
        choices = [
            (venue, [ROLE_LABELS[Role(role)] for role in sorted(held[venue.pk])]) for venue in self.held()
        ]
        return super().get_context_data(choices=choices, next=self.next_url(), **kwargs)

    def next_url(self) -> str:
        wanted = self.request.POST.get("next") or self.request.GET.get("next") or ""
        safe = url_has_allowed_host_and_scheme(wanted, {self.request.get_host()})
        return wanted if safe and wanted.startswith("/") else reverse("home")

    def post(self, request, *args, **kwargs):
        chosen = next((venue for venue in self.held() if str(venue.pk) == request.POST.get("venue")), None)
        if chosen is None:
            messages.error(request, _("Pick one of the venues where you hold a role."))
            return redirect(f"{reverse('venue-pick')}?next={self.next_url()}")
        request.session[SESSION_VENUE] = chosen.pk
        return redirect(self.next_url())


class VenueSettingsView(RoleRequiredMixin, FormView):
    allowed_roles = MANAGER_ROLES
    template_name = "cardroom/venue_form.html"
    form_class = VenueForm

    # The refusals about the venue's addresses (VEN-1), shown at the field they are about.
    field_of_error = {
        "invalid_slug": "slug",
        "slug_taken": "slug",
        "invalid_host_name": "host_names",
        "host_name_taken": "host_names",
    }

    def get_initial(self):
        return VenueForm.initial_for(venue_get())

    def get_context_data(self, **kwargs):
        venue = venue_get()
        return super().get_context_data(addresses=venue_public_addresses(self.request, venue), **kwargs)

    def form_valid(self, form):
        self.came_as = venue_get().slug
        try:
            self.result = venue_update(actor=self.request.user, venue=venue_get(), **form.cleaned_data)
        except DomainError as error:
            form.add_error(self.field_of_error.get(error.code), refusal(error))
            return self.form_invalid(form)
        return redirect(self.get_success_url())

    def get_success_url(self):
        messages.success(self.request, _("Venue settings saved."))
        # A page asked at /v/<old address name>/ goes on at the new one.
        prefixed, bare, by_path = _venue_paths(self.result, "venue-settings", came_as=self.came_as)
        return prefixed if by_path else bare


class AuditListView(RoleRequiredMixin, TemplateView):
    allowed_roles = (*MANAGER_ROLES, *ADMIN_ROLES)
    template_name = "cardroom/audit_list.html"
    page_size = 100

    def get_context_data(self, **kwargs):
        form = AuditFilterForm(self.request.GET or None)
        filters = {}
        if form.is_valid():
            data = form.cleaned_data
            zone = timezone.get_current_timezone()
            filters = {
                "action": data["action"],
                "object_type": data["object_type"],
                "actor_name": data["actor"],
                "since": datetime.combine(data["since"], time.min, tzinfo=zone) if data["since"] else None,
                "until": datetime.combine(data["until"], time.max, tzinfo=zone) if data["until"] else None,
            }
        records = audit_list(**filters).select_related(None)
        page = Paginator(records, self.page_size).get_page(self.request.GET.get("page"))
        query = self.request.GET.copy()
        query.pop("page", None)
        rows = [
            {
                "record": record,
                "actor": actor_label(record.actor_name),
                "action": action_label(record.action),
                "note": note_text(record.note),
                "object": object_label(record.object_type),
                "before": audit_lines(record.before, record.object_type),
                "after": audit_lines(record.after, record.object_type),
            }
            for record in page
        ]
        return super().get_context_data(form=form, page=page, rows=rows, query=query.urlencode(), **kwargs)


class RuleBookView(TemplateView):
    """The house rules in the reader's language, each rule at its own anchor (/rules/#CSH-5), where
    a refusal's link leads. Open to everyone: the room's rules are no secret, and the players'
    pages link them too."""

    template_name = "cardroom/rules.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(groups=rule_book(), **kwargs)


def permission_denied(request, exception):
    """A page the user's roles do not open: say which role it needs, in the user's language, and
    lead back. The rule's ID stays out of the page (it is in the API's answer and the log)."""
    if request.path.startswith("/api/"):
        detail = _("Your role does not allow this.")
        return JsonResponse({"code": "permission_denied", "detail": detail, "rule": "ROL-1"}, status=403)
    match = getattr(request, "resolver_match", None)
    view_class = getattr(getattr(match, "func", None), "view_class", None)
    needed = [ROLE_LABELS[Role(role)] for role in getattr(view_class, "allowed_roles", ())]
    held = [ROLE_LABELS[Role(role)] for role in sorted(user_roles(request.user))]
    referer = request.headers.get("referer", "")
    back = referer if referer and url_has_allowed_host_and_scheme(referer, {request.get_host()}) else ""
    context = {"needed": needed, "held": held, "back": back or reverse("home")}
    return render(request, "403.html", context, status=403)


def page_not_found(request, exception):
    """API clients get the error shape of every other API answer; people get the page."""
    if request.path.startswith("/api/"):
        return JsonResponse({"code": "not_found", "detail": _("No such address."), "rule": ""}, status=404)
    return defaults.page_not_found(request, exception)


def favicon(request):
    """Browsers ask for /favicon.ico on pages that link none (the TV clock, the board). The static
    URL is looked up per request, not when the URLconf loads: with hashed file names it needs the
    manifest, which `collectstatic` writes after the code is installed."""
    return redirect(static("favicon.svg"), permanent=True)
