"""Changes to a match's play, seats and clocks: check, then do, in one transaction with the match
row locked. Views, tasks and moderators' actions call these; one module per domain (as zulip's
zerver/actions/): common (errors, the row lock, saving a board change), lobby, play, clocks,
deadlines, vacation, bots, moderation, resign (resigning and a player's abort), notes and archive
(an ended match's moves into one row). What
reads need (engine_of, seat_of) is in games/reads.py.

One other writer touches a match: moderation/actions.py raises the revision for the chat (through
save_board_change); a player's presence on the board lives in the cache (games/presence.py). Side
effects (bot moves, emails) are queued with on_commit, so they see the committed state and never run
for a rolled-back change. An ActionError's message is shown to the player as it is, and nothing has
changed.
"""

from games.actions.archive import do_archive_batch, do_archive_moves, matches_to_archive  # noqa: F401
from games.actions.bots import bot_rng, choose_bot_move  # noqa: F401
from games.actions.clocks import (  # noqa: F401
    BOT_GRACE_SECONDS,
    DEADLINE_TASK_SECONDS,
    add_turn_time,
    earliest_deadline,
    queue_deadline_task,
    set_reminder,
    start_turn_clock,
    stop_turn_clock,
)
from games.actions.common import (  # noqa: F401
    MAX_MOVE_BYTES,
    ActionError,
    Conflict,
    MatchOver,
    NotAllowed,
    NotYourTurn,
    StaleVersion,
    check_can_play,
    save_board_change,
)
from games.actions.deadlines import TIMEOUTS_BEFORE_BOT, do_deadlines, do_reminders  # noqa: F401
from games.actions.lobby import check_clock, check_seats, create_match, do_cancel, do_fill_seat, do_join, do_leave  # noqa: F401
from games.actions.moderation import do_abort, do_adjudicate, do_hand_seat_to_bot  # noqa: F401
from games.actions.notes import do_save_note  # noqa: F401
from games.actions.play import do_bot_move, do_move, parse_move  # noqa: F401
from games.actions.resign import do_forfeit, do_player_abort, do_resign  # noqa: F401
from games.actions.vacation import VACATION_DAYS_PER_YEAR, end_vacation, start_vacation, vacation_seconds_left  # noqa: F401
from games.reads import engine_of, seat_of  # noqa: F401
from games.seats import SeatSpec  # noqa: F401  (callers written before games/seats.py import it from here)
