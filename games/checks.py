"""A system check: every game's spec has the files that draw it, so a missing one fails at start-up,
not on the first player's page (or only in production, for a stylesheet)."""

from __future__ import annotations

from django.contrib.staticfiles import finders
from django.core.checks import Error, register
from django.template import TemplateDoesNotExist, engines

from games.engines.registry import SPECS


@register()
def check_game_specs(app_configs, **kwargs) -> list[Error]:
    errors = []
    for slug, spec in SPECS.items():
        wanted = [
            ("jinja2", spec.board_template, "board template"),
            ("django", spec.rules_template, "rules page"),
        ]
        for engine_name, name, what in wanted:
            try:
                engines[engine_name].get_template(name)
            except TemplateDoesNotExist:
                errors.append(Error(f"{slug}: the {what} {name} is missing", id="games.E001"))
        if not finders.find(spec.stylesheet):
            errors.append(Error(f"{slug}: the stylesheet static/{spec.stylesheet} is missing", id="games.E002"))
        clock = spec.live_clock
        if min(clock.turn_seconds, clock.period_seconds) <= 0 or clock.reserve_periods < 0:
            errors.append(Error(f"{slug}: the live clock {clock} is not a clock", id="games.E003"))
        if "random" not in spec.bot_levels:
            errors.append(Error(f"{slug}: every game needs a random bot", id="games.E004"))
    return errors
