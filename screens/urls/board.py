"""The public waiting-list board (no log-in, read-only), mounted at /board/."""

from django.urls import path

from screens.views import board

app_name = "board"

urlpatterns = [
    path("", board.BoardView.as_view(), name="board"),
    path("rows/", board.BoardRowsView.as_view(), name="rows"),
]
