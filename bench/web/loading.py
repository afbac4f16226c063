"""Stage 3: loading the matches (in-process Django, after django.setup()): bench users with one
session each, matches, seats and Move rows in bulk, and each match's last move through the site's own
actions.do_move."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from bench.web.config import SYNTHETIC_HISTORY
from bench.web.playing import Game


@dataclass
class Loaded:
    match_ids: list[int]
    games: list[str]  # each match's game
    late: list[bool]
    history: list[int]  # moves played in each match
    revisions: list[int]
    seat_users: list[list[int]]  # user ids by seat number
    to_act_user: list[int]
    sessions: dict[int, str]  # user id -> session key
    chains: list[list[tuple[int, int, dict[str, Any]]]]  # per match: (user id, version, move)
    probe_200: dict[str, int] = field(default_factory=dict)  # game -> a late match with 200 Move rows
    probe_move_id: int = 0  # a just-started Solitaire Chess match, moved once in-process
    probe_move_user: int = 0
    probe_move_version: int = 0
    probe_move: dict[str, Any] = field(default_factory=dict)

    def pick(self, game: str, late: bool) -> list[int]:
        """Indexes of the game's matches, just started (late=False) or late."""
        return [i for i, (g, is_late) in enumerate(zip(self.games, self.late)) if g == game and is_late == late]


Plan = tuple[Game, list[tuple[int, dict, list]], tuple[int, dict, list]]  # game, Move rows, last move


def plans_for(games: list[Game], probes_200: list[Game], probe_move: Game) -> list[Plan]:
    """Per match: the game, the Move rows to insert, the last move to play through the site. A probe
    "at move 200" has its game's real moves as history, repeated or cut to 200 rows; its state is real."""
    plans = [(game, game.history[:-1], game.history[-1]) for game in games]
    for game in probes_200:
        real = game.history[:-1]
        plans.append((game, [real[i % len(real)] for i in range(SYNTHETIC_HISTORY - 1)], game.history[-1]))
    plans.append((probe_move, probe_move.history[:-1], probe_move.history[-1]))
    return plans


def create_users(count: int) -> tuple[list[Any], dict[int, str]]:
    """Bench users with verified emails and one logged-in session each (as auth.login() stores it)."""
    from importlib import import_module

    from allauth.account.models import EmailAddress
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.hashers import make_password

    from accounts.models import User

    unusable = make_password(None)  # no password hashing per user: sessions are made directly
    users = User.objects.bulk_create(
        [User(username=f"bench{n:03d}", email=f"bench{n:03d}@bench.invalid", password=unusable) for n in range(count)]
    )
    EmailAddress.objects.bulk_create([EmailAddress(user=u, email=u.email, verified=True, primary=True) for u in users])
    store = import_module(settings.SESSION_ENGINE).SessionStore
    sessions = {}
    for user in users:
        session = store()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        sessions[user.pk] = session.session_key
    return users, sessions


def insert_matches(plans: list[Plan], seat_users: list[list[int]]) -> list[Any]:
    """Matches, seats and Move rows in bulk, each match at the state before its last move."""
    from django.utils import timezone

    from games.engines.registry import get_engine
    from games.models import HISTORY_TAIL, Match, Move, Seat, TimeControl

    now = timezone.now()
    matches = []
    for game, rows, _ in plans:
        turn, periods, period = TimeControl.figures("daily", game.slug)
        matches.append(
            Match(
                game=game.slug,
                options=game.options,
                status=Match.Status.ACTIVE,
                created_by_id=seat_users[len(matches)][0],
                started=now,
                seed=str(game.seed),
                state=game.before_last,
                version=len(rows),
                # The board's tail of the last moves, as games.actions.play keeps it.
                history_tail=[
                    {"number": number, "seat": seat, "log": entries}
                    for number, (seat, _, entries) in enumerate(rows, start=1)
                ][-HISTORY_TAIL:],
                revision=len(rows) + 2,  # created, joined, started: then one per move
                time_preset="daily",
                turn_seconds=turn,
                reserve_periods=periods,
                period_seconds=period,
                deadline=now + timedelta(seconds=turn),
            )
        )
    Match.objects.bulk_create(matches, batch_size=500)
    seats, moves = [], []
    for match, (game, rows, _), users in zip(matches, plans, seat_users):
        to_act = get_engine(game.slug).to_act(game.before_last)
        periods = match.reserve_periods
        for number, user_id in enumerate(users):
            seats.append(
                Seat(
                    match=match,
                    number=number,
                    user_id=user_id,
                    accepted=True,
                    to_act=number in to_act,
                    reserve_left=periods,
                )
            )
        for number, (seat, move, entries) in enumerate(rows, start=1):
            moves.append(Move(match=match, number=number, seat=seat, payload=move, log=entries))
    Seat.objects.bulk_create(seats, batch_size=2000)
    Move.objects.bulk_create(moves, batch_size=2000)
    return matches


def load_data(games: list[Game], probes_200: list[Game], probe_move: Game, users: int) -> Loaded:
    """Bulk-insert users, sessions, matches, seats and all moves but the last of each match; then
    play that last move through the site's own actions.do_move, so whatever a move sets (who is to
    act, deadlines, clocks, revision) is exactly what the site would have."""
    from django.db import connection, transaction

    from games import actions
    from games.models import Match, Seat

    plans = plans_for(games, probes_200, probe_move)
    with transaction.atomic():
        user_rows, sessions = create_users(users)
        user_ids = [u.pk for u in user_rows]
        # Different users in every seat of a match; each user sits in many matches.
        seat_users = [random.Random(index).sample(user_ids, game.players) for index, (game, _, _) in enumerate(plans)]
        matches = insert_matches(plans, seat_users)
    users_by_id = {u.pk: u for u in user_rows}
    for match, (game, rows, (seat, move, _)), users_of in zip(matches, plans, seat_users):
        done = actions.do_move(match.pk, users_by_id[users_of[seat]], len(rows), move)
        if done.state != game.state:
            raise RuntimeError(f"match {match.pk}: the site's state differs from the engine's")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # planner statistics, as a live database would have

    count = len(games)
    ids = [m.pk for m in matches]
    revisions = dict(Match.objects.filter(pk__in=ids).values_list("pk", "revision"))
    to_act_user = dict(Seat.objects.filter(match_id__in=ids, to_act=True).values_list("match_id", "user_id"))
    loaded = Loaded(
        match_ids=ids[:count],
        games=[g.slug for g in games],
        late=[len(g.history) > 1 for g in games],
        history=[len(g.history) for g in games],
        revisions=[revisions[pk] for pk in ids[:count]],
        seat_users=seat_users[:count],
        to_act_user=[to_act_user[pk] for pk in ids[:count]],
        sessions=sessions,
        chains=[],
        probe_200={game.slug: pk for game, pk in zip(probes_200, ids[count:])},
    )
    for game, users_of in zip(games, seat_users):
        version = len(game.history)
        loaded.chains.append([(users_of[seat], version + step, move) for step, (seat, move) in enumerate(game.chain)])
    loaded.probe_move_id, loaded.probe_move_version = ids[-1], len(probe_move.history)
    seat, loaded.probe_move = probe_move.chain[0]
    loaded.probe_move_user = seat_users[-1][seat]
    return loaded
