from django.urls import path, re_path

from tournaments import api, views

app_name = "tournaments"

urlpatterns = [
    path("", views.TournamentListView.as_view(), name="list"),
    path("new/", views.TournamentCreateView.as_view(), name="create"),
    path("<int:pk>/", views.TournamentDetailView.as_view(), name="detail"),
    re_path(
        r"^(?P<pk>[0-9]+)/(?P<action>open-registration|start|pause|resume|add-minute|remove-minute|"
        r"next-level|previous-level|finish|cancel)/$",
        views.TournamentActionView.as_view(),
        name="action",
    ),
    path("structures/", views.StructureListView.as_view(), name="structure-list"),
    path("structures/import/", views.StructureImportView.as_view(), name="structure-import"),
    path("structures/<int:pk>/", views.StructureDetailView.as_view(), name="structure-detail"),
    re_path(
        r"^structures/(?P<pk>[0-9]+)/export\.(?P<file_format>csv|json)$",
        views.StructureExportView.as_view(),
        name="structure-export",
    ),
]

api_urlpatterns = [
    path("structures/", api.StructureListApi.as_view(), name="api-structure-list"),
    path("structures/import/", api.StructureImportApi.as_view(), name="api-structure-import"),
    path("structures/<int:pk>/", api.StructureDetailApi.as_view(), name="api-structure-detail"),
    re_path(
        r"^structures/(?P<pk>[0-9]+)/export/(?P<file_format>csv|json)/$",
        api.StructureExportApi.as_view(),
        name="api-structure-export",
    ),
    path("tournaments/", api.TournamentListApi.as_view(), name="api-tournament-list"),
    path("tournaments/<int:pk>/", api.TournamentDetailApi.as_view(), name="api-tournament-detail"),
    path("tournaments/<int:pk>/clock/", api.TournamentClockApi.as_view(), name="api-tournament-clock"),
    path(
        "tournaments/<int:pk>/levels/<int:order>/",
        api.TournamentLevelApi.as_view(),
        name="api-tournament-level",
    ),
    path(
        "tournaments/<int:pk>/open-registration/",
        api.TournamentOpenRegistrationApi.as_view(),
        name="api-tournament-open-registration",
    ),
    path("tournaments/<int:pk>/start/", api.TournamentStartApi.as_view(), name="api-tournament-start"),
    path("tournaments/<int:pk>/pause/", api.TournamentPauseApi.as_view(), name="api-tournament-pause"),
    path("tournaments/<int:pk>/resume/", api.TournamentResumeApi.as_view(), name="api-tournament-resume"),
    path(
        "tournaments/<int:pk>/add-time/", api.TournamentAddTimeApi.as_view(), name="api-tournament-add-time"
    ),
    path(
        "tournaments/<int:pk>/next-level/",
        api.TournamentNextLevelApi.as_view(),
        name="api-tournament-next-level",
    ),
    path(
        "tournaments/<int:pk>/previous-level/",
        api.TournamentPreviousLevelApi.as_view(),
        name="api-tournament-previous-level",
    ),
    path("tournaments/<int:pk>/finish/", api.TournamentFinishApi.as_view(), name="api-tournament-finish"),
    path("tournaments/<int:pk>/cancel/", api.TournamentCancelApi.as_view(), name="api-tournament-cancel"),
]
