"""Setting up multi-day events (SER-2) from the pages: the list of events with their flights and
Day 2 and a manager's "New event" form, and on the event page the forms that add a flight and
name the Day 2. Each action calls one service; a refusal comes back as a form error and nothing
is written. What the service would refuse is not offered, or its button is greyed out with why."""

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from cardroom.errors import DomainError
from cardroom.refusals import refusal
from cardroom.roles import FLOOR_ROLES, MANAGER_ROLES, RoleRequiredMixin, has_role
from tournaments.forms import DayTwoForm, EventForm, FlightAddForm
from tournaments.models import Event
from tournaments.selectors.event_setup import (
    day_two_candidates,
    event_list,
    flight_candidates,
    next_flight_label,
)
from tournaments.services.events import event_create

RULE = "SER-2"


def _manager_only() -> DomainError:
    return DomainError("role_required", _("A manager sets up events."), rule="ROL-1")


class EventListView(RoleRequiredMixin, TemplateView):
    """Every event with its flights and its Day 2; a manager's "New event" form (a floor member
    sees the form's button greyed out with why)."""

    allowed_roles = FLOOR_ROLES
    template_name = "tournaments/event_list.html"

    def get_context_data(self, **kwargs):
        can_set_up = has_role(self.request.user, *MANAGER_ROLES)
        kwargs.setdefault("form", EventForm())
        return super().get_context_data(
            events=event_list(),
            can_set_up=can_set_up,
            set_up_refusal=None if can_set_up else _manager_only(),
            **kwargs,
        )


class EventCreateView(EventListView):
    """POST only: the "New event" form of the list. Refused, the list comes back with the form
    and its error (400), and no event is written."""

    allowed_roles = MANAGER_ROLES
    http_method_names = ["post"]

    def post(self, request):
        form = EventForm(request.POST)
        if form.is_valid():
            try:
                event = event_create(actor=request.user, **form.cleaned_data)
            except DomainError as error:
                form.add_error(None, refusal(error))
            else:
                messages.success(request, _("Event %s created: add its flights and its Day 2.") % event)
                return redirect("tournaments:event", pk=event.pk)
        return self.render_to_response(self.get_context_data(form=form), status=400)


def event_setup_context(user, event: Event, *, flight_form=None, day_two_form=None) -> dict:
    """The event page's set-up part: the forms offered (only the tournaments the services take)
    or why each is refused now."""
    can_set_up = has_role(user, *MANAGER_ROLES)
    flights_offered = flight_candidates()
    day_twos_offered = day_two_candidates() if event.day_two_id is None else []
    flight_refusal = day_two_refusal = None
    if not can_set_up:
        flight_refusal = day_two_refusal = _manager_only()
    elif event.day_two_drawn_at is not None:
        flight_refusal = DomainError("day_two_drawn", _("The Day 2 is drawn already."), rule=RULE)
    if can_set_up and flight_refusal is None and not flights_offered:
        flight_refusal = DomainError(
            "no_candidate",
            _(
                "No tournament can become a flight: create one that has not started, is in no "
                "event and has no guarantee or bounty of its own."
            ),
            rule=RULE,
        )
    if can_set_up and event.day_two_id is None and not day_twos_offered:
        day_two_refusal = DomainError(
            "no_candidate",
            _(
                "No tournament can be the Day 2: create one that has not started, is in no event "
                "and has no entries."
            ),
            rule=RULE,
        )
    if flight_form is None:
        flight_form = FlightAddForm(initial={"label": next_flight_label(event=event)})
    flight_form.offer(flights_offered)
    if day_two_form is None:
        day_two_form = DayTwoForm()
    day_two_form.offer(day_twos_offered)
    return {
        "can_set_up": can_set_up,
        "flight_form": flight_form,
        "flight_refusal": flight_refusal,
        "day_two_form": day_two_form,
        "day_two_refusal": day_two_refusal,
    }
