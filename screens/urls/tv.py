"""The public TV clock (no log-in, read-only), mounted at /tv/."""

from django.urls import path

from screens.views import leagues as league_views
from screens.views import promotions as promotion_views
from screens.views import tv as views

app_name = "tv"

urlpatterns = [
    path("<number:pk>/", views.TvClockView.as_view(), name="clock"),
    path("<number:pk>/state.json", views.TvStateView.as_view(), name="state"),
    path("leagues/<number:pk>/", league_views.TvLeagueView.as_view(), name="league"),
    path("promotions/", promotion_views.TvPromotionsView.as_view(), name="promotions"),
    path("promotions/rows/", promotion_views.TvPromotionsRowsView.as_view(), name="promotions-rows"),
    path("events/<number:pk>/day-two/", views.DayTwoSeatsTvView.as_view(), name="event-seats"),
]
