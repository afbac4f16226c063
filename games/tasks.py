"""Celery tasks: they take ids, re-read the match, and do nothing if it has moved on."""

from __future__ import annotations

import logging

from celery import shared_task

from games import actions
from games.models import Match

logger = logging.getLogger(__name__)


@shared_task
def play_bot_moves(match_id: int, version: int) -> None:
    """One bot seat that is to act at this version moves.

    Its move is queued again by the action if another bot is then to act (a chain of bot turns,
    or the other seat of a simultaneous step). Run twice, the second run finds a newer version
    and does nothing."""
    match = Match.objects.filter(pk=match_id, status=Match.Status.ACTIVE, version=version).first()
    if match is None:
        return
    seat = next((s for s in match.seats.filter(to_act=True) if s.is_bot), None)
    if seat is None:
        return
    move = actions.choose_bot_move(match, seat.number, seat.bot_level)
    try:
        actions.do_bot_move(match_id, seat.number, version, move)
    except actions.StaleVersion:
        return
    except actions.ActionError as error:
        logger.error("bot move refused in match %s seat %s: %s (%s)", match_id, seat.number, error, move)
