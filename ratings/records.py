"""Each player's won/lost/drawn count per game, kept as matches finish.

The profile's record read every finished match of the player (3,000 for a busy one); it now reads one
PlayerRecord row per game. The row is counted by the MatchFinished listener inside the transaction that
ends the match (ratings/apps.py), so it commits or rolls back with the end. FILL_SQL builds the table
from the finished matches (the data migration, and bench/scale.py after its load).
"""

from __future__ import annotations

from typing import Any

from django.db import connection

from games.events import MatchFinished
from games.models import Match


def outcome_in(result: dict[str, Any] | None, seat: int, *, resigned: bool = False) -> str:
    """A seat's outcome as the record counts it: no winners or a draw is drawn; a player who resigned
    or left (rulings SITE-RESIGN, TRN-8) lost, whatever the bot that played the seat on did."""
    if resigned:
        return "lost"
    winners = set((result or {}).get("winners") or [])
    if not winners or (result or {}).get("draw"):
        return "drawn"
    return "won" if seat in winners else "lost"


# outcome_in in SQL, per seat of a finished match. A JSON array "contains" a number it holds (@>).
_OUTCOMES = """
    SELECT s.user_id, m.game,
           CASE WHEN s.resigned THEN 'lost'
                WHEN coalesce(m.result -> 'winners', '[]'::jsonb) IN ('[]'::jsonb, 'null'::jsonb)
                  OR coalesce(m.result -> 'draw', 'false'::jsonb) NOT IN ('false'::jsonb, 'null'::jsonb)
                THEN 'drawn'
                WHEN m.result -> 'winners' @> to_jsonb(s.number) THEN 'won'
                ELSE 'lost' END AS outcome
    FROM games_seat s JOIN games_match m ON m.id = s.match_id
    WHERE m.status = 'finished' AND s.user_id IS NOT NULL
"""

FILL_SQL = f"""
    INSERT INTO ratings_playerrecord (user_id, game, won, lost, drawn)
    SELECT user_id, game, count(*) FILTER (WHERE outcome = 'won'), count(*) FILTER (WHERE outcome = 'lost'),
           count(*) FILTER (WHERE outcome = 'drawn')
    FROM ({_OUTCOMES}) AS outcomes
    GROUP BY user_id, game
"""

# One statement per seat, safe when two matches of one player end at once: the row is created or added to.
_ADD_SQL = """
    INSERT INTO ratings_playerrecord (user_id, game, won, lost, drawn) VALUES (%s, %s, %s, %s, %s)
    ON CONFLICT (user_id, game) DO UPDATE SET won = ratings_playerrecord.won + EXCLUDED.won,
        lost = ratings_playerrecord.lost + EXCLUDED.lost, drawn = ratings_playerrecord.drawn + EXCLUDED.drawn
"""


def count_on_finish(event: MatchFinished) -> None:
    """Add the finished match to each of its players' records (an abort is no finished match)."""
    match = event.match
    if match.status != Match.Status.FINISHED:
        return
    rows = []
    for seat in event.seats:
        if seat.user_id is None:
            continue
        number, user_id = seat.number, seat.user_id
        outcome = outcome_in(match.result, number, resigned=seat.resigned)
        rows.append((user_id, match.game, int(outcome == "won"), int(outcome == "lost"), int(outcome == "drawn")))
    with connection.cursor() as cursor:
        cursor.executemany(_ADD_SQL, rows)
