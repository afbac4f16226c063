"""The Jinja2 environment of the board pages (Django's own Jinja2 backend; see settings.TEMPLATES).

Django templates draw the rest of the site; the board pages, which players load most, and the pages of
many rows (the dashboard, the inbox, a replay) use Jinja2 for speed. The few helpers the
templates need are Django's own functions.
"""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache

from django.conf import settings
from django.contrib.messages import get_messages
from django.templatetags.static import static
from django.urls import NoReverseMatch, get_script_prefix, get_urlconf, reverse
from django.utils import dateformat, formats, timezone, translation
from jinja2 import Environment

from dizzysite.addresses import id_parts
from games.i18n import tr


def url_context() -> tuple:
    """What else reverse() depends on: the URLconf (a test or a request may set its own) and the prefix."""
    return (settings.ROOT_URLCONF, get_urlconf(), get_script_prefix())


@lru_cache(maxsize=512)
def id_address(name: str, where: tuple) -> tuple[str, str] | None:
    """The parts of the address of view `name` before and after its one integer argument, or None
    when the pattern takes no such argument (reverse() then raises for the real id as it would)."""
    try:
        return id_parts(lambda pk: reverse(name, args=[pk]))
    except NoReverseMatch:
        return None


@lru_cache(maxsize=512)
def plain_address(name: str, where: tuple) -> str:
    return reverse(name)


def url(name: str, *args) -> str:
    """reverse(), with an address of no argument or of one id (a match, an inbox entry) reversed once
    per process: a list of 50 rows reversed each row's address at about 70 µs each."""
    if not args:
        return plain_address(name, url_context())
    if len(args) == 1 and type(args[0]) is int and args[0] >= 0:
        parts = id_address(name, url_context())
        if parts is not None:
            return f"{parts[0]}{args[0]}{parts[1]}"
    return reverse(name, args=args)


def date(value: datetime | None, format_string: str) -> str:
    """Django's `date` filter: the time in the viewer's zone (UserTimezoneMiddleware activates it), in a
    format spelled out or named ("SHORT_DATETIME_FORMAT": the reader's language's, dizzysite/formats/)."""
    if value is None:
        return ""
    return dateformat.format(timezone.localtime(value), formats.get_format(format_string))


def environment(**options) -> Environment:
    # Translations: `_("...")`, `gettext`, `ngettext` and `{% trans %}` blocks read Django's
    # catalogue for the active language; new-style gettext autoescapes and takes named values.
    options["extensions"] = [*options.get("extensions", []), "jinja2.ext.i18n"]
    env = Environment(**options)
    env.install_gettext_translations(translation, newstyle=True)
    env.globals.update(
        {"static": static, "url": url, "get_messages": get_messages, "get_language": translation.get_language, "tr": tr}
    )
    env.filters["date"] = date
    return env
