"""Tournament actions with real matches: create, join, leave, start or cancel at the start time,
a round paired when the last one ends (matches ended by the games' own actions), standings."""

from __future__ import annotations

from datetime import timedelta
from fractions import Fraction

import pytest
from django.utils import timezone

from games import actions as games
from games.models import Match
from tests.helpers import time_out
from tournaments import actions
from tournaments.actions import TournamentSettings
from tournaments.models import Entry, Tournament
from tournaments.standings import compute_standings, read_tables, rounds_with_tables
from tournaments.tasks import sweep_tournaments

pytestmark = pytest.mark.django_db

GAME = "solitaire-chess"


def settings_for(**changes) -> TournamentSettings:
    chosen = {
        "name": "Monday Swiss",
        "game": GAME,
        "format": Tournament.Format.SWISS,
        "starts_at": timezone.now() + timedelta(days=1),
        "rounds": 3,
        "min_entrants": 3,
    }
    return TournamentSettings(**{**chosen, **changes})


def make_due(tournament: Tournament) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - timedelta(seconds=1))


@pytest.fixture
def players(make_user):
    return [make_user(f"player{n}") for n in range(5)]


def current_matches(tournament: Tournament) -> list[Match]:
    tournament.refresh_from_db()
    return list(
        Match.objects.filter(
            tournament_table__round__tournament=tournament, tournament_table__round__number=tournament.current_round
        ).order_by("tournament_table__number")
    )


def first_seat_wins_all(tournament: Tournament) -> None:
    for match in current_matches(tournament):
        games.do_adjudicate(match.pk, [0], "test: the first seat wins")


def test_create_checks_the_settings(alice):
    with pytest.raises(actions.ActionError):
        actions.do_create(alice, settings_for(starts_at=timezone.now() - timedelta(hours=1)))
    with pytest.raises(actions.ActionError):
        actions.do_create(alice, settings_for(game="lizzy-ghosties"))  # not a two-player game
    with pytest.raises(actions.ActionError):
        actions.do_create(alice, settings_for(game="no-such-game"))
    with pytest.raises(actions.ActionError):
        actions.do_create(alice, settings_for(min_entrants=10, max_entrants=4))
    assert not Tournament.objects.exists()
    tournament = actions.do_create(alice, settings_for())
    assert tournament.status == Tournament.Status.OPEN and tournament.organiser == alice


def test_join_and_leave_before_the_start(alice, bob, make_user):
    tournament = actions.do_create(alice, settings_for(max_entrants=2, min_entrants=2))
    actions.do_join(tournament.pk, alice)
    with pytest.raises(actions.ActionError):
        actions.do_join(tournament.pk, alice)  # twice
    actions.do_join(tournament.pk, bob)
    with pytest.raises(actions.ActionError):
        actions.do_join(tournament.pk, make_user("dave"))  # full
    actions.do_leave(tournament.pk, bob)
    assert list(tournament.entries.values_list("user__username", flat=True)) == ["alice"]
    with pytest.raises(actions.ActionError):
        actions.do_leave(tournament.pk, bob)


def test_join_refuses_unverified_invite_only_and_out_of_bounds(alice, bob, make_user):
    with pytest.raises(actions.NotAllowed):
        actions.do_join(actions.do_create(alice, settings_for()).pk, make_user("unverified", verified=False))
    invite_only = actions.do_create(alice, settings_for(invite_only=True))
    with pytest.raises(actions.NotAllowed):
        actions.do_join(invite_only.pk, bob)
    strong_only = actions.do_create(alice, settings_for(rating_min=1600))
    with pytest.raises(actions.ActionError):
        actions.do_join(strong_only.pk, bob)  # a new player is rated 1500
    assert not Entry.objects.exists()


def test_too_few_entrants_cancel_it_at_the_start_time(alice, bob):
    tournament = actions.do_create(alice, settings_for(min_entrants=3))
    actions.do_join(tournament.pk, alice)
    actions.do_join(tournament.pk, bob)
    assert actions.do_start_if_due(tournament.pk) == ""  # not yet its time
    make_due(tournament)
    assert sweep_tournaments() == 1  # the beat sweep queues the start (eager in the tests)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED and tournament.end_reason
    assert not Match.objects.exists()
    assert actions.do_start_if_due(tournament.pk) == ""  # again: nothing


def test_a_swiss_of_five_from_start_to_standings(alice, players):
    tournament = actions.do_create(alice, settings_for(rounds=3))
    for player in players:
        actions.do_join(tournament.pk, player)
    make_due(tournament)
    assert actions.do_start_if_due(tournament.pk) == "started"
    assert actions.do_start_if_due(tournament.pk) == ""  # a second worker: nothing more
    matches = current_matches(tournament)
    assert len(matches) == 2 and all(m.status == Match.Status.ACTIVE for m in matches)
    assert all(m.time_preset == "daily" and m.seats.filter(accepted=True).count() == 2 for m in matches)
    assert actions.do_advance_if_round_over(tournament.pk) == ""  # the round is still being played
    byes = []
    met = set()
    for number in (1, 2, 3):
        tournament.refresh_from_db()
        assert tournament.current_round == number
        round_ = tournament.round_set.get(number=number)
        byes += [t.seats.get().entry_id for t in round_.tables.all() if t.is_bye]
        for match in current_matches(tournament):
            pair = frozenset(match.seats.values_list("user_id", flat=True))
            assert pair not in met
            met.add(pair)
        first_seat_wins_all(tournament)
        sweep_tournaments()  # the worker notices the round's end and pairs the next (or finishes)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED and tournament.current_round == 3
    assert len(byes) == 3 and len(set(byes)) == 3  # one bye a round, never twice to anyone
    tables = read_tables(tournament, rounds_with_tables(tournament))
    rows = compute_standings(tournament, tables)
    assert sum(row.score for row in rows) == 2 * 3 + 3  # two games and a bye a round
    places = dict(tournament.entries.values_list("pk", "place"))
    assert [places[row.player] for row in rows] == [row.rank for row in rows]
    assert rows[0].rank == 1 and rows[0].score >= 2
    assert sweep_tournaments() == 0


def test_a_round_ends_by_a_timeout_too(alice, players):
    tournament = actions.do_create(alice, settings_for(rounds=2, min_entrants=2))
    for player in players[:2]:
        actions.do_join(tournament.pk, player)
    make_due(tournament)
    actions.do_start_if_due(tournament.pk)
    (match,) = current_matches(tournament)
    with pytest.raises(games.ActionError):  # a pairing is never aborted: it would void the other's game
        games.do_player_abort(match.pk, match.seats.get(to_act=True).user)
    time_out(match)  # the first player never moved: a loss on time, not the abort of a casual match
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert actions.do_advance_if_round_over(tournament.pk) == "paired"
    assert actions.do_advance_if_round_over(tournament.pk) == ""


def test_a_round_robin_all_at_once_with_a_bot(alice, players):
    chosen = settings_for(format=Tournament.Format.ROUND_ROBIN, all_at_once=True, bots_allowed=True)
    tournament = actions.do_create(alice, chosen)
    for player in players[:3]:
        actions.do_join(tournament.pk, player)
    actions.do_add_bot(tournament.pk, alice, "random")
    with pytest.raises(actions.NotAllowed):
        actions.do_add_bot(tournament.pk, players[0], "random")
    make_due(tournament)
    actions.do_start_if_due(tournament.pk)
    tournament.refresh_from_db()
    assert tournament.current_round == 3 and tournament.round_set.count() == 3
    all_matches = Match.objects.filter(tournament_table__round__tournament=tournament)
    assert all_matches.count() == 6
    for match in all_matches.exclude(status=Match.Status.FINISHED):
        games.do_adjudicate(match.pk, [], "test: a draw")
    assert actions.do_advance_if_round_over(tournament.pk) == "finished"
    rows = compute_standings(tournament, read_tables(tournament, rounds_with_tables(tournament)))
    assert sum(row.score for row in rows) == 6


def test_leaving_after_the_start_withdraws_from_further_rounds(alice, players):
    tournament = actions.do_create(alice, settings_for(rounds=2, min_entrants=2))
    for player in players[:4]:
        actions.do_join(tournament.pk, player)
    make_due(tournament)
    actions.do_start_if_due(tournament.pk)
    actions.do_leave(tournament.pk, players[0])
    first_seat_wins_all(tournament)
    assert actions.do_advance_if_round_over(tournament.pk) == "paired"
    seated = {s.user_id for m in current_matches(tournament) for s in m.seats.all()}
    assert players[0].pk not in seated and len(seated) == 2


def test_a_knockout_of_five_seeds_byes_and_finishes_with_the_winner_first(alice, players):
    tournament = actions.do_create(alice, settings_for(format=Tournament.Format.KNOCKOUT, min_entrants=2))
    for player in players:
        actions.do_join(tournament.pk, player)
    make_due(tournament)
    actions.do_start_if_due(tournament.pk)
    first_round = tournament.round_set.get(number=1)
    assert sum(t.is_bye for t in first_round.tables.all()) == 3  # eight places, five players
    for _ in range(3):
        first_seat_wins_all(tournament)
        actions.do_advance_if_round_over(tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED and tournament.current_round == 3
    assert list(tournament.entries.filter(place=1).values_list("seed", flat=True)) == [1]
    assert tournament.entries.filter(place=2).count() == 1


def test_ghosties_tables_give_points_by_place(alice, players):
    chosen = settings_for(game="lizzy-ghosties", format=Tournament.Format.TABLES, table_size=5, rounds=1)
    tournament = actions.do_create(alice, chosen)
    for player in players:
        actions.do_join(tournament.pk, player)
    make_due(tournament)
    actions.do_start_if_due(tournament.pk)
    (match,) = current_matches(tournament)
    assert match.seats.count() == 5
    games.do_adjudicate(match.pk, [0, 3], "test: a side of two wins")
    assert actions.do_advance_if_round_over(tournament.pk) == "finished"
    rows = compute_standings(tournament, read_tables(tournament, rounds_with_tables(tournament)))
    assert sorted(row.score for row in rows) == [0, 0, 0, 1, 1]  # TRN-3
    assert isinstance(rows[0].score, Fraction)


@pytest.mark.slow
def test_a_swiss_with_bots_plays_their_matches_by_itself(alice, players, django_capture_on_commit_callbacks):
    """Random bots move through the games' own tasks (eager here): a bots' match ends by itself."""
    tournament = actions.do_create(alice, settings_for(rounds=2, bots_allowed=True, min_entrants=2))
    actions.do_join(tournament.pk, players[0])
    for _ in range(3):
        actions.do_add_bot(tournament.pk, alice, "random")
    make_due(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        actions.do_start_if_due(tournament.pk)
    for _ in range(2):
        matches = current_matches(tournament)
        bots_only = [m for m in matches if not m.seats.filter(user__isnull=False).exists()]
        assert len(bots_only) == 1 and bots_only[0].status == Match.Status.FINISHED
        for match in matches:
            if match.status == Match.Status.ACTIVE:
                games.do_abort(match.pk, alice, "test: does not count (TRN-6)")
        with django_capture_on_commit_callbacks(execute=True):
            assert actions.do_advance_if_round_over(tournament.pk) in ("paired", "finished")
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    rows = compute_standings(tournament, read_tables(tournament, rounds_with_tables(tournament)))
    assert sum(row.score for row in rows) == 2  # the two bots' matches; the aborted ones count for nothing


def test_a_suspended_player_is_not_paired_while_suspended(alice, players):
    tournament = actions.do_create(alice, settings_for(rounds=2, min_entrants=2))
    for player in players[:4]:
        actions.do_join(tournament.pk, player)
    make_due(tournament)
    actions.do_start_if_due(tournament.pk)
    first_seat_wins_all(tournament)
    type(players[1]).objects.filter(pk=players[1].pk).update(is_active=False)  # what a ban or suspension sets
    assert actions.do_advance_if_round_over(tournament.pk) == "paired"
    seated = {s.user_id for m in current_matches(tournament) for s in m.seats.all()}
    assert players[1].pk not in seated and len(seated) == 2
    byes = tournament.round_set.get(number=2).tables.filter(match=None)
    assert byes.count() == 1 and byes.get().seats.get().entry.user_id != players[1].pk


def test_a_moderator_pairs_the_round_again_after_a_disqualification(alice, players, make_user, client_for):
    staff = make_user("mod", is_staff=True, is_superuser=True)
    tournament = actions.do_create(alice, settings_for(rounds=2, min_entrants=2))
    for player in players[:4]:
        actions.do_join(tournament.pk, player)
    make_due(tournament)
    actions.do_start_if_due(tournament.pk)
    old = current_matches(tournament)
    cheat = tournament.entries.get(user=players[0])
    data = {"action": "disqualify", "_selected_action": [cheat.pk], "apply": "1", "reason": "engine use"}
    client_for(staff).post("/admin/tournaments/entry/", data)
    cheat.refresh_from_db()
    assert cheat.disqualified and cheat.reason == "engine use"
    with pytest.raises(actions.ActionError):
        actions.do_repair_round(tournament.pk, staff, " ")  # a reason is needed
    data = {"action": "repair_round", "_selected_action": [tournament.pk], "apply": "1", "reason": "disqualified"}
    client_for(staff).post("/admin/tournaments/tournament/", data)
    assert {m.status for m in Match.objects.filter(pk__in=[m.pk for m in old])} == {Match.Status.ABORTED}
    new = current_matches(tournament)
    assert len(new) == 1 and players[0].pk not in new[0].seats.values_list("user_id", flat=True)
    assert tournament.round_set.get(number=1).tables.filter(match=None).count() == 1  # three left: a bye
    games.do_adjudicate(new[0].pk, [0], "test")
    with pytest.raises(actions.ActionError):
        actions.do_repair_round(tournament.pk, staff, "again")  # a match of the round has finished


def test_every_player_hears_their_tournament_match_start_the_organiser_too(alice, bob, make_user):
    """A paired match starts by nobody's request: whoever is to move gets 'your turn', the other
    'started', the organiser (its created_by) as well as anyone else."""
    from notifications.models import Kind, Notification

    tournament = actions.do_create(alice, settings_for(rounds=1, min_entrants=2))
    for player in (alice, bob):
        actions.do_join(tournament.pk, player)
    make_due(tournament)
    assert actions.do_start_if_due(tournament.pk) == "started"
    (match,) = current_matches(tournament)
    to_move = match.seats.get(to_act=True).user
    waiting = bob if to_move == alice else alice
    kinds = dict(Notification.objects.filter(match=match).values_list("recipient", "kind"))
    assert kinds == {to_move.pk: Kind.YOUR_TURN, waiting.pk: Kind.STARTED}
