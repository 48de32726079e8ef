from django.urls import path, re_path

from players import api, views
from players.views import data_rights

app_name = "players"

urlpatterns = [
    path("", views.PlayerListView.as_view(), name="list"),
    path("new/", views.PlayerCreateView.as_view(), name="create"),
    path("<number:pk>/", views.PlayerDetailView.as_view(), name="detail"),
    path("<number:pk>/edit/", views.PlayerUpdateView.as_view(), name="update"),
    re_path(
        r"^(?P<pk>[0-9]+)/(?P<action>verify-id|exclude|lift-exclusion)/$",
        views.PlayerActionView.as_view(),
        name="action",
    ),
    # GDP-1: the player's data rights, for managers.
    path("<number:pk>/data.<slug:data_format>", data_rights.PlayerDataExportView.as_view(), name="export"),
    path("<number:pk>/erase/", data_rights.PlayerErasureView.as_view(), name="erase"),
    path("<number:pk>/identity/", data_rights.PlayerIdentityView.as_view(), name="identity"),
]

api_urlpatterns = [
    path("", api.PlayerListApi.as_view(), name="api-player-list"),
    path("<number:pk>/", api.PlayerDetailApi.as_view(), name="api-player-detail"),
    path("<number:pk>/verify-id/", api.PlayerVerifyIdApi.as_view(), name="api-player-verify-id"),
    path("<number:pk>/exclude/", api.PlayerExcludeApi.as_view(), name="api-player-exclude"),
    path(
        "<number:pk>/lift-exclusion/",
        api.PlayerExclusionLiftApi.as_view(),
        name="api-player-lift-exclusion",
    ),
]
