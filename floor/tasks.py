"""Celery task of the floor view: draw the room for the floor's screens (floor.drawing)."""

from celery import shared_task
from django.conf import settings

from floor.drawing import room_redraw


# A drawing is due again half a second later: one that waited a second for the worker is
# already older than the one the next request would ask for, so it is dropped.
@shared_task(
    name="floor.room_draw", acks_late=True, ignore_result=True, expires=1.0, time_limit=10, soft_time_limit=8
)
def room_draw(language: str = settings.LANGUAGE_CODE, tappable: bool = False, **kwargs) -> None:
    room_redraw(language=language, tappable=tappable)
