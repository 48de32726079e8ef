"""The floor's dealer page: deal, flop, end or void a hand, and the seat states. The table is
drawn as on the paired dealer tablet (devices/), whose oval template it shares, and read by the
same selector (cashgame.selectors.dealing): a new game's first hand deals in everyone seated
with chips, and its button is drawn.

A refused step shows the page again with what was typed and the error next to the field it
concerns (the players dealt in, the button, the pot, the side pots); nothing is written."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import TemplateView

from cardroom.errors import DomainError
from cardroom.money import format_eur
from cardroom.roles import FLOOR_ROLES, RoleRequiredMixin
from cashgame import forms
from cashgame.models import CashTable, Hand, HandStatus, VoidReason
from cashgame.selectors.dealing import dealer_state
from cashgame.services import hands
from cashgame.views._common import confirm_amounts


def dealer_context(table: CashTable, **extra) -> dict:
    context = dealer_state(table=table)
    context.update(extra)
    context.setdefault("end_form", forms.HandEndForm())
    start_form = context.setdefault("start_form", forms.HandStartForm())
    # A refused deal shows the seats ticked and the button chosen as they were sent.
    context["ticked"] = None  # all the players in play
    context["chosen_button"] = context["next_button"]
    if start_form.is_bound:
        sent = start_form.data
        context["ticked"] = {int(seat) for seat in sent.getlist("seats") if seat.isdigit()}
        button = sent.get("button_seat", "")
        context["chosen_button"] = int(button) if button.isdigit() else None
    return context


def _table(pk: int) -> CashTable:
    return get_object_or_404(CashTable.objects.select_related("game"), pk=pk)


class DealerView(RoleRequiredMixin, TemplateView):
    """One tap per step: deal, flop, end with the pot, void; and the seat states."""

    allowed_roles = FLOOR_ROLES
    template_name = "cashgame/dealer.html"

    def get_context_data(self, **kwargs):
        confirm = self.request.GET.get("confirm")
        context = dealer_context(
            _table(kwargs["pk"]), confirm_void=confirm if confirm in VoidReason.values else None
        )
        return super().get_context_data(**context, **kwargs)


class DealerActionView(RoleRequiredMixin, View):
    """POST-only: one step of the hand log. Done, back to the page with what happened; refused,
    the page again with the error next to its field (status 400)."""

    allowed_roles = FLOOR_ROLES
    http_method_names = ["post"]

    def post(self, request, pk, action):
        table = _table(pk)
        back = reverse("cashgame:dealer", args=[pk])
        if action == "void" and request.POST.get("confirmed") != "yes":
            # A void is asked twice: the first tap only opens the question.
            reason = request.POST.get("reason", "")
            reason = reason if reason in VoidReason.values else VoidReason.MISDEAL
            return redirect(f"{back}?confirm={reason}")
        if action == "start":
            return self.start(request, table, back)
        if action == "end":
            return self.end(request, table, back)
        try:
            hand = self.hand_in_progress(table)
            if action == "flop":
                hand = hands.hand_flop(actor=request.user, hand=hand, now=timezone.now())
                messages.success(request, _("Hand %d: flop dealt.") % hand.number)
            else:
                form = forms.HandVoidForm(request.POST)
                if not form.is_valid():
                    messages.error(request, _("Say why the hand is void: a misdeal or a duplicate card."))
                    return redirect(back)
                reason = form.cleaned_data["reason"]
                hand = hands.hand_void(actor=request.user, hand=hand, reason=reason, now=timezone.now())
                messages.success(request, _("Hand %d is void: no rake.") % hand.number)
        except DomainError as error:
            messages.error(request, error.message)
        return redirect(back)

    @staticmethod
    def hand_in_progress(table: CashTable) -> Hand:
        hand = Hand.objects.filter(table=table, status=HandStatus.IN_PROGRESS).first()
        if hand is None:
            raise DomainError(
                "no_hand", _("No hand is in progress at this table."), rule="RAK-1", status_code=409
            )
        return hand

    def refused(self, request, table: CashTable, **forms_shown):
        return render(request, "cashgame/dealer.html", dealer_context(table, **forms_shown), status=400)

    def start(self, request, table: CashTable, back: str):
        form = forms.HandStartForm(request.POST, button_required=self.button_to_draw(table))
        if not form.is_valid():
            return self.refused(request, table, start_form=form)
        try:
            hand = hands.hand_start(
                actor=request.user,
                table=table,
                seats=form.cleaned_data["seats"],
                button_seat=form.cleaned_data["button_seat"],
                now=timezone.now(),
            )
        except DomainError as error:
            forms.add_hand_error(form, error)
            return self.refused(request, table, start_form=form)
        messages.success(request, _("Hand %d dealt.") % hand.number)
        return redirect(back)

    @staticmethod
    def button_to_draw(table: CashTable) -> bool:
        """No hand dealt since the table opened: the first hand's button is drawn (HND-2)."""
        dealt = Hand.objects.filter(table=table)
        if table.opened_at is not None:
            dealt = dealt.filter(started_at__gte=table.opened_at)
        return not dealt.exists()

    def end(self, request, table: CashTable, back: str):
        form = forms.HandEndForm(request.POST)
        if not form.is_valid():
            if getattr(form, "large_amounts", None):
                return confirm_amounts(request, form, back=back)
            return self.refused(request, table, end_form=form)
        try:
            hand = hands.hand_end(
                actor=request.user,
                hand=self.hand_in_progress(table),
                pot_cents=form.cleaned_data["pot"],
                side_pots_cents=form.cleaned_data["side_pots"],
                now=timezone.now(),
            )
        except DomainError as error:
            forms.add_hand_error(form, error)
            return self.refused(request, table, end_form=form)
        messages.success(
            request,
            _("Hand %(n)d ended: rake %(rake)s, jackpot drop %(drop)s.")
            % {
                "n": hand.number,
                "rake": format_eur(hand.rake_cents),
                "drop": format_eur(hand.jackpot_drop_cents),
            },
        )
        return redirect(back)
