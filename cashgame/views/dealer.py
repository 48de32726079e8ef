"""The floor's dealer page: deal, flop, end or void a hand, and the seat states. The table is
drawn as on the paired dealer tablet (devices/), whose oval template it shares."""

from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from cardroom.errors import DomainError
from cardroom.roles import FLOOR_ROLES, RoleRequiredMixin
from cashgame import forms
from cashgame.models import CashTable, Hand, HandStatus, SeatState, VoidReason
from cashgame.seat_layout import drawn_seats
from cashgame.services import hands
from cashgame.views._common import ActionView
from cashgame.views.tables import table_context


class DealerView(RoleRequiredMixin, TemplateView):
    """One tap per step: deal, flop, end with the pot, void; and the seat states."""

    allowed_roles = FLOOR_ROLES
    template_name = "cashgame/dealer.html"

    def get_context_data(self, **kwargs):
        table = get_object_or_404(CashTable.objects.select_related("game"), pk=kwargs["pk"])
        context = table_context(table)
        last = Hand.objects.filter(table=table).exclude(status=HandStatus.IN_PROGRESS).order_by("-pk").first()
        context["last_hand"] = last
        context["next_button"] = _next_button(context["seats"], last)
        context["seats"] = drawn_seats(context["seats"], seats=table.seats, hand=context["hand"])
        context["playing_count"] = sum(1 for row in context["seats"] if row["playing"])
        confirm = self.request.GET.get("confirm")
        context["confirm_void"] = confirm if confirm in VoidReason.values else None
        return super().get_context_data(**context, **kwargs)


def _next_button(seats: list[dict], last: Hand | None) -> int | None:
    """The seat after the last hand's button that is in play: the dealer's suggestion."""
    playing = [row["seat"] for row in seats if row["session"] and row["session"].state == SeatState.PLAYING]
    if not playing:
        return None
    if last is None or last.button_seat is None:
        return playing[0]
    if last.status == HandStatus.VOIDED and last.button_seat in playing:
        return last.button_seat  # a void hand is dealt again with the button where it was
    after = [seat for seat in playing if seat > last.button_seat]
    return (after or playing)[0]


class DealerActionView(ActionView):
    def form(self):
        forms_by_action = {"start": forms.HandStartForm, "end": forms.HandEndForm, "void": forms.HandVoidForm}
        form_class = forms_by_action.get(self.kwargs["action"])
        return form_class(self.request.POST) if form_class else None

    def perform(self, form, pk, action):
        actor, now = self.request.user, timezone.now()
        if action == "start":
            return hands.hand_start(
                actor=actor,
                table=CashTable(pk=pk),
                seats=form.cleaned_data["seats"],
                button_seat=form.cleaned_data["button_seat"],
                now=now,
            )
        hand = Hand.objects.filter(table_id=pk, status=HandStatus.IN_PROGRESS).first()
        if hand is None:
            raise DomainError("no_hand", _("No hand is in progress at this table."), status_code=409)
        if action == "flop":
            return hands.hand_flop(actor=actor, hand=hand, now=now)
        if action == "end":
            return hands.hand_end(
                actor=actor,
                hand=hand,
                pot_cents=form.cleaned_data["pot"],
                side_pots_cents=form.cleaned_data["side_pots"],
                now=now,
            )
        return hands.hand_void(actor=actor, hand=hand, reason=form.cleaned_data["reason"], now=now)

    def post(self, request, **kwargs):
        if kwargs["action"] == "void" and request.POST.get("confirmed") != "yes":
            # A void is asked twice: the first tap only opens the question.
            reason = request.POST.get("reason", "")
            reason = reason if reason in VoidReason.values else VoidReason.MISDEAL
            return redirect(f"{self.back(**kwargs)}?confirm={reason}")
        return super().post(request, **kwargs)

    def message(self, result, **kwargs):
        if result.status == HandStatus.ENDED:
            return _("Hand %(n)d ended: rake %(rake)s, jackpot drop %(drop)s.") % {
                "n": result.number,
                "rake": f"{result.rake_cents / 100:.2f}",
                "drop": f"{result.jackpot_drop_cents / 100:.2f}",
            }
        if result.status == HandStatus.VOIDED:
            return _("Hand %d is void: no rake.") % result.number
        if result.saw_flop:
            return _("Hand %d: flop dealt.") % result.number
        return _("Hand %d dealt.") % result.number

    def back(self, pk, **kwargs):
        return reverse("cashgame:dealer", args=[pk])
