"""Ratings: OpenSkill per game, changed in the transaction that ends a match, exactly once."""

from __future__ import annotations

import re
import threading

import pytest
from django.db import connection, connections

from games import actions
from games.actions import SeatSpec
from games.engines.registry import get_engine
from games.models import Match
from moderation import actions as moderation
from ratings.actions import do_rate_finished_match, teams_and_ranks
from ratings.models import PROVISIONAL_SIGMA, START_MU, Pool, Rating, RatingChange
from tests.helpers import create_page_data, make_late, play_first_move, start_match, time_out

pytestmark = pytest.mark.django_db


def seat_of(match: Match, user) -> int:
    return match.seats.get(user=user).number


def change(match: Match, user) -> RatingChange:
    return RatingChange.objects.get(match=match, seat=seat_of(match, user))


def rating(user, game="solitaire-chess", pool=Pool.PEOPLE) -> Rating:
    return Rating.objects.get(user=user, game=game, pool=pool)


def test_two_player_result_moves_winner_up_and_loser_down(alice, bob):
    match = start_match(alice, [bob])
    actions.do_adjudicate(match.pk, [seat_of(match, alice)], "test")
    won, lost = change(match, alice), change(match, bob)
    assert won.outcome == "won" and lost.outcome == "lost"
    assert won.mu_after > START_MU > lost.mu_after
    assert won.delta > 0 > lost.delta
    assert rating(alice).matches == 1 and rating(alice).pool == Pool.PEOPLE
    assert rating(alice).provisional and rating(alice).sigma > PROVISIONAL_SIGMA


def test_a_draw_between_equals_moves_nobody(alice, bob):
    match = start_match(alice, [bob])
    actions.do_adjudicate(match.pk, [], "a draw")
    for user in (alice, bob):
        c = change(match, user)
        assert c.outcome == "drawn" and c.delta == 0 and c.sigma_after < c.sigma_before


def test_multiplayer_result_one_winner_several_losers(alice, bob, carol, make_user):
    dave = make_user("dave")
    match = start_match(alice, [bob, carol, dave], game="dizzy-duo-battle")
    winner = seat_of(match, carol)
    actions.do_adjudicate(match.pk, [winner], "test")
    changes = {c.seat: c for c in RatingChange.objects.filter(match=match)}
    assert len(changes) == 4
    assert changes[winner].delta > 0
    losers = [c for seat, c in changes.items() if seat != winner]
    assert all(c.delta < 0 and c.outcome == "lost" for c in losers)
    assert len({round(c.mu_after, 6) for c in losers}) == 1  # equal ranks, equal changes


def test_team_result_rates_the_winning_side_as_one_team(alice, bob, carol, make_user):
    dave = make_user("dave")
    match = start_match(alice, [bob, carol, dave], game="lizzy-ghosties")
    team = sorted([seat_of(match, alice), seat_of(match, carol)])
    actions.do_adjudicate(match.pk, team, "team Lizzies wins")
    changes = {c.seat: c for c in RatingChange.objects.filter(match=match)}
    assert all(changes[s].outcome == "won" and changes[s].delta > 0 for s in team)
    assert all(c.outcome == "lost" and c.delta < 0 for s, c in changes.items() if s not in team)
    assert rating(alice, "lizzy-ghosties").matches == 1


def test_teams_and_ranks():
    assert teams_and_ranks("lizzy-ghosties", {"winners": [0, 2], "draw": False}, [0, 1, 2, 3]) == (
        [[0, 2], [1, 3]],
        [1, 2],
    )
    assert teams_and_ranks("dizzy-duo-battle", {"winners": [1], "draw": False}, [0, 1, 2]) == (
        [[0], [1], [2]],
        [2, 1, 2],
    )
    assert teams_and_ranks("lizzy-ghosties", {"winners": [], "draw": True}, [0, 1, 2]) == ([[0], [1], [2]], [1, 1, 1])


def test_a_match_against_bots_rates_the_vs_bots_pool_and_the_bot_level(alice):
    match = start_match(alice, ["random"])
    actions.do_adjudicate(match.pk, [seat_of(match, alice)], "test")
    assert rating(alice, pool=Pool.BOTS).matches == 1
    assert not Rating.objects.filter(user=alice, pool=Pool.PEOPLE).exists()
    bot = Rating.objects.get(game="solitaire-chess", pool=Pool.BOTS, bot_level="random", user=None)
    assert bot.mu < START_MU and bot.matches == 1


def test_an_account_is_never_rated_against_itself(alice):
    """Two seats of one bot level (one rating): the level keeps its rating, the player is rated
    against each of its seats; a match of one account's seats only changes no rating."""
    match = start_match(alice, ["random", "random"], game="dizzy-duo-battle")
    actions.do_adjudicate(match.pk, [seat_of(match, alice)], "test")
    bot = Rating.objects.get(game="dizzy-duo-battle", pool=Pool.BOTS, bot_level="random")
    assert bot.matches == 0 and not RatingChange.objects.filter(rating=bot).exists()
    (change,) = RatingChange.objects.filter(match=match)
    assert change.rating.user == alice and change.mu_after > change.mu_before and change.outcome == "won"
    match.refresh_from_db()
    assert do_rate_finished_match(match) == []  # once


def test_unrated_and_aborted_matches_change_nothing(alice, bob):
    unrated = actions.create_match(alice, "solitaire-chess", [SeatSpec("me"), SeatSpec("invite", "bob")], rated=False)
    actions.do_join(unrated.pk, bob)
    actions.do_adjudicate(unrated.pk, [0], "test")
    aborted = start_match(alice, [bob])
    actions.do_abort(aborted.pk, alice, "test")
    assert not RatingChange.objects.exists() and not Rating.objects.exists()


def test_rating_runs_once_even_when_called_again(alice, bob):
    match = start_match(alice, [bob])
    actions.do_adjudicate(match.pk, [0], "test")
    before = rating(alice).mu
    match.refresh_from_db()
    assert do_rate_finished_match(match) == []
    assert rating(alice).mu == before and RatingChange.objects.count() == 2


def test_moderator_adjudication_rates(alice, bob, make_user):
    mod = make_user("mod", is_staff=True)
    match = start_match(alice, [bob])
    moderation.adjudicate(mod, match.pk, [seat_of(match, bob)], "alice left")
    assert change(match, bob).outcome == "won" and change(match, alice).outcome == "lost"


def test_time_out_ends_and_rates(alice, bob):
    match = play_first_move(start_match(alice, [bob]))  # Death Match: running out of time loses (SC-7)
    late = get_engine(match.game).to_act(match.state)[0]
    time_out(match)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert RatingChange.objects.get(match=match, seat=late).outcome == "lost"


def test_finished_board_shows_each_players_change(alice, bob, client_for):
    match = start_match(alice, [bob])
    actions.do_adjudicate(match.pk, [seat_of(match, alice)], "test")
    page = client_for(bob).get(f"/matches/{match.pk}/").content.decode()
    a, b = change(match, alice), change(match, bob)
    assert f"{a.before} → {a.after}" in page and f"+{a.delta} (up)" in page
    assert f"{b.before} → {b.after}" in page and "(down)" in page and "provisional" in page
    assert f"/matches/{match.pk}/replay/" in page and f"/matches/{match.pk}/rematch/" in page


def test_running_board_has_no_after_match_panel(alice, bob, client_for):
    match = start_match(alice, [bob])
    page = client_for(bob).get(f"/matches/{match.pk}/").content.decode()
    assert "After the match" not in page and "/replay/" not in page


def test_new_match_form_is_rated_by_default_and_can_be_unrated(alice, client_for):
    c = client_for(alice)
    html = c.get("/matches/new/?game=solitaire-chess&invite=bob").content.decode()
    assert re.search(r'<option value="invite" selected', html) and 'value="bob"' in html  # a profile's Challenge
    html = c.get("/matches/new/?game=solitaire-chess").content.decode()
    assert re.search(r'<input[^>]*name="rated"[^>]*checked', html)
    c.post("/matches/new/", create_page_data())
    c.post("/matches/new/", create_page_data(rated="on"))
    assert list(Match.objects.order_by("pk").values_list("rated", flat=True)) == [False, True]


# --- exactly once under a concurrent end (PostgreSQL row locks) -------------------------------------


def _race(calls) -> list[str]:
    barrier = threading.Barrier(len(calls))
    outcomes: list[str] = []

    def run(call) -> None:
        try:
            barrier.wait()
            outcomes.append("done" if call() is not None else "nothing")
        except actions.ActionError as error:
            outcomes.append(f"refused: {error}")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes


def _require_postgres() -> None:
    if connection.vendor != "postgresql":
        from tests.conftest import require

        require(False, "row locks need PostgreSQL (select_for_update does nothing on SQLite)")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_concurrent_end_rates_exactly_once(alice, bob):
    _require_postgres()
    match = play_first_move(start_match(alice, [bob]))  # a person moved: the time-out is scored
    make_late(match)  # the sweep's time-out races the adjudications
    calls = [lambda: actions.do_deadlines(match.pk, 1) or None for _ in range(3)]
    calls += [lambda: actions.do_adjudicate(match.pk, [0], "race") for _ in range(3)]
    outcomes = _race(calls)
    assert outcomes.count("done") == 1, outcomes
    assert RatingChange.objects.filter(match=match).count() == 2
    assert Rating.objects.get(user=alice).matches == 1 and Rating.objects.get(user=bob).matches == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_matches_ending_at_once_lose_no_update(alice, bob, carol):
    _require_postgres()
    first, second = start_match(alice, [bob]), start_match(alice, [carol])
    outcomes = _race(
        [
            lambda: actions.do_adjudicate(first.pk, [seat_of(first, alice)], "race"),
            lambda: actions.do_adjudicate(second.pk, [seat_of(second, alice)], "race"),
        ]
    )
    assert outcomes == ["done", "done"]
    mine = Rating.objects.get(user=alice, pool=Pool.PEOPLE)
    assert mine.matches == 2
    changes = list(RatingChange.objects.filter(rating=mine).order_by("mu_before"))
    assert changes[0].mu_after == changes[1].mu_before and mine.mu == changes[1].mu_after


def test_a_rating_stops_being_provisional_once_it_settles(alice, bob):
    for number in range(8):
        match = start_match(alice, [bob])
        actions.do_adjudicate(match.pk, [number % 2], "test")
    assert rating(alice).matches == 8
    assert not rating(alice).provisional and not rating(bob).provisional
    assert not RatingChange.objects.filter(match=match).first().provisional


def test_a_seat_handed_to_a_bot_still_counts_as_its_player(alice, bob):
    """Timing out (or a suspension) hands the seat to a bot, not the rating: the match stays between people."""
    match = start_match(alice, [bob])
    actions.do_hand_seat_to_bot(match.pk, seat_of(match, bob))
    actions.do_adjudicate(match.pk, [seat_of(match, alice)], "test")
    assert change(match, bob).outcome == "lost" and rating(bob).pool == Pool.PEOPLE
    assert not Rating.objects.filter(user=None).exists()


def test_the_leaderboard_hides_provisional_players_unless_asked(alice, bob, carol, client):
    """As lichess does (defect 8): a rating that has not settled is not ranked beside settled
    ones; a plain link (GET, nothing changes) shows them, marked provisional."""
    from datetime import timedelta

    from django.utils import timezone

    recent = timezone.now() - timedelta(days=1)
    settled = dict(game="solitaire-chess", pool=Pool.PEOPLE, last_played=recent, matches=12)
    Rating.objects.create(user=alice, mu=30.0, sigma=PROVISIONAL_SIGMA - 2, **settled)
    Rating.objects.create(user=bob, mu=26.0, sigma=PROVISIONAL_SIGMA - 1, **settled)
    Rating.objects.create(
        user=carol, game="solitaire-chess", pool=Pool.PEOPLE, last_played=recent, matches=1, mu=40.0, sigma=8.0
    )
    page = client.get("/leaderboards/solitaire-chess/").content.decode()
    assert "/players/alice/" in page and "/players/bob/" in page
    assert "/players/carol/" not in page
    assert "1 player whose rating is still provisional is not ranked" in page
    assert 'href="?pool=people&amp;provisional=1"' in page
    shown = client.get("/leaderboards/solitaire-chess/?pool=people&provisional=1").content.decode()
    assert shown.index("/players/carol/") < shown.index("/players/alice/") < shown.index("/players/bob/")
    assert "provisional" in shown.split("/players/carol/")[1].split("</tr>")[0]
    assert "Hide provisional players" in shown
