"""Ruling TRN-8: an entrant who withdraws or is banned loses their running matches of the tournament
at once (a game of two: the opponent wins; a bigger one: a bot plays the seat on, the player last)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone, translation

from games import actions as games
from games.models import Match, Move
from moderation.actions import suspend_user
from tournaments import actions
from tournaments.actions import TournamentSettings
from tournaments.models import Tournament
from tournaments.standings import compute_standings, read_tables, rounds_with_tables, table_points

pytestmark = pytest.mark.django_db


def started(organiser, players, **chosen) -> Tournament:
    settings = {
        "name": "Forfeits",
        "game": "solitaire-chess",
        "format": Tournament.Format.SWISS,
        "starts_at": timezone.now() + timedelta(days=1),
        "rounds": 2,
        "min_entrants": 2,
        **chosen,
    }
    tournament = actions.do_create(organiser, TournamentSettings(**settings))
    for player in players:
        actions.do_join(tournament.pk, player)
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    assert actions.do_start_if_due(tournament.pk) == "started"
    return tournament


def matches_of(tournament: Tournament, user) -> list[Match]:
    return list(Match.objects.filter(tournament_table__round__tournament=tournament, seats__user=user))


@pytest.fixture
def players(make_user):
    return [make_user(f"player{n}") for n in range(5)]


def test_withdrawing_loses_the_running_match_at_once_and_the_opponent_wins(alice, players):
    tournament = started(alice, players[:4])
    (match,) = matches_of(tournament, players[0])
    others = Match.objects.filter(tournament_table__round__tournament=tournament).exclude(pk=match.pk)
    actions.do_leave(tournament.pk, players[0])
    match.refresh_from_db()
    quitter = match.seats.get(user=players[0])
    assert match.status == Match.Status.FINISHED and match.result["winners"] == [1 - quitter.number]
    assert quitter.resigned and match.end_reason == "player0 is out of the tournament and loses this match."
    assert match.moves.get(number=match.version).kind == Move.Kind.RESIGN
    with translation.override("nl"):
        assert match.end_reason_text() == "player0 doet niet meer mee aan het toernooi en verliest deze partij."
    assert {m.status for m in others} == {Match.Status.ACTIVE}  # the other players' match goes on
    games.do_adjudicate(others.get().pk, [0], "test: the first seat wins")
    assert actions.do_advance_if_round_over(tournament.pk) == "paired"
    rows = {
        row.player: row.score
        for row in compute_standings(tournament, read_tables(tournament, rounds_with_tables(tournament)))
    }
    opponent = match.seats.exclude(user=players[0]).get().user
    assert rows[tournament.entries.get(user=opponent).pk] == 1 and rows[tournament.entries.get(user=players[0]).pk] == 0
    assert matches_of(tournament, players[0]) == [match]  # paired no more


def test_withdrawing_from_a_round_robin_all_at_once_loses_every_match_left(alice, players):
    tournament = started(alice, players[:4], format=Tournament.Format.ROUND_ROBIN, all_at_once=True)
    mine = matches_of(tournament, players[0])
    assert len(mine) == 3
    played = mine[0]
    games.do_adjudicate(played.pk, [played.seats.get(user=players[0]).number], "test: player0 wins this one")
    actions.do_leave(tournament.pk, players[0])
    for match in mine[1:]:
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED
        assert match.result["winners"] == [1 - match.seats.get(user=players[0]).number]
    played.refresh_from_db()
    assert played.result["winners"] == [played.seats.get(user=players[0]).number]  # a result stays as it was


def test_withdrawing_from_a_table_hands_the_seat_to_a_bot_for_good_and_ranks_last(alice, players):
    tournament = started(
        alice, players, game="lizzy-ghosties", format=Tournament.Format.TABLES, table_size=5, rounds=1, min_entrants=3
    )
    (match,) = matches_of(tournament, players[2])
    actions.do_leave(tournament.pk, players[2])
    match.refresh_from_db()
    seat = match.seats.get(user=players[2])
    assert match.status == Match.Status.ACTIVE  # ALL-4: a bot plays the seat on
    assert seat.handed_to_bot and seat.resigned and seat.bot_level in ("normal", "random")
    log = match.moves.get(number=match.version).log
    assert log[0]["msg"] == "{name} is out of the tournament: a bot plays the seat to the end; they are ranked last."
    actions.do_leave(tournament.pk, players[3])  # a second one leaves: their seat too
    assert match.seats.get(user=players[3]).handed_to_bot
    with pytest.raises(actions.ActionError):
        actions.do_leave(tournament.pk, players[2])  # out already


def test_a_ban_loses_the_running_tournament_matches_at_once_a_suspension_does_not(alice, players, make_user):
    moderator = make_user("mod", is_staff=True)
    tournament = started(alice, players[:4])
    (banned_match,) = matches_of(tournament, players[0])
    suspended_match = (
        Match.objects.filter(tournament_table__round__tournament=tournament).exclude(pk=banned_match.pk).get()
    )
    suspended = suspended_match.seats.first().user
    suspend_user(moderator, suspended, 3, "bots", "a break")
    suspended_match.refresh_from_db()
    assert suspended_match.status == Match.Status.ACTIVE  # a suspension: the moderator's choice (a bot)
    suspend_user(moderator, players[0], None, "abort", "cheating")
    banned_match.refresh_from_db()
    assert banned_match.status == Match.Status.FINISHED  # not aborted: lost, the opponent wins
    assert banned_match.result["winners"] == [1 - banned_match.seats.get(user=players[0]).number]


@pytest.mark.parametrize(("game", "winning_side"), [("dizzy-duo-battle", [0]), ("lizzy-ghosties", [0, 2])])
def test_a_player_out_takes_last_place_whatever_their_bot_did(alice, players, game, winning_side):
    """The bot that played the seat on won the table: its player, out of the tournament, still takes
    last place's points, and the page, the stored places, the titles, the record and the rating agree."""
    from ratings.models import PlayerRecord, RatingChange
    from tournaments.reads import titles_of

    tournament = started(
        alice, players[:4], game=game, format=Tournament.Format.TABLES, table_size=4, rounds=1, min_entrants=3
    )
    (match,) = matches_of(tournament, players[0])
    out = match.seats.get(number=0).user
    actions.do_leave(tournament.pk, out)
    games.do_adjudicate(match.pk, winning_side, "test: the seat played by the bot wins")
    assert actions.do_advance_if_round_over(tournament.pk) == "finished"

    rows = compute_standings(tournament, read_tables(tournament, rounds_with_tables(tournament)))
    by_user = {tournament.entries.get(pk=row.player).user_id: row for row in rows}
    assert by_user[out.pk].score == 0 and by_user[out.pk].rank == max(row.rank for row in rows)
    match.refresh_from_db()
    as_the_game_ended = table_points(game, match, 4)
    assert as_the_game_ended[0] == 1  # the bot won the seat's game...
    for seat in match.seats.exclude(number=0):  # ...and the others keep what the game gave them
        assert by_user[seat.user_id].score == as_the_game_ended[seat.number]
    entry = tournament.entries.get(user=out)
    assert entry.place == max(e.place for e in tournament.entries.all()) and entry.place > 1
    assert titles_of(out) == []
    assert PlayerRecord.objects.get(user=out, game=game).won == 0
    assert RatingChange.objects.get(match=match, seat=0).outcome == "lost"
    page = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert out.public_name in page


def test_a_banned_entrant_hears_no_tournament_over_but_keeps_a_place(alice, players, make_user):
    """Ruling TRN-8: a ban puts the player out of the tournament, as a withdrawal does, and an account
    that cannot sign in is sent nothing; the others hear of the end, and the banned player's place is
    still stored (the profile shows it, should the ban be lifted)."""
    from notifications.models import Kind, Notification

    moderator = make_user("mod", is_staff=True)
    tournament = started(alice, players[:4], rounds=1)
    suspend_user(moderator, players[0], None, "abort", "cheating")  # a ban: no end date
    for match in Match.objects.filter(tournament_table__round__tournament=tournament, status=Match.Status.ACTIVE):
        games.do_adjudicate(match.pk, [0], "test: the first seat wins")
    assert actions.do_advance_if_round_over(tournament.pk) == "finished"
    over = Notification.objects.filter(tournament=tournament, kind=Kind.TOURNAMENT_OVER)
    assert set(over.values_list("recipient__username", flat=True)) == {"alice", "player1", "player2", "player3"}
    banned = tournament.entries.get(user=players[0])
    assert banned.place is not None and banned.place > 1
