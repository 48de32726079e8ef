"""The public waiting-list board (no log-in, read-only), mounted at /board/."""

from django.urls import path

from cashgame.views import waiting

app_name = "board"

urlpatterns = [
    path("", waiting.BoardView.as_view(), name="board"),
    path("rows/", waiting.BoardRowsView.as_view(), name="rows"),
]
