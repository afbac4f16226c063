"""What an English word on a Dutch page is, and how a page is read for one: shared by
the Dutch tests (tests/site/test_i18n.py, test_dutch_matches.py, test_dutch_site.py and the games' own);
also which games carry Dutch words, and a compiled catalogue's entries. Not a test module."""

from __future__ import annotations

import gettext
import re
from html.parser import HTMLParser
from pathlib import Path

from django.conf import settings

from games.engines.registry import GAMES, SPECS

# Words a player reads on the site in English, which must not be left on a Dutch page (game names,
# player names and words Dutch shares with English, such as "Chat" or "bot", are not among them).
ENGLISH_WORDS = set(
    """
    the your you turn move moves match matches seat waiting left until rules history send message games
    leaderboards new out skip board piece pieces square select place placed choose another cards card
    none grey play area queen spades hearts diamonds clubs ace jack king it watching whole first second
    advantage to on and or took from captured gains chose go periods period day days hour
    hours minutes seconds no yet messages say something nice inbox
    """.split()
)


# English words of the four games' boards and logs that Dutch does not share (not "over", "plant",
# "score", "extra", "die", "won" or "reserve", which are Dutch words too).
GAME_WORDS = set(
    """
    attack attacks attacked attacking power blind pile draw draws drew drawn discard discards discarded
    hands lives life lost wins loses winner winners round rounds turn turns pass passes passed
    ghost ghosts lizzy's taken take takes tries try flower flowers field fields hide hides hidden claim
    claims claimed challenge challenges challenged empty cell cells row column yellow purple
    white blue red green orange colour color planted plants grow reveal revealed shows shown
    bluff liar honest truth true false points ends ended game because after before
    out time timed resigned resign aborted adjudicated player players opponent everyone nobody
    head heads body bodies tail tails dots stripes steal stole stolen give gave burn burned burning
    double doubles golden gold cycle showdown attempt attempts event events loaned stack stacks side
    pick picked grab grabs throw threw incomplete valid invalid chain choice left face down top
    moved plays still standing plantings successful failed accepted accept exploded cancelled petals
    full again undone named chosen selected only unselect remove add up hiding pointed thin five
    four eight solid dashed outline outlined below claiming planter equal diamonds held keeps fight
    fights fought battle battles defender attacker lifeline table shuffled dealt began fewest needs
    allowed must discarding turning identical same different colours patterns special
    """.split()
)
# English words of the site's other pages (settings, tokens, inbox, preferences, replays, leaderboards)
# that Dutch does not share (not "bot", "rating", "chat", "token" or "API", which Dutch uses too).
SITE_WORDS = set(
    """
    spectator spectators revoke revoked calendar address settings name created used never copy secret
    keep starts create delete deleted mute muted unmute unread read mark preferences notification
    notifications device devices save saved language display each daily digest every sign logged
    password profile drawn replay leaderboard provisional rank ranked page previous next show hide
    these those which what when where who why how this that there here with without older newer
    vacation days seen view views back
    """.split()
)
SPOKEN_ATTRIBUTES = {"aria-label", "alt", "title", "placeholder", "aria-description"}
# Names are not words: the site's, the players' (speler0..), the Solitaire Chess rule sets' as the Dutch
# rules page keeps them, and the keys of a keyboard.
NAMES = ("Dizzysite", "speler", "Death Match", "Final Match", "Home en End")
# Addresses (a calendar's) and time zones (America/New_York) are not words either.
NOT_WORDS = re.compile(r"https?://\S+|\S+/\S+")


class ReadableText(HTMLParser):
    """The words of a page a player sees or hears: text outside scripts and styles, and spoken labels.
    Code (<code>: a scope's name, an HTTP method) is what a program sends, not words to translate."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "code"):
            self.skipping += 1
        self.parts.extend(value or "" for name, value in attrs if name in SPOKEN_ATTRIBUTES)

    def handle_endtag(self, tag):
        if tag in ("script", "style", "code"):
            self.skipping -= 1

    def handle_data(self, data):
        if not self.skipping:
            self.parts.append(data)


def english_texts(page: str) -> dict[str, set[str]]:
    """The page's texts that hold English words, with those words."""
    reader = ReadableText()
    reader.feed(page)
    found = {}
    for text in reader.parts:
        for name in (*GAMES.values(), *NAMES):
            text = text.replace(name, " ")
        text = NOT_WORDS.sub(" ", text)
        words = {word.lower() for word in re.findall(r"[A-Za-z']+", text)} & (ENGLISH_WORDS | GAME_WORDS | SITE_WORDS)
        if words:
            found[" ".join(text.split())] = words
    return found


def assert_dutch(page: str, where: str) -> None:
    assert 'lang="nl"' in page, where
    leftover = english_texts(page)
    assert leftover == {}, f"English words on {where}: {leftover}"


def catalogue(path: Path) -> dict:
    """The entries of a compiled catalogue (.mo): msgid -> Dutch text."""
    with path.open("rb") as handle:
        return gettext.GNUTranslations(handle)._catalog


def games_with_dutch_words() -> list[str]:
    """The games whose package carries its own Dutch words (games/engines/<game>/locale)."""
    packages = {path.parent.name for path in (settings.BASE_DIR / "games" / "engines").glob("*/locale")}
    return [slug for slug, spec in SPECS.items() if type(spec.engine).__module__.split(".")[2] in packages]
