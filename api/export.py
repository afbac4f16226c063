"""A match's whole record, and a player's finished matches as NDJSON (lichess: GET
/game/export/{id} and GET /api/games/user/{username}).

Both are public once a match has finished (ruling ALL-3: everything is public after the end), and
only then: the record is ratings' own (ratings.replay.build_record, the file the match page offers,
which `manage.py replay` checks). The export pages by a keyset cursor: `before` a match id, newest
first; the response's `X-Next-Before` header (and a `Link: rel="next"`) gives the next page."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Annotated, Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Prefetch
from django.http import HttpRequest, StreamingHttpResponse
from ninja import Path, Query, Router
from ninja.errors import HttpError

from accounts.models import User
from api.present import facts
from api.schemas import MAX_ID
from api.shared import ERRORS, MatchId, get_match
from games.models import Match, Seat
from ratings.replay import build_record

router = Router(tags=["export"])
MAX_PAGE = 200
NDJSON = "application/x-ndjson"
STRING = {"type": "string"}


@router.get(
    "/matches/{match_id}/record",
    response={200: dict[str, Any], **ERRORS},
    summary="A finished match's whole record (seed, options, clock, seats, every move, result): "
    "403 until it has finished",
)
def record(request: HttpRequest, match_id: MatchId):
    match = get_match(match_id)
    if match.status != Match.Status.FINISHED:
        raise HttpError(403, "A match's record is public once it has finished (ruling ALL-3), not before.")
    return build_record(match)


def finished_of(user, before: int | None):
    """`user`'s finished matches, newest first, older than `before` (a match id) when given."""
    matches = Match.objects.filter(seats__user=user, status=Match.Status.FINISHED).distinct()
    if before is not None:
        matches = matches.filter(pk__lt=before)
    return matches.prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user"))).order_by("-pk")


def _lines(matches: list[Match], with_moves: bool) -> Iterator[bytes]:
    for match in matches:
        line: dict[str, Any] = facts(match)
        if with_moves:
            line["record"] = build_record(match)
        yield (json.dumps(line, cls=DjangoJSONEncoder, ensure_ascii=False) + "\n").encode()


@router.get(
    "/users/{username}/matches",
    response={200: dict[str, Any], **ERRORS},
    summary="A player's finished matches, newest first, one JSON object a line (NDJSON); "
    "the X-Next-Before header is the next page's cursor",
    openapi_extra={
        "responses": {"200": {"description": "NDJSON", "content": {NDJSON: {"schema": {"type": "string"}}}}}
    },
)
def export(
    request: HttpRequest,
    username: Annotated[str, Path(max_length=150, pattern=r"^[\w.@+-]+$")],
    before: Annotated[int | None, Query(ge=1, le=MAX_ID, description="A cursor: matches older than this id")] = None,
    max: Annotated[int, Query(ge=1, le=MAX_PAGE, description="At most this many matches")] = 100,  # noqa: A002
    moves: Annotated[bool, Query(description="Each match's whole record too")] = False,
):
    player = User.objects.filter(username=username, is_active=True).first()
    if player is None:
        raise HttpError(404, "There is no such player.")
    page = list(finished_of(player, before)[: max + 1])
    more, page = len(page) > max, page[:max]
    response = StreamingHttpResponse(_lines(page, moves), content_type=NDJSON)
    if more:
        cursor = page[-1].pk
        response["X-Next-Before"] = str(cursor)
        response["Link"] = f'<{request.path}?before={cursor}&max={max}{"&moves=true" if moves else ""}>; rel="next"'
    return response
