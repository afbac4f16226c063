"""What the API's endpoint modules share: the error responses, a match id in a path, finding a match."""

from __future__ import annotations

from typing import Annotated

from ninja import Path
from ninja.errors import HttpError

from api.schemas import MAX_ID, Error
from games.models import Match

ERRORS = {400: Error, 401: Error, 403: Error, 404: Error, 409: Error, 413: Error, 429: Error}
MatchId = Annotated[int, Path(ge=1, le=MAX_ID)]


def get_match(match_id: int) -> Match:
    """The match with its seats and their users, or a 404."""
    match = Match.objects.prefetch_related("seats__user").filter(pk=match_id).first()
    if match is None:
        raise HttpError(404, "There is no such match.")
    return match
