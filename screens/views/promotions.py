"""The high-hand promotions on the room's screens (LOY-2): the TV's promotions screen, public
and read-only, in the language of its address (`?lang=sk`); its content refreshes every
5 seconds as the waiting board's does, and the time left counts down between refreshes."""

from django.middleware.http import ConditionalGetMiddleware
from django.utils.decorators import decorator_from_middleware, method_decorator
from django.views.generic import TemplateView

from cardroom.screen_language import ScreenLanguageMixin
from cashgame.selectors.promotions import high_hands_now


class TvPromotionsView(ScreenLanguageMixin, TemplateView):
    """Each running promotion's current high hand (cards, public name, table and seat), its
    prize with the carry-over and the time left in the period."""

    template_name = "screens/tv_promotions.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(high_hands=high_hands_now(), **kwargs)


@method_decorator(decorator_from_middleware(ConditionalGetMiddleware), name="get")
class TvPromotionsRowsView(TvPromotionsView):
    """The screen's content, polled every 5 seconds (an unchanged answer costs a 304)."""

    template_name = "screens/_tv_promotions.html"

    def render_to_response(self, context, **kwargs):
        response = super().render_to_response(context, **kwargs)
        response["Cache-Control"] = "no-cache"
        return response
