"""The leagues' staff pages, mounted at /leagues/ (SER-4)."""

from django.urls import include, path

from leagues import views

app_name = "leagues"

league_patterns = [
    path("", views.LeagueDetailView.as_view(), name="detail"),
    path("edit/", views.LeagueEditView.as_view(), name="edit"),
    path("tournaments/", views.LeagueTournamentsView.as_view(), name="tournaments"),
    path("standings.csv", views.LeagueCsvView.as_view(), name="csv"),
    path("standings.xlsx", views.LeagueCsvView.as_view(file_format="xlsx"), name="xlsx"),
]

urlpatterns = [
    path("", views.LeagueListView.as_view(), name="list"),
    path("new/", views.LeagueEditView.as_view(), name="create"),
    path("<number:pk>/", include(league_patterns)),
]
