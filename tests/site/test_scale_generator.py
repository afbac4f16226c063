"""bench/scale.py's history is valid for the site: generated tiny on the test database,
each sampled match's page renders, its record replays as `manage.py replay` checks it, and every
rating change is what the site's own rating of that match makes of the ratings before it."""

from __future__ import annotations

import random

import pytest
from django.db import connection

from accounts.models import User
from games.models import Match, MoveArchive, Seat
from games.reads import match_moves
from notifications.models import Notification
from ratings.actions import MODEL, teams_and_ranks
from ratings.models import PlayerRecord, Rating, RatingChange
from ratings.records import outcome_in
from ratings.replay import build_record, check_record, last, match_steps, positions
from tests.conftest import require

pytestmark = pytest.mark.django_db(transaction=True)

SAMPLE = 6  # matches per kind (finished with moves, running) checked page by page


@pytest.fixture
def history():
    require(connection.vendor == "postgresql", "the generator COPYs into PostgreSQL")
    import psycopg

    from bench import scale

    settings = connection.settings_dict
    url = (
        f"postgresql://{settings['USER']}:{settings['PASSWORD'] or ''}@{settings['HOST'] or '127.0.0.1'}:"
        f"{settings['PORT'] or 5432}/{settings['NAME']}"
    )
    templates = scale.play_templates(per_game=2, seed=7)
    sizes = scale.Sizes(
        users=50, finished=40, running=8, open=4, heavy_finished=3, heavy_running=2, heavy_notifications=20
    )
    with psycopg.connect(url) as conn:
        conn.execute("SET session_replication_role = replica")
        builder = scale.Builder(conn, templates, sizes, seed=7)
        builder.create_stages()
        for step in (builder.users, lambda: builder.finished(50), builder.rating_rows, lambda: builder.running(5)):
            step()
        builder.open_matches()
        builder.records()
        builder.heavy_extra_notifications()
        builder.drop_stages()
        for table in (t for t in scale.TABLES if scale.COLUMNS[t].startswith("id ")):
            conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))")
        conn.commit()
    return sizes


def test_the_sizes_asked_for(history):
    assert User.objects.count() == history.users
    assert Match.objects.filter(status=Match.Status.FINISHED).count() == history.finished
    assert Match.objects.filter(status=Match.Status.ACTIVE).count() == history.running
    heavy = User.objects.get(username="heavy")
    assert Seat.objects.filter(user=heavy, match__status=Match.Status.FINISHED).count() == history.heavy_finished
    assert Seat.objects.filter(user=heavy, match__status=Match.Status.ACTIVE).count() == history.heavy_running
    assert Notification.objects.filter(recipient=heavy).count() == history.heavy_notifications
    # Every running match has its seats to act with a deadline in the future, and its deadline is theirs.
    for match in Match.objects.filter(status=Match.Status.ACTIVE):
        deadlines = [s.deadline for s in match.seats.all() if s.to_act]
        assert deadlines and match.deadline == min(deadlines)


def sampled(queryset) -> list[Match]:
    ids = list(queryset.values_list("pk", flat=True))
    return list(Match.objects.filter(pk__in=random.Random(28).sample(ids, min(SAMPLE, len(ids)))))


def test_sampled_matches_render_and_replay(history, client):
    """Running matches have Move rows; finished ones their MoveArchive, as the site leaves them an
    hour after the end: both read back through games.reads.match_moves as legal moves to their state."""
    finished = sampled(Match.objects.filter(status=Match.Status.FINISHED))
    running = sampled(Match.objects.filter(status=Match.Status.ACTIVE))
    assert len(finished) == SAMPLE and len(running) == SAMPLE
    assert all(m.moves_archived and not m.moves.exists() for m in finished)
    assert MoveArchive.objects.count() == history.finished
    assert not any(m.moves_archived for m in running)
    for match in finished + running:
        seat = match.seats.filter(user__isnull=False).first()
        client.force_login(seat.user)
        assert client.get(f"/matches/{match.pk}/").status_code == 200
        assert client.get(f"/matches/{match.pk}/history/").status_code == 200
        moves = match_moves(match)
        # the engine's logs, replayed from the seed where the archive left them out
        assert all(isinstance(move.log, list) for move in moves) and any(move.log for move in moves)
        assert [m.number for m in moves] == list(range(1, match.version + 1))
        state = last(
            positions(get_engine_of(match), match.seats.count(), match.options, int(match.seed), match_steps(moves))
        )
        assert state == match.state
    for match in finished:
        moves = match_moves(match)
        assert match.started < moves[0].created and moves[-1].created == match.ended  # spread over the match
        assert client.get(f"/matches/{match.pk}/replay/").status_code == 200
        assert "moves replayed; the result matches" in check_record(build_record(match))


def get_engine_of(match: Match):
    from games.engines.registry import get_engine

    return get_engine(match.game)


def test_ratings_are_the_sites_own(history):
    """Each change is the site's rating of its match from the ratings before it; each rating is the
    last of its changes, and counts them."""
    changes = RatingChange.objects.select_related("match").order_by("match_id", "seat")
    by_match: dict[int, list[RatingChange]] = {}
    for change in changes:
        by_match.setdefault(change.match_id, []).append(change)
    assert len(by_match) == history.finished
    for match_id, rows in by_match.items():
        match = rows[0].match
        teams, ranks = teams_and_ranks(match.game, match.result, [r.seat for r in rows])
        seat = {r.seat: r for r in rows}
        rated = MODEL.rate(
            [[MODEL.rating(mu=seat[n].mu_before, sigma=seat[n].sigma_before) for n in team] for team in teams],
            ranks=ranks,
        )
        for team, news in zip(teams, rated):
            for n, new in zip(team, news):
                assert seat[n].mu_after == pytest.approx(new.mu), match_id
                assert seat[n].sigma_after == pytest.approx(min(seat[n].sigma_before, new.sigma)), match_id
    for rating in Rating.objects.all():
        mine = list(rating.changes.order_by("match_id"))
        assert rating.matches == len(mine)
        assert (rating.mu, rating.sigma) == pytest.approx((mine[-1].mu_after, mine[-1].sigma_after))
        for before, after in zip(mine, mine[1:]):
            assert after.mu_before == pytest.approx(before.mu_after)


def test_the_players_records_count_their_finished_matches(history):
    counted: dict[tuple[int, str], list[int]] = {}
    for seat in Seat.objects.filter(match__status=Match.Status.FINISHED, user__isnull=False).select_related("match"):
        counts = counted.setdefault((seat.user_id, seat.match.game), [0, 0, 0])
        counts[("won", "lost", "drawn").index(outcome_in(seat.match.result, seat.number))] += 1
    kept = {(r.user_id, r.game): [r.won, r.lost, r.drawn] for r in PlayerRecord.objects.all()}
    assert kept == counted
    heavy = User.objects.get(username="heavy")
    assert sum(sum(c) for (user, _), c in kept.items() if user == heavy.pk) == history.heavy_finished
