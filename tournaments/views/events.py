"""Multi-day events (SER-2) on the floor: the event page (flights, bags, the Day 2 draw), the
bag-and-tag page of a flight (its tables drawn with their seats, a count typed at each seat,
signed by the floor member logged in and a second one who types his own password on the same
tablet), and the printable Day 2 seat list."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views import View
from django.views.generic import TemplateView

from cardroom.errors import DomainError
from cardroom.money import format_chips
from cardroom.refusals import refusal
from cardroom.roles import FLOOR_ROLES, MANAGER_ROLES, RoleRequiredMixin, has_role
from tournaments.forms import DayTwoForm, FlightAddForm
from tournaments.models import Event, Tournament, TournamentStatus
from tournaments.selectors.events import (
    bag_sheet_get,
    bag_witnesses,
    day_two_seats_list,
    event_bags_list,
    event_get,
)
from tournaments.services import events as services
from tournaments.services.events import event_day_two_set, event_flight_add
from tournaments.views.common import TournamentPage, run_service
from tournaments.views.event_setup import event_setup_context


class EventView(RoleRequiredMixin, TemplateView):
    """An event's flights with their chips in play against their bags, every bag (void ones
    marked), a manager's acceptance of a difference, and the Day 2 draw (greyed out with why)."""

    allowed_roles = FLOOR_ROLES
    template_name = "tournaments/event.html"

    def get_context_data(self, **kwargs):
        event = get_object_or_404(Event, pk=kwargs["pk"])
        setup = event_setup_context(
            self.request.user,
            event,
            flight_form=kwargs.pop("flight_form", None),
            day_two_form=kwargs.pop("day_two_form", None),
        )
        return super().get_context_data(
            **event_get(event=event),
            bags=event_bags_list(event=event),
            can_accept=has_role(self.request.user, *MANAGER_ROLES),
            **setup,
            **kwargs,
        )


class EventFlightAddView(EventView):
    """POST only: a manager makes one of the venue's tournaments a flight of the event (1A).
    Refused, the event page comes back with the form and why (400); nothing is written."""

    allowed_roles = MANAGER_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int):
        event = get_object_or_404(Event, pk=pk)
        form = FlightAddForm(request.POST)
        if form.is_valid():
            try:
                flight = event_flight_add(
                    actor=request.user,
                    event=event,
                    tournament=form.cleaned_data["tournament"],
                    label=form.cleaned_data["label"],
                )
            except DomainError as error:
                form.add_error(None, refusal(error))
            else:
                messages.success(
                    request,
                    _("Flight %(label)s added: %(name)s.")
                    % {"label": flight.flight_label, "name": flight.name},
                )
                return redirect("tournaments:event", pk=pk)
        return self.render_to_response(self.get_context_data(pk=pk, flight_form=form), status=400)


class EventDayTwoView(EventView):
    """POST only: a manager names the event's Day 2, a tournament not started with no entries.
    Refused, the event page comes back with the form and why (400); nothing is written."""

    allowed_roles = MANAGER_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int):
        event = get_object_or_404(Event, pk=pk)
        form = DayTwoForm(request.POST)
        if form.is_valid():
            try:
                event_day_two_set(actor=request.user, event=event, tournament=form.cleaned_data["tournament"])
            except DomainError as error:
                form.add_error(None, refusal(error))
            else:
                messages.success(
                    request, _("The Day 2 is %(name)s.") % {"name": form.cleaned_data["tournament"].name}
                )
                return redirect("tournaments:event", pk=pk)
        return self.render_to_response(self.get_context_data(pk=pk, day_two_form=form), status=400)


class EventDrawView(RoleRequiredMixin, View):
    allowed_roles = FLOOR_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int):
        event = get_object_or_404(Event, pk=pk)
        run_service(
            request,
            lambda: services.day_two_draw(actor=request.user, event=event),
            _("The Day 2 is drawn: every bag has its seat."),
        )
        return redirect("tournaments:event", pk=pk)


class FlightAcceptView(RoleRequiredMixin, View):
    allowed_roles = MANAGER_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int):
        flight = get_object_or_404(Tournament, pk=pk, event__isnull=False)
        run_service(
            request,
            lambda: services.flight_difference_accept(
                actor=request.user, flight=flight, reason=request.POST.get("reason", "")[:300]
            ),
            _("The difference is accepted."),
        )
        return redirect("tournaments:event", pk=flight.event_id)


class FlightEndView(RoleRequiredMixin, View):
    allowed_roles = FLOOR_ROLES
    http_method_names = ["post"]

    def post(self, request, pk: int):
        flight = get_object_or_404(Tournament, pk=pk)
        run_service(
            request,
            lambda: services.flight_end(actor=request.user, flight=flight),
            _("The day is over: bag the survivors."),
        )
        return redirect("tournaments:bags", pk=pk)


class BagSheetView(TournamentPage):
    """Bag and tag (SER-2): each table with its seats; the floor types each survivor's count at
    his seat; the second signer picks his name and types his password; one table at a time."""

    allowed_roles = FLOOR_ROLES
    template_name = "tournaments/bags.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        flight = context["tournament"]
        sheet = bag_sheet_get(flight=flight)
        typed = getattr(self, "typed", {})
        for row in sheet["chart"]:
            for seat in row["seats"]:
                if seat["entry"] is not None:
                    bag = seat["bag"]
                    seat["value"] = typed.get(seat["entry"].pk, format_chips(bag.chips) if bag else "")
        can_bag = flight.status in (TournamentStatus.PAUSED, TournamentStatus.FINISHED) and (
            flight.event_id is not None and flight.event.day_two_drawn_at is None
        )
        context.update(
            sheet=sheet,
            witnesses=bag_witnesses(exclude_user=self.request.user),
            can_bag=can_bag,
            can_end=flight.event_id is not None and flight.clock_started,
        )
        return context

    def get(self, request, *args, **kwargs):
        flight = get_object_or_404(Tournament, pk=kwargs["pk"])
        if flight.event_id is None:
            messages.error(request, _("This tournament is not a flight of an event."))
            return redirect("tournaments:detail", pk=flight.pk)
        return super().get(request, *args, **kwargs)

    def post(self, request, pk: int):
        flight = get_object_or_404(Tournament, pk=pk)
        counts = [
            services.BagCount(int(name.removeprefix("count_")), value[:20])
            for name, value in list(request.POST.items())[:40]
            if name.startswith("count_") and name.removeprefix("count_").isdigit() and len(name) <= 20
        ]
        witness = request.POST.get("witness", "")
        table = request.POST.get("table", "")
        bags = run_service(
            request,
            lambda: services.bags_record(
                actor=request.user,
                flight=flight,
                counts=counts,
                witness_id=int(witness) if witness.isdigit() and len(witness) <= 9 else None,
                witness_password=request.POST.get("password", "")[:200],
            ),
            _("The bags are recorded and signed."),
        )
        if bags is None:
            # Refused: the page comes back with what was typed, for the floor to correct.
            self.typed = {count.entry_id: count.text for count in counts}
            response = self.get(request, pk=pk)
            response.status_code = 400
            return response
        if isinstance(bags, list):
            messages.info(
                request,
                ngettext("%(n)d bag written.", "%(n)d bags written.", len(bags)) % {"n": len(bags)},
            )
        anchor = f"#table-{table}" if table.isdigit() and len(table) <= 3 else ""
        return redirect(f"{request.path}{anchor}")


class DayTwoSeatListView(RoleRequiredMixin, TemplateView):
    """The Day 2 seat list with the counts, to print (SER-2): alphabetical, as the floor knows
    the players."""

    allowed_roles = FLOOR_ROLES
    template_name = "tournaments/day_two_seats.html"

    def get_context_data(self, **kwargs):
        event = get_object_or_404(Event, pk=kwargs["pk"])
        return super().get_context_data(
            event=event, rows=day_two_seats_list(event=event, public=False), **kwargs
        )
