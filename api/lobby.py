"""Creating a match from the API goes through the site's own MatchForm: one set of rules."""

from __future__ import annotations

import json
from typing import Any

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
        "turn_minutes": body.clock.turn_minutes,
        "reserve_periods": body.clock.reserve_periods,
        "period_minutes": body.clock.period_minutes,
        "weekend_pause": body.clock.weekend_pause,
        "spectators_read_chat": body.spectators_read_chat,
        "rated": body.rated,
    }
    for number, seat in enumerate(body.others, start=1):
        data[f"seat_{number}"] = f"bot:{seat.level}" if seat.kind == "bot" else seat.kind
        data[f"invite_{number}"] = seat.username
    for option in engine.options:
        data[f"option_{option.name}"] = body.options.get(option.name, option.default)
    return {key: value for key, value in data.items() if value is not None}


def form_errors(form: MatchForm) -> str:
    parts = []
    for field, errors in form.errors.items():
        label = "" if field == "__all__" else f"{form.fields[field].label if field in form.fields else field}: "
        parts.extend(f"{label}{error}" for error in errors)
    return " ".join(parts)


JSON_TYPES = {"bool": (bool,), "int": (int,), "choice": (str,)}
TYPE_WORDS = {"bool": "true or false", "int": "a whole number", "choice": "a string"}


def check_option_types(engine, options: dict[str, Any]) -> None:
    """Each option in its JSON type (issue 27: "maybe" for a yes-or-no option was stored as yes)."""
    for option in engine.options:
        if option.name not in options:
            continue
        value = options[option.name]
        wrong_bool = isinstance(value, bool) and option.kind != "bool"  # JSON true is no number
        if wrong_bool or not isinstance(value, JSON_TYPES[option.kind]):
            raise actions.ActionError(
                f"Option {option.name}: expected {TYPE_WORDS[option.kind]}, got {json.dumps(value)}."
            )


def create(user, body: MatchIn) -> Match:
    """A new match as the new-match page makes it; ActionError with a message otherwise."""
    slug = str(body.game)
    engine = available_engines().get(slug)
    if engine is None:
        raise actions.ActionError(f"There is no game {slug!r}; GET /api/v1/games lists them.")
    unknown = sorted(set(body.options) - {o.name for o in engine.options})
    if unknown:
        raise actions.ActionError(f"{engine.name} has no option {', '.join(unknown)}.")
    check_option_types(engine, body.options)
    form = MatchForm(engine, form_data(body, engine))
    if not form.is_valid():
        raise actions.ActionError(form_errors(form))
    data = form.cleaned_data
    return actions.create_match(
        user,
        slug,
        data["seats"],
        data["options"],
        data["time_preset"],
        data.get("custom_clock"),
        data["weekend_pause"],
        data["spectators_read_chat"],
        rated=data["rated"],
    )
