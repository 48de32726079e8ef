"""The public waiting-list board (no log-in, read-only), mounted at /board/."""

from django.urls import path

from cashgame import views

app_name = "board"

urlpatterns = [
    path("", views.BoardView.as_view(), name="board"),
    path("rows/", views.BoardRowsView.as_view(), name="rows"),
]
