"""The notification rows that a match's events call for (invitations, starts, turns, reminders, ends,
a seat handed to a bot), written in the event's transaction.

Subscribed in NotificationsConfig.ready() with during=True: a row commits or rolls back with the
change it tells of, and its email and pushes are queued for after the commit (notifications.service).
The rules are the ones games.actions applied itself before the events: nothing changes for
the players.
"""

from __future__ import annotations

from games import clock
from games.events import (
    MatchesStarted,
    MatchFinished,
    MatchStarted,
    PlayerInvited,
    ReminderDue,
    SeatHandedToBot,
    TurnStarted,
    subscribe,
)
from games.models import Seat
from games.presence import is_watching
from notifications.models import Kind, Notification
from notifications.service import notify, notify_all, replace_unread_turns


def _is_player(seat: Seat) -> bool:
    return seat.user_id is not None and seat.accepted and not seat.is_bot


def on_match_finished(event: MatchFinished) -> None:
    """Every player hears of the end, however it came (an abort too), but the one who aborted it. An
    unread "your turn" of the match leaves the inbox: there is no turn to take any more, and the end
    is the news."""
    for seat in event.seats:
        if not _is_player(seat):
            continue
        replace_unread_turns(event.match, seat.user)
        if seat.user_id != event.quiet_user_id:
            notify(event.match, seat.user, Kind.FINISHED, event.version)


def on_match_started(event: MatchStarted) -> None:
    """At the start each player hears once: "your turn" for whoever is to move (not in a live match),
    "started" for the others. The creator who started it (the last seat filled by their own request)
    is at the board and hears nothing; a player who joined last hears "started", as before. A match
    that started by nobody's request (a tournament's pairing) tells everyone."""
    match, starter_id = event.match, event.starter_id
    live = clock.is_live(match.turn_seconds)
    for seat in event.seats:
        if not seat.user_id or seat.is_bot or seat.user_id == starter_id == match.created_by_id:
            continue
        their_turn = seat.number in event.to_move and not live and seat.user_id != starter_id
        notify(match, seat.user, Kind.YOUR_TURN if their_turn else Kind.STARTED, 0)


def on_matches_started(event: MatchesStarted) -> None:
    """Many matches started by nobody's request (a tournament's round): each player's one word of the
    start, as on_match_started says it, or the match's opening kind for everyone; all in bulk."""
    rows = []
    for match, seats, opening_kind in event.starts:
        live = clock.is_live(match.turn_seconds)
        for seat in seats:
            if seat.user_id and not seat.is_bot:
                kind = opening_kind or (Kind.YOUR_TURN if seat.to_act and not live else Kind.STARTED)
                rows.append(Notification(match=match, recipient=seat.user, kind=kind, turn=0))
    notify_all(rows)


def on_turn_started(event: TurnStarted) -> None:
    """ "Your turn" for each seat whose turn began, but the mover keeping the turn (at the board), and
    never in a live match (the players are at the board); the start is on_match_started's."""
    match = event.match
    if event.version == 0 or clock.is_live(match.turn_seconds):
        return
    for seat in event.seats:
        if seat.number in event.to_move and seat.user_id and not seat.is_bot and seat.number != event.mover:
            if is_watching(match.pk, seat.user_id):
                continue  # at the board, which the live events redraw: nothing to tell them
            notify(match, seat.user, Kind.YOUR_TURN, event.version)


def on_seat_handed_to_bot(event: SeatHandedToBot) -> None:
    """The player whose third timeout in a row gave their seat to a bot hears of it (ruling ALL-4)."""
    if event.reason != SeatHandedToBot.TIMEOUTS:
        return
    seat = next((s for s in event.seats if s.number == event.seat), None)
    if seat is not None:
        notify(event.match, seat.user, Kind.HANDED_TO_BOT, event.version)


def on_player_invited(event: PlayerInvited) -> None:
    notify(event.match, event.user, Kind.INVITED, event.key)


def on_reminder_due(event: ReminderDue) -> None:
    notify(event.match, event.user, Kind.REMINDER, event.version)


def subscribe_all() -> None:
    subscribe(MatchFinished, on_match_finished, during=True)
    subscribe(MatchStarted, on_match_started, during=True)
    subscribe(MatchesStarted, on_matches_started, during=True)
    subscribe(TurnStarted, on_turn_started, during=True)
    subscribe(SeatHandedToBot, on_seat_handed_to_bot, during=True)
    subscribe(PlayerInvited, on_player_invited, during=True)
    subscribe(ReminderDue, on_reminder_due, during=True)
