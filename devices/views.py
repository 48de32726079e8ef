"""The managers' tablet page, the public pairing page and the dealer tablet itself (ROL-2)."""

from django.contrib import messages
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import TemplateView

from cardroom.errors import DomainError
from cardroom.money import format_eur
from cardroom.network import client_address
from cardroom.refusals import refusal, refuse
from cardroom.roles import MANAGER_ROLES, RoleRequiredMixin
from cashgame.forms import HandEndForm, HandVoidForm, add_hand_error
from cashgame.models import HandStatus, VoidReason
from dealers.board import table_dealers
from dealers.selectors import cash_key
from devices import selectors, services
from devices.forms import NewHandForm, PairForm, PairingCodeForm
from devices.middleware import set_device_cookie


class DeviceListView(RoleRequiredMixin, TemplateView):
    """The tablets and their tables; a new pairing code is shown once, in the answer to its POST."""

    allowed_roles = MANAGER_ROLES
    template_name = "devices/device_list.html"

    def get_context_data(self, **kwargs):
        kwargs.setdefault("form", PairingCodeForm())
        return super().get_context_data(devices=selectors.device_list(), **kwargs)

    def post(self, request):
        form = PairingCodeForm(request.POST)
        context = {"form": form}
        if form.is_valid():
            pairing, code = services.pairing_code_create(actor=request.user, table=form.cleaned_data["table"])
            context.update(
                pairing=pairing, code=code, pair_url=request.build_absolute_uri(reverse("devices:pair"))
            )
        response = self.render_to_response(self.get_context_data(**context))
        # The code is in this answer only: no cache, no back-button copy.
        response["Cache-Control"] = "no-store"
        return response


class DeviceUnpairView(RoleRequiredMixin, View):
    allowed_roles = MANAGER_ROLES
    http_method_names = ["post"]

    def post(self, request, pk):
        device = selectors.device_get(pk=pk)
        if device is None:
            messages.error(request, _("There is no such tablet."))
        else:
            try:
                services.device_unpair(actor=request.user, device=device)
            except DomainError as error:
                refuse(request, error)
            else:
                messages.success(
                    request, _("%(device)s is unpaired: it opens nothing any more.") % {"device": device}
                )
        return redirect("devices:list")


# Guessing a code on the public pairing page: after this many wrong codes from one address in
# PAIR_FAILURE_WINDOW seconds, that address is refused until the window ends.
PAIR_FAILURE_LIMIT = 10
PAIR_FAILURE_WINDOW = 600


def _failures_key(request) -> str:
    return f"devices:pair-failures:{client_address(request)}"


class PairView(View):
    """Public: the tablet types the code; it becomes the table's device and goes to its page."""

    template_name = "devices/pair.html"

    def get(self, request):
        if request.device:
            return redirect("devices:tablet")
        return render(request, self.template_name, {"form": PairForm()})

    def post(self, request):
        if request.device:
            return redirect("devices:tablet")
        form = PairForm(request.POST)
        key = _failures_key(request)
        if (cache.get(key) or 0) >= PAIR_FAILURE_LIMIT:
            form.add_error(None, _("Too many wrong codes from this tablet: wait 10 minutes, then try again."))
        elif form.is_valid():
            try:
                device, token = services.device_pair(
                    code=form.cleaned_data["code"], user_agent=request.headers.get("User-Agent", "")
                )
            except DomainError as error:
                form.add_error("code", refusal(error))
                cache.add(key, 0, PAIR_FAILURE_WINDOW)
                cache.incr(key)
            else:
                response = redirect("devices:tablet")
                set_device_cookie(response, token)
                messages.success(
                    request, _("This tablet now logs the hands of %(table)s.") % {"table": device.table}
                )
                return response
        return render(request, self.template_name, {"form": form}, status=400)


class DeviceRequiredMixin:
    """The tablet's pages: a paired tablet only. Staff get 403 (they have the floor's dealer
    page); a browser that is not paired, or no longer, goes to the pairing page."""

    def dispatch(self, request, *args, **kwargs):
        if request.device is None:
            if request.user.is_authenticated:
                raise PermissionDenied(_("This page is for a paired dealer tablet."))
            if request.device_unpaired:
                messages.error(request, _("A manager unpaired this tablet: ask for a new pairing code."))
            return redirect("devices:pair")
        return super().dispatch(request, *args, **kwargs)


def tablet_context(request, **extra) -> dict:
    device = request.device
    context = selectors.tablet_state(table=device.table)
    # Who deals here and the next push to this table (DLR-2): two queries.
    key = cash_key(device.table.pk)
    context["table_dealer"] = table_dealers(now=timezone.now(), keys=[key]).get(key)
    context.update(device=device, State=HandStatus, **extra)
    context.setdefault("end_form", HandEndForm())
    context.setdefault("start_form", NewHandForm())
    return context


class TabletView(DeviceRequiredMixin, View):
    """The oval table and the one next step. ?confirm=<reason> asks before voiding the hand."""

    def get(self, request):
        confirm = request.GET.get("confirm")
        extra = {"confirm_void": confirm if confirm in VoidReason.values else None}
        return render(request, "devices/tablet.html", tablet_context(request, **extra))


class TabletSeatsView(DeviceRequiredMixin, View):
    """The drawing alone, polled by the tablet page so new players and seat changes show up."""

    def get(self, request):
        context = tablet_context(request)
        # The button the dealer moved by a tap, still where he put it after the refresh.
        chosen = request.GET.get("button_seat", "")
        playing = {row["seat"] for row in context["seats"] if row["playing"]}
        if chosen.isdigit() and int(chosen) in playing:
            context["next_button"] = int(chosen)
        return render(request, "devices/_oval.html", context)


class TabletActionView(DeviceRequiredMixin, View):
    """The tablet's taps. A refusal is shown on the tablet's page, next to the field it concerns
    (the button, the pot, the side pots), with what was typed kept; nothing is written."""

    http_method_names = ["post"]

    def post(self, request, action):
        if action == "start":
            return self.start(request)
        if action == "end":
            return self.end(request)
        if action == "void":
            return self.void(request)
        try:
            hand = services.tablet_hand_flop(device=request.device)
        except DomainError as error:
            refuse(request, error)
        else:
            messages.success(request, _("Hand %(n)d: flop dealt, the hand is raked.") % {"n": hand.number})
        return redirect("devices:tablet")

    def refused(self, request, **forms):
        context = tablet_context(request, **forms)
        chosen = forms.get("start_form")
        if chosen is not None and chosen.is_bound and chosen.data.get("button_seat", "").isdigit():
            seat = int(chosen.data["button_seat"])
            if any(row["seat"] == seat and row["playing"] for row in context["seats"]):
                context["next_button"] = seat  # the tapped button stays where it was put
        return render(request, "devices/tablet.html", context, status=400)

    def start(self, request):
        form = NewHandForm(request.POST)
        if not form.is_valid():
            return self.refused(request, start_form=form)
        try:
            hand = services.tablet_hand_start(
                device=request.device, button_seat=form.cleaned_data["button_seat"]
            )
        except DomainError as error:
            add_hand_error(form, error)
            return self.refused(request, start_form=form)
        messages.success(request, _("Hand %(n)d dealt.") % {"n": hand.number})
        return redirect("devices:tablet")

    def end(self, request):
        form = HandEndForm(request.POST)
        if not form.is_valid():
            # Typed values stay; a large pot is shown back in words to confirm (CAG-5).
            context = tablet_context(
                request, end_form=form, large_amounts=getattr(form, "large_amounts", None)
            )
            return render(request, "devices/tablet.html", context, status=400)
        try:
            hand = services.tablet_hand_end(
                device=request.device,
                pot_cents=form.cleaned_data["pot"],
                side_pots_cents=form.cleaned_data["side_pots"],
            )
        except DomainError as error:
            add_hand_error(form, error)
            return self.refused(request, end_form=form)
        messages.success(
            request,
            _("Hand %(n)d ended: pot %(pot)s, rake %(rake)s, jackpot drop %(drop)s.")
            % {
                "n": hand.number,
                "pot": format_eur(hand.pot_cents),
                "rake": format_eur(hand.rake_cents),
                "drop": format_eur(hand.jackpot_drop_cents),
            },
        )
        return redirect("devices:tablet")

    def void(self, request):
        form = HandVoidForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("Say why the hand is void: a misdeal or a duplicate card."))
            return redirect("devices:tablet")
        reason = form.cleaned_data["reason"]
        if request.POST.get("confirmed") != "yes":
            # A void is asked twice: the first tap only opens the question.
            return redirect(f"{reverse('devices:tablet')}?confirm={reason}")
        try:
            hand = services.tablet_hand_void(device=request.device, reason=reason)
        except DomainError as error:
            messages.error(request, error.message)
        else:
            messages.success(
                request, _("Hand %(n)d is void: no rake, the chips go back.") % {"n": hand.number}
            )
        return redirect("devices:tablet")
