"""The vacation switch on the settings page: the settings page belongs to accounts, the vacation
(its allowance and what it pauses) to games, so games draws its own panel there and accounts never
imports games."""

from __future__ import annotations

from django import template

from games import actions, clock

register = template.Library()


@register.inclusion_tag("games/_vacation.html", takes_context=True)
def vacation_panel(context: template.Context) -> dict:
    user = context["user"]
    return {
        "user": user,
        "csrf_token": context.get("csrf_token"),
        "vacation_left": clock.in_words(actions.vacation_seconds_left(user)),
        "vacation_days": actions.VACATION_DAYS_PER_YEAR,
    }
