"""The create-a-match form, built from the engine's facts and options."""

from __future__ import annotations

from django import forms

from games.actions import SeatSpec
from games.engines.base import Engine
from games.models import BOT_LEVELS, TimeControl

SEAT_KINDS = [("open", "Open to anyone"), ("invite", "Invite a player")]


class MatchForm(forms.Form):
    def __init__(self, engine: Engine, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.engine = engine
        self.fields["players"] = forms.TypedChoiceField(
            label="Players",
            coerce=int,
            choices=[(n, str(n)) for n in range(engine.min_players, engine.max_players + 1)],
            initial=engine.min_players,
        )
        bots = [(f"bot:{level}", label) for level, label in BOT_LEVELS if level in engine.bots]
        for number in range(1, engine.max_players):
            self.fields[f"seat_{number}"] = forms.ChoiceField(
                label=f"Seat {number + 1}", choices=SEAT_KINDS + bots, initial="open", required=False
            )
            self.fields[f"invite_{number}"] = forms.CharField(
                label=f"Seat {number + 1}: username to invite", max_length=150, required=False
            )
        for option in engine.options:
            name = f"option_{option.name}"
            if option.kind == "bool":
                self.fields[name] = forms.BooleanField(label=option.label, required=False, initial=option.default)
            elif option.kind == "int":
                self.fields[name] = forms.IntegerField(
                    label=option.label, initial=option.default, min_value=option.min_value, max_value=option.max_value
                )
            else:
                self.fields[name] = forms.ChoiceField(label=option.label, choices=option.choices, initial=option.default)
            self.fields[name].help_text = option.help
        self.fields["time_preset"] = forms.ChoiceField(
            label="Time control",
            choices=[(key, label) for key, (label, *_rest) in TimeControl.PRESETS.items()],
            initial="daily",
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
                    self.add_error(f"invite_{number}", "Whom do you invite to this seat?")
                seats.append(SeatSpec("invite", username))
            else:
                seats.append(SeatSpec("open"))
        data["seats"] = seats
        data["options"] = {o.name: data.get(f"option_{o.name}") for o in self.engine.options}
        return data


class FillSeatForm(forms.Form):
    kind = forms.ChoiceField(choices=[("open", "Open")] + [(f"bot:{lv}", lb) for lv, lb in BOT_LEVELS] + [("invite", "Invite")])
    username = forms.CharField(max_length=150, required=False)

    def spec(self) -> SeatSpec:
        kind = self.cleaned_data["kind"]
        if kind.startswith("bot:"):
            return SeatSpec("bot", kind.removeprefix("bot:"))
        return SeatSpec(kind, self.cleaned_data.get("username", ""))
