"""The players' public pages (no log-in, read-only), mounted at /room/."""

from django.urls import path

from screens.views import leagues as league_views
from screens.views import public as views

app_name = "lobby"

urlpatterns = [
    path("", views.RoomView.as_view(), name="room"),
    path("live/", views.RoomLiveView.as_view(), name="live"),
    path("qr.svg", views.QrView.as_view(), name="qr"),
    path("tournaments/<number:pk>/", views.TournamentView.as_view(), name="tournament"),
    path("leagues/", league_views.RoomLeaguesView.as_view(), name="leagues"),
    path("leagues/<number:pk>/", league_views.LeagueView.as_view(), name="league"),
]
