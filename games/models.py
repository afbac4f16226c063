"""Matches, their seats and their move logs.

The engine state lives server-side in Match.state with a version number that every applied move
increments; Match.revision also changes on lobby events (joins, leaves), so a page can tell cheaply
whether anything it shows has changed. Replaying Match.seed and the Move log rebuilds Match.state
exactly (tests/games/test_admin_replay.py).
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.engines.registry import GAMES as GAME_NAMES
from games.engines.registry import get_spec
from games.i18n import entry_text, entry_text_for  # log words with ids in the viewer's language

BOT_LEVELS = [("random", _("Random bot")), ("normal", _("Normal bot")), ("hard", _("Hard bot"))]
# One line per level for the new-match form; the hard bots think for up to their budget.
BOT_LEVEL_HELP = {
    "random": _("plays at random"),
    "normal": _("solid"),
    "hard": _("strongest; thinks for about a second"),
}


_PLACEHOLDER = re.compile(r"\{p(\d)\}")


def fill_names(text: str, names: dict[str, str]) -> str:
    """Engine texts name seats as {p0}..{p7}; put the players' public names in."""
    return _PLACEHOLDER.sub(lambda m: names.get(f"p{m.group(1)}", f"seat {int(m.group(1)) + 1}"), text)


def seat_names(seats) -> dict[str, str]:
    """Placeholders {p0}.. of engine log texts -> the seats' public names; names that several seats
    share (two Normal bots at one table) say their seat: "Normal bot (seat 3)"."""
    names = {f"p{seat.number}": seat.public_name for seat in seats}
    shared = {name for name, count in Counter(names.values()).items() if count > 1}
    return {
        key: gettext("%(name)s (seat %(number)s)") % {"name": name, "number": int(key[1:]) + 1}
        if name in shared
        else name
        for key, name in names.items()
    }


def others_names(seats: list[Seat], user_id: int, *, names: dict[str, str] | None = None) -> list[str]:
    """The names of the seats not the user's, as every page names them (seat_names: two Normal bots
    at one table say their seats); `names` are those of the whole table when `seats` are a part."""
    names = seat_names(seats) if names is None else names
    return [names[f"p{seat.number}"] for seat in seats if seat.user_id != user_id]


class TimeControl:
    """Presets of ruling ALL-1: seconds per turn, reserve periods and the length of one period."""

    PRESETS: dict[str, tuple[str, int, int, int]] = {
        "daily": (_("Daily: 1 day a turn, 5 reserve days"), 86400, 5, 86400),
        "relaxed": (_("Relaxed: 3 days a turn, 5 reserve days"), 3 * 86400, 5, 86400),
        "live": (_("Live: the game's own tournament clock"), 0, 0, 0),  # per-game, see live_figures
    }

    @classmethod
    def figures(cls, preset: str, game: str) -> tuple[int, int, int]:
        if preset == "live":
            live = get_spec(game).live_clock  # each seed's own figures (ALL-1)
            return live.turn_seconds, live.reserve_periods, live.period_seconds
        _, turn, periods, period = cls.PRESETS[preset]
        return turn, periods, period


def choice_label(choices: type[models.TextChoices], value: str) -> str:
    """A stored value's label, translating only that one: get_FOO_display() translates every choice's
    label on each call, which lists of many rows pay once a row. A value the choices no
    longer hold is shown as stored, as get_FOO_display() does."""
    try:
        return str(choices(value).label)
    except ValueError:
        return value


# The statuses of a match that was played and has ended: its moves never change again.
ENDED_STATUSES = ["finished", "aborted"]


class Match(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        ACTIVE = "active", _("In play")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")
        CANCELLED = "cancelled", _("Cancelled")

    game = models.CharField(max_length=40)  # a slug of games.engines.registry; no choices, so no migration per game
    options = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OPEN, db_index=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    ended = models.DateTimeField(null=True, blank=True)
    # The secret seed of ruling ALL-2; never rendered to players.
    seed = models.CharField(max_length=80, blank=True)
    state = models.JSONField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)
    revision = models.PositiveIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)
    # Time control (ruling ALL-1); enforced by the deadline sweep.
    time_preset = models.CharField(max_length=12, default="daily")
    turn_seconds = models.PositiveIntegerField(default=86400)
    reserve_periods = models.PositiveIntegerField(default=5)
    period_seconds = models.PositiveIntegerField(default=86400)
    weekend_pause = models.BooleanField(default=False)
    spectators_read_chat = models.BooleanField(default=False)
    # Rated matches change the players' ratings when they finish (ratings app).
    rated = models.BooleanField(default=True)
    # Ruling SITE-ABORT applies: a player may abort before every seat has moved, and the worker aborts
    # a match whose first player never moved. Off for a pairing (a tournament's): aborting would void
    # the opponent's game, so there a no-show loses on time like any late player.
    abortable = models.BooleanField(default=True)
    # The earliest deadline of the seats to act: the indexed column the sweep reads.
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    end_reason = models.CharField(max_length=200, blank=True)  # in English, names filled in
    # The same words as an id with values, {"msg", "args"} with seats as {p0}.., so each
    # reader sees them in their own language: end_reason_text().
    end_reason_words = models.JSONField(default=dict, blank=True)
    # The latest moves as the board shows them ({"number", "seat", "log"}), kept with the match so a
    # board page reads no Move rows; the Move table keeps them all (history page, replays).
    history_tail = models.JSONField(default=list, blank=True)
    # The moves are in one MoveArchive row, not in Move rows (games.actions.archive);
    # games.reads.match_moves reads either. A default in the database too: rows written outside the
    # ORM (bench/scale.py's COPY) that do not name the column are not archived.
    moves_archived = models.BooleanField(default=False, db_default=False)

    class Meta:
        verbose_name_plural = "matches"
        ordering = ["-id"]
        indexes = [
            # The ended matches whose moves are still rows, by their end: the archive sweep's
            # (games.tasks.archive_ended_matches) oldest first. A match leaves it once archived.
            models.Index(
                fields=["ended"],
                condition=models.Q(moves_archived=False) & models.Q(status__in=ENDED_STATUSES),
                name="match_moves_to_archive",
            ),
            # The matches still going on, a few in a hundred after years: a player's dashboard joins
            # their seats to these instead of looking up each of their thousands of finished matches.
            # It holds the status, so the dashboard's join reads the index alone.
            models.Index(
                fields=["id"],
                include=["status"],
                condition=models.Q(status__in=["active", "open"]),
                name="match_going_on",
            ),
            # The open matches, a few thousand among a million: the dashboard's "open matches you can
            # join" reads the newest 20 of them (10 ms through match_going_on, a parallel scan, at a
            # million matches; 0.2 ms here).
            models.Index(fields=["id"], condition=models.Q(status="open"), name="match_open"),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.game_name}"

    def get_absolute_url(self) -> str:
        return reverse("match", args=[self.pk])

    def end_reason_text(self, names: dict[str, str] | None = None) -> str:
        """How the match ended, in the active language; `names` ({p0}.. -> public names) saves a query."""
        if not self.end_reason_words:
            return self.end_reason
        text = entry_text({"text": self.end_reason, **self.end_reason_words})
        return fill_names(text, seat_names(self.seats.all()) if names is None else names)

    def offer_words(self) -> str:
        """An open match as the lobby says it: its clock, the options it changes from the game's, and
        its seats taken of all (the seats prefetched by the list)."""
        clock = str(TimeControl.PRESETS.get(self.time_preset, (gettext("A custom clock"),))[0])
        changed = [
            f"{gettext(o.label)}: {self._option_words(o)}"
            for o in get_spec(self.game).engine.options
            if self.options.get(o.name, o.default) != o.default
        ]
        seats = list(self.seats.all())
        taken = sum(1 for seat in seats if seat.user_id or seat.bot_level)
        counts = gettext("%(taken)s of %(total)s seats taken") % {"taken": taken, "total": len(seats)}
        return "; ".join([clock, *changed, counts])

    def _option_words(self, option) -> str:
        value = self.options.get(option.name, option.default)
        if option.kind == "bool":
            return gettext("yes") if value else gettext("no")
        if option.kind == "choice":
            return gettext(dict(option.choices).get(value, str(value)))
        return str(value)

    def others_names(self, user_id: int) -> list[str]:
        """The other seats' names, for a list's row (the seats prefetched by the list)."""
        return others_names(list(self.seats.all()), user_id)

    def winner_names(self, user_id: int) -> list[str]:
        """Who won, by name ("you" left out: won_by_you says it), for a finished match's row."""
        winners = set((self.result or {}).get("winners") or [])
        seats = list(self.seats.all())
        return others_names([s for s in seats if s.number in winners], user_id, names=seat_names(seats))

    def won_by_you(self, user_id: int) -> bool:
        winners = set((self.result or {}).get("winners") or [])
        return any(s.number in winners and s.user_id == user_id and not s.resigned for s in self.seats.all())

    @property
    def game_name(self) -> str:
        return GAME_NAMES.get(self.game, self.game)

    @property
    def status_label(self) -> str:
        return choice_label(self.Status, self.status)  # the dashboard's 60 rows

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ABORTED, self.Status.CANCELLED)

    def seat_names(self) -> dict[str, str]:
        return seat_names(self.seats.all())


# The columns of a match that grow with its game (the engine state, the board's last moves): a list
# of matches leaves them out, `.defer(*(f"match__{f}" for f in LARGE_FIELDS))`; decoding them for
# a page of a hundred rows costs more than the rest of the page.
LARGE_FIELDS = ("state", "history_tail")


class Seat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    bot_level = models.CharField(max_length=12, blank=True, choices=BOT_LEVELS)
    # An invited user's seat is theirs but not taken until they accept.
    accepted = models.BooleanField(default=False)
    to_act = models.BooleanField(default=False, db_index=True)
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)
    reserve_left = models.PositiveIntegerField(default=0)
    # ruling ALL-4: after three timeouts in a row a bot takes the seat for good; user stays for the record.
    handed_to_bot = models.BooleanField(default=False)
    # ruling SITE-RESIGN: the player resigned; a bot plays the seat on (games of three and more) and the
    # player is ranked last whatever it does.
    resigned = models.BooleanField(default=False)
    # The clock of the seat's current turn (None when not to act, or paused by a vacation).
    turn_started = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    paused_seconds = models.PositiveIntegerField(null=True, blank=True)  # turn time left when paused
    remind_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # The match is over (finished, aborted or cancelled), set when it ends (games.actions.common.
    # save_board_change): a player's running matches are then read from the index of the seats not
    # over, a few hundred, where joining all their seats to the running matches read every one of the
    # site's 50,000. The lists still check the match's status: the flag only narrows.
    match_over = models.BooleanField(default=False, db_default=False)

    class Meta:
        ordering = ["number"]
        indexes = [
            # A player's seats in matches not over, newest first, with what sorts them into the
            # dashboard's lists: the dashboard reads them from this index alone.
            models.Index(
                fields=["user", "-match"],
                include=["to_act", "handed_to_bot", "accepted"],
                condition=models.Q(match_over=False),
                name="seat_player_going_on",
            ),
            # The reminders due (games.tasks.send_reminders, every minute): the seats to act by when
            # their reminder falls. With separate indexes the sweep ANDed the remind_at one with all
            # 50,000 seats to act (3.9 ms; 0.4 ms from this one).
            models.Index(fields=["remind_at"], condition=models.Q(to_act=True), name="seat_reminder_due"),
            # A player's matches newest first (the dashboard's finished list, the API's keyset pages).
            # It holds the columns that sort the dashboard's lists, so those read the index alone.
            models.Index(
                fields=["user", "-match"], include=["to_act", "handed_to_bot", "accepted"], name="seat_player_matches"
            ),
        ]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="unique_seat_number"),
            models.UniqueConstraint(
                fields=["match", "user"], condition=models.Q(user__isnull=False), name="one_seat_per_user"
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.number} of match {self.match_id}: {self.public_name}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)

    @property
    def is_open(self) -> bool:
        return self.user_id is None and not self.bot_level

    @property
    def is_filled(self) -> bool:
        return self.is_bot or (self.user_id is not None and self.accepted)

    @property
    def public_name(self) -> str:
        if self.resigned and self.user_id:  # a bot plays the seat on, but the seat stays its player's
            return self.user.public_name
        if self.bot_level:  # the level alone, the same on every page (seat_names tells two apart)
            return str(self.get_bot_level_display())
        if self.user_id is None:
            return gettext("Open seat #%(number)s") % {"number": self.number + 1}
        return self.user.public_name


# What Seat.public_name reads: a list that names many matches' players loads only these columns of
# the seats and of their users (a user row is wide: preferences, settings).
SEAT_NAME_FIELDS = ["match", "number", "bot_level", "resigned", "user"]
USER_NAME_FIELDS = ["username", "display_name", "is_bot"]
# Both, for a query of seats with select_related("user").
SEAT_AND_USER_NAME_FIELDS = [*SEAT_NAME_FIELDS, *(f"user__{field}" for field in USER_NAME_FIELDS)]


class Move(models.Model):
    """One applied decision, in order. kind "timeout" replays as Engine.apply_timeout; kind "resign"
    (ruling SITE-RESIGN) leaves the state as it is: the site applies that end, not the engine."""

    class Kind(models.TextChoices):
        MOVE = "move", "Move"
        TIMEOUT = "timeout", "Timed out"
        RESIGN = "resign", "Resigned"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="moves")
    number = models.PositiveIntegerField()  # the match version this move produced
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.MOVE)
    payload = models.JSONField(default=dict)
    log = models.JSONField(default=list)  # engine log entries with their audiences
    by_bot = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="unique_move_number")]

    def __str__(self) -> str:
        return f"move {self.number} of match {self.match_id}"

    def texts_for(self, seat: int | None, everything: bool) -> list[str]:
        return texts_for(self.log, seat, everything)


class MoveArchive(models.Model):
    """The moves of an ended match in one row: a million finished matches would otherwise
    keep some 184 million Move rows. Written once by games.actions.archive, never changed; read
    through games.reads.match_moves, which gives the same Move objects the rows gave."""

    match = models.OneToOneField(Match, primary_key=True, on_delete=models.CASCADE, related_name="move_archive")
    # one list per move, in order: [number, seat, kind, payload, log, by_bot, microseconds after time_base]
    moves = models.JSONField(default=list)

    def __str__(self) -> str:
        return f"archived moves of match {self.match_id}"

    @staticmethod
    def time_base(match: Match) -> datetime:
        """What an archived move's time counts from: the start (the creation, for a match never started)."""
        return match.started or match.created


HISTORY_TAIL = 30  # moves kept in Match.history_tail: the ones the board shows


def texts_for(log: list[dict[str, Any]], seat: int | None, everything: bool) -> list[str]:
    """A move's log texts that `seat` may read (all of them once `everything` is public, ALL-3), in
    words for that seat: "you" only in what was written to it, others named (None: no seat)."""
    return [entry_text_for(entry, seat) for entry in log if everything or _audience_has(entry, seat)]


def _audience_has(entry: dict[str, Any], seat: int | None) -> bool:
    audience = entry.get("audience", "all")
    return audience == "all" or (seat is not None and seat in audience)


class Note(models.Model):
    """A player's private notes on a match (seed 003: "you may take and use notes").

    Only its writer ever reads it: no other viewer's page, API view, record or email holds it (the
    hidden-information audit checks). It stays with the match after the end."""

    MAX_LENGTH = 10000

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.TextField(blank=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "user"], name="one_note_per_player")]

    def __str__(self) -> str:
        return f"notes of user {self.user_id} on match {self.match_id}"
