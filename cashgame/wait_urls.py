"""Players' phone pages (no log-in): join waiting lists and follow them, mounted at /wait/."""

from django.urls import path

from cashgame.views import remote

app_name = "wait"

urlpatterns = [
    path("", remote.JoinView.as_view(), name="join"),
    path("s/<str:token>/", remote.StatusView.as_view(), name="status"),
    path("s/<str:token>/rows/", remote.StatusRowsView.as_view(), name="rows"),
    path("s/<str:token>/leave/<number:entry>/", remote.LeaveView.as_view(), name="leave"),
    path("s/<str:token>/more-time/<number:entry>/", remote.MoreTimeView.as_view(), name="more-time"),
]
