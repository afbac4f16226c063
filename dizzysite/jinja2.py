"""The Jinja2 environment of the board pages (Django's own Jinja2 backend; see settings.TEMPLATES).

Django templates draw the rest of the site; the board pages, which players load most, use Jinja2 for
speed. The few helpers the templates need are Django's own functions.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.messages import get_messages
from django.templatetags.static import static
from django.urls import reverse
from django.utils import dateformat, timezone, translation
from jinja2 import Environment

from games.i18n import tr


def url(name: str, *args) -> str:
    return reverse(name, args=args)


def date(value: datetime | None, format_string: str) -> str:
    """Django's `date` filter: the time in the viewer's zone (UserTimezoneMiddleware activates it)."""
    if value is None:
        return ""
    return dateformat.format(timezone.localtime(value), format_string)


def environment(**options) -> Environment:
    # Translations (issue 19): `_("...")`, `gettext`, `ngettext` and `{% trans %}` blocks read Django's
    # catalogue for the active language; new-style gettext autoescapes and takes named values.
    options["extensions"] = [*options.get("extensions", []), "jinja2.ext.i18n"]
    env = Environment(**options)
    env.install_gettext_translations(translation, newstyle=True)
    env.globals.update(
        {"static": static, "url": url, "get_messages": get_messages, "get_language": translation.get_language, "tr": tr}
    )
    env.filters["date"] = date
    return env
