"""Each viewer class's board of a revision is drawn once, then served from the cache to every tab and
spectator of that class: a move makes each viewer fetch the fragment again, and without this the
server would draw the same board once per viewer.

The key is a digest of everything the board's drawing reads: the viewer's engine view, the moves it
may make, its seat, whether it is its turn, the seats' names, the selection it builds up, the match,
the language. Viewers who see the same thing (the tabs of one seat, every spectator and visitor)
share one drawing; a seat that sees anything else (another hand, another legal move) gets another
key, so the cache cannot show one viewer what was drawn for another. Nothing else of the fragment is
cached: the clocks, the chat, the hint and the forms' CSRF tokens are each viewer's own and stay
outside the board's template.
"""

from __future__ import annotations

import hashlib
import json

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from games.presenters import PlayerView

BOARD_CACHE_SECONDS = 600  # its viewers fetch a board within seconds of its move


def board_key(pv: PlayerView, select: str) -> str:
    drawn_from = {
        "view": pv.view,
        "legal": pv.legal,
        "seat": pv.seat,
        "my_turn": pv.my_turn,
        "names": [seat.name for seat in pv.seats],
        "select": select,
        "over": pv.match.is_over,
        "language": get_language(),
    }
    text = json.dumps(drawn_from, sort_keys=True, separators=(",", ":"), default=str)
    digest = hashlib.blake2b(text.encode(), digest_size=16).hexdigest()
    return f"board:{pv.match.game}:{pv.match.id}:{digest}"


def drawn_board(pv: PlayerView, select: str, template: str) -> SafeString:
    """The board's HTML for this viewer's class, drawn now or taken from the cache."""
    key = board_key(pv, select)
    html = cache.get(key)
    if html is None:
        # A match page holds one board: its ids need no prefix (the rules pages' pictures set one).
        context = {"board": pv.board, "pv": pv, "select": select, "idp": ""}
        html = render_to_string(template, context, using="jinja2")
        cache.set(key, html, BOARD_CACHE_SECONDS)
    return mark_safe(html)
