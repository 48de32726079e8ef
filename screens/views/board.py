"""The room's waiting-list board (CSH-7): public and read-only, at /board/."""

from django.middleware.http import ConditionalGetMiddleware
from django.utils.decorators import decorator_from_middleware, method_decorator
from django.views.generic import TemplateView

from cardroom.screen_language import ScreenLanguageMixin
from cashgame.selectors import waiting_board, waiting_board_tables
from cashgame.selectors.promotions import high_hands_now


class BoardView(ScreenLanguageMixin, TemplateView):
    """The room's screens: public and read-only (CSH-7), public names only (WTL-3); in the
    language of its address (`?lang=sk`), and its rows refresh every 5 seconds in the same."""

    template_name = "screens/board.html"
    # Rows each game's column shows; the rest are counted ("+ 3 more"): legible from 6 m.
    rows_shown = 8

    def get_context_data(self, **kwargs):
        board = waiting_board_tables(waiting_board())
        for block in board:
            block["shown"] = block["entries"][: self.rows_shown]
            block["more"] = max(0, len(block["entries"]) - self.rows_shown)
        # LOY-2: one line per running high-hand promotion: its current best and the time left.
        return super().get_context_data(board=board, high_hands=high_hands_now(), **kwargs)


@method_decorator(decorator_from_middleware(ConditionalGetMiddleware), name="get")
class BoardRowsView(BoardView):
    """The board's rows, polled every 5 seconds. The answer's ETag is its content's digest and
    browsers keep it but ask each time (no-cache), so rows as they were cost a 304, no body."""

    template_name = "screens/_board_rows.html"

    def render_to_response(self, context, **kwargs):
        response = super().render_to_response(context, **kwargs)
        response["Cache-Control"] = "no-cache"
        return response
