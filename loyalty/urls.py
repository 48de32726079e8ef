"""The loyalty pages: staff pages under /loyalty/, the player's private page at /room/me/."""

from django.urls import path

from loyalty import api, views

app_name = "loyalty"

urlpatterns = [
    path("settings/", views.SettingsView.as_view(), name="settings"),
    path("players/<number:pk>/redeem/", views.RedeemView.as_view(), name="redeem"),
    path("players/<number:pk>/new-link/", views.LinkRevokeView.as_view(), name="link-revoke"),
]

# Mounted at /room/me/ by cardroom/urls.py, in the "loyalty_room" namespace.
room_urlpatterns = [
    path("<str:token>/", views.MyPointsView.as_view(), name="me"),
]

api_urlpatterns = [
    path("players/<number:pk>/", api.StandingApi.as_view(), name="loyalty-api-standing"),
    path("players/<number:pk>/history/", api.HistoryApi.as_view(), name="loyalty-api-history"),
    path("players/<number:pk>/redemptions/", api.RedemptionApi.as_view(), name="loyalty-api-redeem"),
]
