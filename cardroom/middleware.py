from django.utils import timezone

from cardroom.selectors import venue_get


class VenueTimezoneMiddleware:
    """Show every time in the venue's zone (SPEC: stored in UTC, shown in Europe/Bratislava)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        timezone.activate(venue_get().time_zone)
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
