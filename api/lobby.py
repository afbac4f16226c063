"""Creating a match from the API goes through the site's own MatchForm: one set of rules."""

from __future__ import annotations

import json
from typing import Any

from ninja.errors import HttpError

from accounts.models import User
from api.schemas import MatchIn
from games import actions
from games.engines.registry import available_engines
from games.forms import MatchForm
from games.models import Match


def form_data(body: MatchIn, engine) -> dict[str, Any]:
    """The new-match form's fields, filled from the API body (absent options take their defaults)."""
    data: dict[str, Any] = {
        "game": str(body.game),
        "players": 1 + len(body.others),
        "time_preset": body.clock.preset,
        "turn_minutes": getattr(body.clock, "turn_minutes", None),
        "reserve_periods": getattr(body.clock, "reserve_periods", None),
        "period_minutes": getattr(body.clock, "period_minutes", None),
        "weekend_pause": body.clock.weekend_pause,
        "spectators_read_chat": body.spectators_read_chat,
        "rated": body.rated,
    }
    for number, seat in enumerate(body.others, start=1):
        data[f"seat_{number}"] = f"bot:{seat.level}" if seat.kind == "bot" else seat.kind
        data[f"invite_{number}"] = getattr(seat, "username", "")
    options = options_of(body)
    for option in engine.options:
        data[f"option_{option.name}"] = options.get(option.name, option.default)
    return {key: value for key, value in data.items() if value is not None}


def form_errors(form: MatchForm) -> str:
    parts = []
    for field, errors in form.errors.items():
        label = "" if field == "__all__" else f"{form.fields[field].label if field in form.fields else field}: "
        parts.extend(f"{label}{error}" for error in errors)
    return " ".join(parts)


def options_of(body) -> dict[str, Any]:
    """The options the body names (a per-game model in the schema, a dict in older callers)."""
    options = body.options
    return options if isinstance(options, dict) else options.model_dump(exclude_unset=True)


JSON_TYPES = {"bool": (bool,), "int": (int,), "choice": (str,)}
TYPE_WORDS = {"bool": "true or false", "int": "a whole number", "choice": "a string"}


def check_option_types(engine, options: dict[str, Any]) -> None:
    """Each option in its JSON type ("maybe" for a yes-or-no option was stored as yes)."""
    for option in engine.options:
        if option.name not in options:
            continue
        value = options[option.name]
        wrong_bool = isinstance(value, bool) and option.kind != "bool"  # JSON true is no number
        if wrong_bool or not isinstance(value, JSON_TYPES[option.kind]):
            raise actions.ActionError(
                f"Option {option.name}: expected {TYPE_WORDS[option.kind]}, got {json.dumps(value)}."
            )


def check_invitees(user, body) -> None:
    """What the schema cannot know, with the status that says so: no such player 404, a player
    invited twice or oneself 409, a player who blocks the creator 403. The action checks again."""
    seen: set[int] = set()
    for seat in body.others:
        if seat.kind != "invite":
            continue
        invitee = User.objects.filter(username__iexact=seat.username.strip(), is_active=True).first()
        if invitee is None:
            raise HttpError(404, f"There is no player called {seat.username!r}.")
        if invitee.pk == user.pk or invitee.pk in seen:
            raise actions.Conflict(f"{invitee.username} already has a seat.")
        if invitee.blocks.filter(blocked=user).exists():
            raise actions.NotAllowed(f"{invitee.username} does not accept your invitations.")
        seen.add(invitee.pk)


def create(user, body: MatchIn) -> Match:
    """A new match as the new-match page makes it; ActionError with a message otherwise."""
    slug = str(body.game)
    engine = available_engines().get(slug)
    if engine is None:
        raise actions.ActionError(f"There is no game {slug!r}; GET /api/v1/games lists them.")
    options = options_of(body)
    unknown = sorted(set(options) - {o.name for o in engine.options})
    if unknown:
        raise actions.ActionError(f"{engine.name} has no option {', '.join(unknown)}.")
    check_option_types(engine, options)
    check_invitees(user, body)
    form = MatchForm(engine, form_data(body, engine))
    if not form.is_valid():
        raise actions.ActionError(form_errors(form))
    data = form.cleaned_data
    return actions.create_match(
        user,
        slug,
        data["seats"],
        options=data["options"],
        time_preset=data["time_preset"],
        custom_clock=data.get("custom_clock"),
        weekend_pause=data["weekend_pause"],
        spectators_read_chat=data["spectators_read_chat"],
        rated=data["rated"],
    )
