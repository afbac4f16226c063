"""Words from the Django-free engines and presenters in the viewer's language.

Presenters return `games.engines.words.Msg` texts and engines may log entries with "msg" and "args"
(`words.logged`): English text plus the template and its values. Here the template is looked up in
Django's catalogue for the active language and the values filled in. An entry without "msg" (every
game but Solitaire Chess so far, and moves stored before) shows its English "text".
"""

from __future__ import annotations

import re
from typing import Any

from django.utils import translation

from games.engines.words import Msg, gettext_noop

# A private log entry is written to the seats it is for ("You drew {card}."). Once everything is
# public (ALL-3: the replay, the ended board) others read it too, and to them it names that seat in
# the third person: {player} is the seat's placeholder ({p1}), filled in with its name by the caller.
THIRD_PERSON = {
    "You drew {card}.": gettext_noop("{player} drew {card}."),
    "You hid {flowers}.": gettext_noop("{player} hid {flowers}."),
    "Your hidden flower on {cell} was cancelled: your opponent chose it.": gettext_noop(
        "{player}'s hidden flower on {cell} was cancelled: the opponent chose it."
    ),
}
# A private entry with no third-person form above (a stored one without "msg", a new game's) is quoted
# as what its seat was told, never as if it spoke to the reader.
SECOND_PERSON = re.compile(r"\b(you|your|yours)\b", re.IGNORECASE)


def tr(value: Any) -> Any:
    """A presenter's words (a Msg: template and values), or a fixed English text, translated."""
    if isinstance(value, Msg):
        # Only values that are words themselves are translated: a player called "red" stays "red".
        values = {key: tr(item) if isinstance(item, Msg) else item for key, item in value.values.items()}
        if value.plural_template is None:
            text = translation.gettext(value.template)
        else:
            text = translation.ngettext(value.template, value.plural_template, value.count)
        return _format(text, values, str(value))
    if isinstance(value, str) and value:
        return translation.gettext(value)
    return value


def entry_text(entry: dict[str, Any]) -> str:
    """A log entry's text for the viewer: its id translated, then its values filled in."""
    if "msg" not in entry:
        return entry["text"]
    return _stored_text(entry["msg"], entry.get("args") or {}, entry["text"])


def entry_text_for(entry: dict[str, Any], reader: int | None) -> str:
    """A log entry's text for a reader at `reader`'s seat (None: no seat): a private entry shown to
    someone it was not written to (ALL-3) names its seat in the third person instead of "you"."""
    audience = entry.get("audience", "all")
    if audience == "all" or reader in audience or not audience:
        return entry_text(entry)
    player = f"{{p{audience[0]}}}"
    third = THIRD_PERSON.get(entry.get("msg", ""))
    if third is not None:
        return _stored_text(third, {**(entry.get("args") or {}), "player": player}, "")
    if SECOND_PERSON.search(entry["text"]):
        told = translation.gettext("{player} was told: {text}")
        return _format(told, {"player": player, "text": entry_text(entry)}, f"{player}: {entry_text(entry)}")
    return entry_text(entry)


def _stored_text(template: str, args: dict[str, Any], english: str) -> str:
    values = {
        key: _stored_text(value["msg"], value.get("args") or {}, "") if isinstance(value, dict) else value
        for key, value in args.items()
    }
    return _format(translation.gettext(template), values, english)


def _format(text: str, values: dict[str, Any], english: str) -> str:
    if not values:
        return text
    try:
        return text.format(**values)
    except (KeyError, IndexError, ValueError):  # a broken translation: the English text, never an error
        return english or text
