"""The public JSON API, /api/v1/: thin endpoints over games.actions and player_view.

Every endpoint needs a personal token (`Authorization: Bearer dzy_…`) and counts against its rate
limit. The OpenAPI schema is /api/v1/openapi.json and its documentation page /api/v1/docs.
"""

from __future__ import annotations

import json
import time
from typing import Annotated

from asgiref.sync import sync_to_async
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from ninja import NinjaAPI, Query, Status
from ninja.errors import AuthenticationError, HttpError, Throttled, ValidationError

from api import challenges, chat, conf, export, seeks, streams, tokens, tournaments
from api.auth import TokenAuth, TokenRateLimit, scoped
from api.guard import BadBody, GuardedParser
from api.lobby import create
from api.models import CHALLENGE
from api.present import facts, view_for
from api.schemas import (
    MAX_ID,
    Events,
    Game,
    MatchFacts,
    MatchFilter,
    MatchIn,
    MatchSummary,
    Me,
    MoveIn,
    PlayerViewOut,
)
from api.shared import ERRORS, MatchId, get_match
from games import actions
from games.engines.registry import available_engines, get_bots
from games.models import BOT_LEVELS, Match, Seat

api = NinjaAPI(
    title="Dizzysite API",
    version="1",
    description="Play from your own program. Create a token on your settings page (API tokens) and send it "
    'as `Authorization: Bearer <token>`. Errors are JSON: `{"detail": "..."}`.',
    auth=TokenAuth(),
    throttle=[TokenRateLimit()],
    parser=GuardedParser(),
    urls_namespace="api-v1",
    docs_url=None,  # /api/v1/docs is our own page, drawn from the schema (api/docs.py)
    openapi_url="/openapi.json",
)


def _json_error(request: HttpRequest, status: int, detail: str) -> HttpResponse:
    return api.create_response(request, {"detail": detail}, status=status)


@api.exception_handler(actions.ActionError)
def _action_error(request: HttpRequest, error: actions.ActionError) -> HttpResponse:
    return _json_error(request, error.status, str(error))


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, error: HttpError) -> HttpResponse:
    cause = error.__cause__  # django-ninja wraps what the parser raised; its message is the useful one
    return _json_error(request, error.status_code, str(cause) if isinstance(cause, BadBody) else str(error))


@api.exception_handler(ValidationError)
def _validation_error(request: HttpRequest, error: ValidationError) -> HttpResponse:
    parts = [f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg', 'invalid')}" for e in error.errors]
    return _json_error(request, 400, "Invalid request. " + "; ".join(parts))


@api.exception_handler(AuthenticationError)
def _unauthorized(request: HttpRequest, error: AuthenticationError) -> HttpResponse:
    response = _json_error(
        request,
        401,
        "A valid API token is needed: send `Authorization: Bearer <token>` (create one at /settings/api/).",
    )
    response["WWW-Authenticate"] = "Bearer"
    return response


@api.exception_handler(Throttled)
def _throttled(request: HttpRequest, error: Throttled) -> HttpResponse:
    limit, window = conf.get("DIZZY_API_RATE_LIMIT"), conf.get("DIZZY_API_RATE_WINDOW")
    return _json_error(request, 429, f"Too many requests: {limit} per {window} s per token. See Retry-After.")


@api.get("/me", response={200: Me, **ERRORS}, summary="Who this token acts for")
def me(request: HttpRequest):
    user = request.auth
    return {"username": user.username, "name": user.public_name, "is_bot": user.is_bot}


@api.get("/games", response={200: list[Game], **ERRORS}, summary="The games, their options and bot levels")
def games(request: HttpRequest):
    levels = [level for level, _ in BOT_LEVELS]
    return [
        {
            "slug": slug,
            "name": engine.name,
            "min_players": engine.min_players,
            "max_players": engine.max_players,
            "bot_levels": [level for level in levels if level in get_bots(slug)],
            "options": [{**vars(o), "choices": [list(c) for c in o.choices]} for o in engine.options],
            "moves": {kind: sorted(fields) for kind, fields in sorted(engine.move_fields.items())},
        }
        for slug, engine in sorted(available_engines().items())
    ]


# The seat's and its match's columns my_matches reads for a MatchSummary.
SUMMARY_FIELDS = [
    "number",
    "to_act",
    "handed_to_bot",
    "accepted",
    "deadline",
    *(f"match__{f}" for f in ("game", "status", "version", "revision")),
]


def _filtered_seats(user, which: MatchFilter):
    seats = (
        Seat.objects.filter(user=user)
        .select_related("match")
        .only(*SUMMARY_FIELDS)  # what a MatchSummary shows, never the state (100 rows a page)
        .exclude(match__status=Match.Status.CANCELLED)
    )
    playing = seats.filter(match__status=Match.Status.ACTIVE, accepted=True, handed_to_bot=False)
    return {
        MatchFilter.all: seats,
        MatchFilter.my_turn: playing.filter(to_act=True),
        MatchFilter.waiting: playing.filter(to_act=False),
        MatchFilter.finished: seats.filter(match__status__in=[Match.Status.FINISHED, Match.Status.ABORTED]),
        MatchFilter.invited: seats.filter(match__status=Match.Status.OPEN, accepted=False),
        MatchFilter.open: seats.filter(match__status=Match.Status.OPEN, accepted=True),
    }[which]


@api.get(
    "/matches",
    response={200: list[MatchSummary], **ERRORS},
    summary="My matches, newest first, a page at a time: the X-Next-Before header is the next page's cursor",
)
def my_matches(
    request: HttpRequest,
    response: HttpResponse,
    filter: Annotated[MatchFilter, Query()] = MatchFilter.all,  # noqa: A002 (the API's word)
    before: Annotated[int | None, Query(ge=1, le=MAX_ID, description="A cursor: matches older than this id")] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 100,
):
    seats = _filtered_seats(request.auth, filter)
    if before is not None:
        seats = seats.filter(match_id__lt=before)
    seats = list(seats.order_by("-match_id")[: limit + 1])
    if len(seats) > limit:  # keyset paging (the list stopped at the newest 100)
        seats = seats[:limit]
        response["X-Next-Before"] = str(seats[-1].match_id)
        response["Link"] = (
            f'<{request.path}?filter={filter.value}&before={seats[-1].match_id}&limit={limit}>; rel="next"'
        )
    return [
        {
            "id": s.match.pk,
            "game": s.match.game,
            "game_name": s.match.game_name,
            "status": s.match.status,
            "seat": s.number,
            "my_turn": s.to_act and s.match.status == Match.Status.ACTIVE and not s.handed_to_bot,
            "invited": not s.accepted,
            "version": s.match.version,
            "revision": s.match.revision,
            "deadline": s.deadline,
        }
        for s in seats
    ]


@api.post(
    "/matches",
    response={201: MatchFacts, **ERRORS},
    summary="Create a match (I take the first seat)",
    **scoped(CHALLENGE),
)
def create_match(request: HttpRequest, body: MatchIn):
    match = create(request.auth, body)
    return Status(201, facts(get_match(match.pk)))


@api.get("/matches/{match_id}", response={200: MatchFacts, **ERRORS}, summary="A match's public facts")
def match_facts(request: HttpRequest, match_id: MatchId):
    return facts(get_match(match_id))


@api.get(
    "/matches/{match_id}/view",
    response={200: PlayerViewOut, **ERRORS},
    summary="My view of a match: what the board page shows me, my legal moves, the version, the clock",
)
def my_view(request: HttpRequest, match_id: MatchId):
    return view_for(get_match(match_id), request.auth)


@api.post(
    "/matches/{match_id}/moves",
    response={200: PlayerViewOut, **ERRORS},
    summary="Play a move chosen on a version: 409 if the board changed, 403 if it is not my turn",
)
def play(request: HttpRequest, body: MoveIn, match_id: MatchId):
    """The board's checks in the board's order (games.actions.do_move): a malformed move is a 400,
    then no seat a 403, then a changed board a 409, then out of turn a 403 (the board says 400 for
    it), then an illegal move a 400."""
    get_match(match_id)
    try:
        match = actions.do_move(match_id, request.auth, body.version, json.dumps(body.move.model_dump()))
    except actions.NotYourTurn as error:
        raise actions.NotAllowed(str(error)) from None
    return view_for(match, request.auth)


@api.post(
    "/matches/{match_id}/resign",
    response={200: PlayerViewOut, **ERRORS},
    summary="Resign my seat (ruling SITE-RESIGN): a game of two ends and the other player wins; in a bigger "
    "game a bot plays my seat to the end and I am ranked last. 403 without a seat, 409 if not in play",
)
def resign(request: HttpRequest, match_id: MatchId):
    get_match(match_id)
    actions.do_resign(match_id, request.auth)
    return view_for(get_match(match_id), request.auth)


@api.post(
    "/matches/{match_id}/abort",
    response={200: PlayerViewOut, **ERRORS},
    summary="Abort the match before every seat has made its first move (ruling SITE-ABORT): no result, not "
    "rated. 403 without a seat, 409 once every seat has moved or the match is not in play",
)
def abort(request: HttpRequest, match_id: MatchId):
    get_match(match_id)
    actions.do_player_abort(match_id, request.auth)
    return view_for(get_match(match_id), request.auth)


@api.get(
    "/matches/{match_id}/events",
    response={200: Events, **ERRORS},
    summary="Long poll: answers when the match's revision passes `since`, or after 30 s with changed=false "
    "(GET stream/match/{id} follows a match on one connection)",
)
async def events(request: HttpRequest, since: Annotated[int, Query(ge=0, le=MAX_ID)], match_id: MatchId):
    """An answer at once when the revision has passed `since`; else the wait happens in the body of a
    streaming response on the server's event loop (streams.long_poll): the view returns at once, so
    the site's sync middleware (WhiteNoise, the time zone and language ones) hold no thread while a
    bot waits, and no database read is repeated: the match's live channel wakes it."""
    row = await sync_to_async(_poll_row)(match_id)
    if row is None:
        raise HttpError(404, "There is no such match.")
    if row[0] > since:
        return _events_answer(row, since)
    deadline = time.monotonic() + conf.get("DIZZY_API_LONGPOLL_SECONDS")
    body = streams.long_poll(match_id, since, deadline, _poll_row, _events_answer)
    response = StreamingHttpResponse(body, content_type="application/json")
    response["X-Accel-Buffering"] = "no"
    return response


def _events_answer(row: tuple[int, int, str], since: int) -> dict:
    revision, version, status = row
    return {"changed": revision > since, "revision": revision, "version": version, "status": status}


def _poll_row(match_id: int) -> tuple[int, int, str] | None:
    return Match.objects.filter(pk=match_id).values_list("revision", "version", "status").first()


@api.post(
    "/matches/{match_id}/join",
    response={200: MatchFacts, **ERRORS},
    summary="Accept an invitation or join: 409 when I have a seat already",
    **scoped(CHALLENGE),
)
def join(request: HttpRequest, match_id: MatchId):
    get_match(match_id)
    actions.do_join(match_id, request.auth)
    return facts(get_match(match_id))


@api.post(
    "/matches/{match_id}/leave",
    response={200: MatchFacts, **ERRORS},
    summary="Decline or leave before the start: 403 when I have no seat",
    **scoped(CHALLENGE),
)
def leave(request: HttpRequest, match_id: MatchId):
    get_match(match_id)
    actions.do_leave(match_id, request.auth)
    return facts(get_match(match_id))


# --- the endpoint groups, one module each ------------------------------------------------
for _module in (tokens, seeks, challenges, chat, export, tournaments, streams):
    api.add_router("/", _module.router)
