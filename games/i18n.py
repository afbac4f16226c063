"""Words from the Django-free engines and presenters in the viewer's language (issue 19).

Presenters return `games.engines.words.Msg` texts and engines may log entries with "msg" and "args"
(`words.logged`): English text plus the template and its values. Here the template is looked up in
Django's catalogue for the active language and the values filled in. An entry without "msg" (every
game but Solitaire Chess so far, and moves stored before) shows its English "text".
"""

from __future__ import annotations

from typing import Any

from django.utils import translation

from games.engines.words import Msg


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
