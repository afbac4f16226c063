"""The create-a-match form, built from the engine's facts and options."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engines.base import BadOptions, Engine, Option
from games.engines.registry import get_bots
from games.models import BOT_LEVEL_HELP, BOT_LEVELS, TimeControl
from games.seats import SeatSpec

SEAT_KINDS = [("open", gettext_lazy("Open to anyone")), ("invite", gettext_lazy("Invite a player"))]


class OptionCheckbox(forms.CheckboxInput):
    """A checkbox that hands the field what was sent: Django's reads any text but "false" as ticked."""

    def value_from_datadict(self, data, files, name):
        return data.get(name) if name in data else False


class OptionBooleanField(forms.BooleanField):
    """A yes-or-no option read as the engine reads it (yes/no, true/false, on/off, 1/0): found
    "maybe" stored as yes."""

    widget = OptionCheckbox

    def __init__(self, option: Option, **kwargs) -> None:
        super().__init__(**kwargs)
        self.option = option

    def to_python(self, value):
        try:
            return self.option.parse(value)
        except BadOptions:
            raise forms.ValidationError(_("Answer yes or no."), code="invalid") from None


def option_field(option: Option) -> forms.Field:
    """A form field for one of the engine's match options (the engine marks its words for translation)."""
    if option.kind == "bool":
        field = OptionBooleanField(option, label=_(option.label), required=False, initial=option.default)
    elif option.kind == "int":
        field = forms.IntegerField(
            label=_(option.label), initial=option.default, min_value=option.min_value, max_value=option.max_value
        )
    else:
        field = forms.ChoiceField(
            label=_(option.label),
            choices=[(value, _(label)) for value, label in option.choices],
            initial=option.default,
        )
    field.help_text = _(option.help) if option.help else ""
    return field


class MatchForm(forms.Form):
    def __init__(self, engine: Engine, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.engine = engine
        self.fields["players"] = forms.TypedChoiceField(
            label=_("Players"),
            coerce=int,
            choices=[(n, str(n)) for n in range(engine.min_players, engine.max_players + 1)],
            initial=engine.min_players,
        )
        levels = get_bots(engine.slug)
        bots = [(f"bot:{level}", f"{label}: {BOT_LEVEL_HELP[level]}") for level, label in BOT_LEVELS if level in levels]
        for number in range(1, engine.max_players):
            self.fields[f"seat_{number}"] = forms.ChoiceField(
                label=_("Seat %(number)d") % {"number": number + 1},
                choices=SEAT_KINDS + bots,
                initial="open",
                required=False,
            )
            self.fields[f"invite_{number}"] = forms.CharField(
                label=_("Seat %(number)d: username to invite") % {"number": number + 1}, max_length=150, required=False
            )
        for option in engine.options:
            self.fields[f"option_{option.name}"] = option_field(option)
        self.fields["time_preset"] = forms.ChoiceField(
            label=_("Time control"),
            choices=[(key, label) for key, (label, *_rest) in TimeControl.PRESETS.items()] + [("custom", _("Custom"))],
            initial="daily",
        )
        self.fields["turn_minutes"] = forms.IntegerField(
            label=_("Custom: minutes per turn"), min_value=1, max_value=60 * 24 * 14, required=False
        )
        self.fields["reserve_periods"] = forms.IntegerField(
            label=_("Custom: reserve periods"), min_value=0, max_value=30, required=False
        )
        self.fields["period_minutes"] = forms.IntegerField(
            label=_("Custom: minutes per reserve period"), min_value=1, max_value=60 * 24 * 7, required=False
        )
        self.fields["spectators_read_chat"] = forms.BooleanField(
            label=_("Spectators may read the chat"), required=False
        )
        self.fields["rated"] = forms.BooleanField(
            label=_("Rated match"),
            required=False,
            initial=True,
            help_text=_(
                "Between people it changes your rating; with a bot in a seat, your separate rating against bots."
            ),
        )
        self.fields["weekend_pause"] = forms.BooleanField(
            label=_("Pause the clocks at weekends"),
            required=False,
            help_text=_("Saturdays and Sundays, in each player's own time zone, do not count."),
        )

    def option_fields(self):
        return [self[f"option_{o.name}"] for o in self.engine.options]

    def seat_rows(self):
        return [(n + 1, self[f"seat_{n}"], self[f"invite_{n}"]) for n in range(1, self.engine.max_players)]

    def clean(self):
        data = super().clean()
        players = data.get("players")
        if players is None:
            return data
        seats = [SeatSpec("me")]
        for number in range(1, players):
            kind = data.get(f"seat_{number}") or "open"
            if kind.startswith("bot:"):
                seats.append(SeatSpec("bot", kind.removeprefix("bot:")))
            elif kind == "invite":
                username = (data.get(f"invite_{number}") or "").strip()
                if not username:
                    self.add_error(f"invite_{number}", _("Whom do you invite to this seat?"))
                seats.append(SeatSpec("invite", username))
            else:
                seats.append(SeatSpec("open"))
        data["seats"] = seats
        data["options"] = {o.name: data.get(f"option_{o.name}") for o in self.engine.options}
        if data.get("time_preset") == "custom":
            for name in ("turn_minutes", "reserve_periods", "period_minutes"):
                if data.get(name) is None:
                    self.add_error(name, _("A custom clock needs this."))
            data["custom_clock"] = (
                (data.get("turn_minutes") or 0) * 60,
                data.get("reserve_periods") or 0,
                (data.get("period_minutes") or 0) * 60,
            )
        return data


def challenge_initial(query, engine) -> dict[str, str]:
    """The new-match form opened from a profile's "Challenge" (that player invited to seat 2) or from
    a tutorial's end (bots of that level in every other seat of the game's smallest table)."""
    username = (query.get("invite") or "").strip()[:150]
    if username:
        return {"seat_1": "invite", "invite_1": username}
    level = query.get("bot") or ""
    if level not in dict(BOT_LEVELS):
        return {}
    return {f"seat_{number}": f"bot:{level}" for number in range(1, engine.min_players)}


class FillSeatForm(forms.Form):
    kind = forms.ChoiceField(
        choices=[("open", "Open")] + [(f"bot:{lv}", lb) for lv, lb in BOT_LEVELS] + [("invite", "Invite")]
    )
    username = forms.CharField(max_length=150, required=False)

    def spec(self) -> SeatSpec:
        kind = self.cleaned_data["kind"]
        if kind.startswith("bot:"):
            return SeatSpec("bot", kind.removeprefix("bot:"))
        return SeatSpec(kind, self.cleaned_data.get("username", ""))
