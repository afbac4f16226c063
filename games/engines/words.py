"""Words for people from Django-free code (the board presenters): English text that keeps
what a translation needs.

A `Msg` is a `str` (the English text, so everything that reads it as text still works) that also holds
its template ("Piece on {square} selected") and named values. The site translates it when it renders
for a viewer: dizzysite.jinja2's `tr` looks the template up in Django's catalogue for the active
language, then fills in the values (translated too when they are Msgs themselves).

The presenters import `_` and `ngettext` from here, so `manage.py makemessages` (xgettext's Python
keywords) finds their templates. Values are named and written `{name}` (str.format).
"""

from __future__ import annotations

from typing import Any


class Msg(str):
    template: str
    plural_template: str | None
    count: int | None
    values: dict[str, Any]

    # template, plural and count are positional only, so that a value may be named "count" too.
    def __new__(cls, template: str, plural: str | None = None, count: int | None = None, /, **values: Any) -> Msg:
        chosen = template if plural is None or count == 1 else plural
        text = chosen.format(**values) if values else chosen
        msg = super().__new__(cls, text)
        msg.template, msg.plural_template, msg.count, msg.values = template, plural, count, values
        return msg

    def __reduce__(self):  # copies and pickles keep the template
        return (_rebuild, (self.template, self.plural_template, self.count, self.values))


def _rebuild(template, plural, count, values):
    return Msg(template, plural, count, **values)


def _(template: str, **values: Any) -> Msg:
    """A fixed text, or a template with named values: _("Move to {square}", square="b3")."""
    return Msg(template, **values)


def ngettext(singular: str, plural: str, n: int, **values: Any) -> Msg:
    """A count: ngettext("{n} card", "{n} cards", 3); `n` is among the values."""
    return Msg(singular, plural, n, n=n, **values)


def logged(template: str, audience: str | list[int] = "all", **values: Any) -> dict[str, Any]:
    """A log entry whose words are an id with values: "text" is the English text, as every
    entry has; "msg" and "args" let the site show it in the viewer's language, today or years later
    (games.i18n.entry_text). Seats stay "{p0}" placeholders: pass them as values, like "{p0}"."""
    return {
        "text": template.format(**values) if values else template,
        "audience": audience,
        "msg": template,
        "args": {key: stored(value) for key, value in values.items()} if values else {},
    }


def stored(value: Any) -> Any:
    """A value as JSON keeps it: a Msg as its template and values ({"msg": ..., "args": ...}), so it
    is translated too; anything else as it is."""
    if isinstance(value, Msg):
        return {"msg": value.template, "args": {key: stored(item) for key, item in value.values.items()}}
    return value


def words_of(text: Any) -> dict[str, Any]:
    """What a stored text needs to be read in another language: {"msg", "args"} of a Msg, else {}."""
    return stored(text) if isinstance(text, Msg) else {}


def gettext_noop(template: str) -> str:
    """Marks a template for makemessages where it is not passed to `_` (a log entry's, for `logged`)."""
    return template
