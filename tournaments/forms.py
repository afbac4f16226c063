"""The organiser's form: what a tournament is played as."""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engines.registry import GAMES, get_engine
from games.forms import option_field
from games.models import TimeControl
from tournaments.actions import TournamentSettings
from tournaments.models import Tournament


def default_start():
    return (timezone.now() + timedelta(days=3)).replace(minute=0, second=0, microsecond=0)


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100)
    game = forms.ChoiceField(label=_("Game"), choices=list(GAMES.items()))
    format = forms.ChoiceField(label=_("Format"), choices=Tournament.Format.choices)
    time_preset = forms.ChoiceField(
        label=_("Clock"), choices=[(key, value[0]) for key, value in TimeControl.PRESETS.items()]
    )
    starts_at = forms.DateTimeField(
        label=_("Start (entries close)"),
        initial=default_start,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    rounds = forms.IntegerField(
        label=_("Rounds"), min_value=1, max_value=30, initial=5, help_text=_("Swiss and tables only.")
    )
    table_size = forms.IntegerField(
        label=_("Seats at a table"), min_value=2, max_value=8, initial=4, help_text=_("Tables only.")
    )
    all_at_once = forms.BooleanField(label=_("Round robin: every round's matches at once"), required=False)
    round_hours = forms.IntegerField(
        label=_("Hours between rounds"),
        min_value=1,
        max_value=2000,
        required=False,
        help_text=_(
            "Empty: each round is paired when the last one ends. Set: each round at its time, even if some "
            "matches of the last one are still being played (a knockout waits for its winners)."
        ),
    )
    min_entrants = forms.IntegerField(label=_("Fewest entrants"), min_value=2, max_value=1000, initial=4)
    max_entrants = forms.IntegerField(label=_("Most entrants"), min_value=2, max_value=1000, initial=32)
    rating_min = forms.IntegerField(label=_("Lowest rating allowed"), min_value=0, max_value=10000, required=False)
    rating_max = forms.IntegerField(label=_("Highest rating allowed"), min_value=0, max_value=10000, required=False)
    invite_only = forms.BooleanField(label=_("By invitation only"), required=False)
    bots_allowed = forms.BooleanField(label=_("Bots may enter"), required=False)

    def __init__(self, *args, **kwargs) -> None:
        """Every game's match options, as the new-match form offers them: the chosen game's are used."""
        super().__init__(*args, **kwargs)
        for slug, name in GAMES.items():
            for option in get_engine(slug).options:
                field = option_field(option)
                field.label = f"{name}: {field.label}"
                field.required = False  # another game's are not sent; the chosen game's default then
                only = _("Only for %(game)s.") % {"game": name}
                field.help_text = f"{field.help_text} {only}" if field.help_text else only
                self.fields[option_key(slug, option.name)] = field

    def chosen(self) -> TournamentSettings:
        data = {name: value for name, value in self.cleaned_data.items() if name in self.declared_fields}
        game = data["game"]
        given = {o.name: self.cleaned_data.get(option_key(game, o.name)) for o in get_engine(game).options}
        data["options"] = {name: value for name, value in given.items() if value not in (None, "")}
        return TournamentSettings(**data)


def option_key(game: str, option: str) -> str:
    return f"option_{game}_{option}"
