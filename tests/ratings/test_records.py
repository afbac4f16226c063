"""Signed match records (defect 3) and the replay of every ended match (defect 8).

A record carries digests of its moves, its end and its players, and a signature over the whole,
made with the server's key; `manage.py replay` names what does not match."""

from __future__ import annotations

import copy
import json

import pytest
from django.core.management import CommandError, call_command

from games import actions
from games.actions import SeatSpec
from games.engines.registry import get_engine
from games.models import Match
from moderation import actions as moderation
from ratings.replay import positions
from tests.helpers import start_match

pytestmark = [pytest.mark.slow, pytest.mark.django_db]


def finished_against_a_bot(user, capture, slug: str = "solitaire-chess") -> Match:
    """`user` against a random bot, both playing legal moves through the real actions to the end."""
    engine = get_engine(slug)
    with capture(execute=True):
        match = actions.create_match(user, slug, [SeatSpec("me"), SeatSpec("bot", "random")], options={})
    for _ in range(engine.max_moves(2, match.options)):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        if 0 in engine.to_act(match.state):
            with capture(execute=True):
                actions.do_move(match.pk, user, match.version, engine.legal_moves(match.state, 0)[0])
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def finished_between(alice, bob, capture) -> Match:
    """alice against bob, both people, to the end (random-ish legal moves, first in the list)."""
    match = start_match(alice, [bob])
    engine = get_engine(match.game)
    users = {seat.number: seat.user for seat in match.seats.select_related("user")}
    for _ in range(engine.max_moves(2, match.options)):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        seat = engine.to_act(match.state)[0]
        with capture(execute=True):
            actions.do_move(match.pk, users[seat], match.version, engine.legal_moves(match.state, seat)[0])
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def replay_file(tmp_path, record: dict) -> str:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    return str(path)


def replay_output(tmp_path, record: dict, capsys) -> str:
    call_command("replay", replay_file(tmp_path, record))
    return capsys.readouterr().out


def refused(tmp_path, record: dict) -> str:
    with pytest.raises(CommandError) as error:
        call_command("replay", replay_file(tmp_path, record))
    return str(error.value)


def test_a_signed_record_replays_and_names_its_players(
    alice, bob, client, tmp_path, capsys, django_capture_on_commit_callbacks
):
    match = finished_between(alice, bob, django_capture_on_commit_callbacks)
    record = json.loads(client.get(f"/matches/{match.pk}/record.json").content)
    assert record["signature"] and set(record["digests"]) == {"moves", "result", "players"}
    out = replay_output(tmp_path, record, capsys)
    assert "the result matches" in out
    assert "alice" in out and "bob" in out and "{p" not in out


def test_a_record_cut_to_half_its_moves_and_called_adjudicated_is_refused(
    alice, client, tmp_path, django_capture_on_commit_callbacks
):
    match = finished_against_a_bot(alice, django_capture_on_commit_callbacks)
    record = json.loads(client.get(f"/matches/{match.pk}/record.json").content)
    assert not record["adjudicated"]
    record["moves"] = record["moves"][: len(record["moves"]) // 2]
    record["adjudicated"] = True
    message = refused(tmp_path, record)
    assert "mismatch in moves, result, signature" in message, message


def test_swapped_usernames_are_refused(alice, bob, client, tmp_path, django_capture_on_commit_callbacks):
    match = finished_between(alice, bob, django_capture_on_commit_callbacks)
    record = json.loads(client.get(f"/matches/{match.pk}/record.json").content)
    first, second = record["seats"][0], record["seats"][1]
    first["username"], second["username"] = second["username"], first["username"]
    first["name"], second["name"] = second["name"], first["name"]
    message = refused(tmp_path, record)
    assert "mismatch in players, signature" in message, message


def swap_one_move(record: dict) -> dict | None:
    """The record with one move replaced by another legal move after which the rest still replays
    and the game ends with the same result; None when no such move is found."""
    engine = get_engine(record["game"])
    players, options, seed = len(record["seats"]), record["options"], int(record["seed"])
    steps = [(m["kind"], m["seat"], m["payload"]) for m in record["moves"]]
    states = list(positions(engine, players, options, seed, steps))
    for index in reversed(range(len(steps))):
        kind, seat, payload = steps[index]
        if kind != "move":
            continue
        for other in engine.legal_moves(states[index], seat):
            if other == payload:
                continue
            changed = [*steps[:index], (kind, seat, other), *steps[index + 1 :]]
            try:
                final = list(positions(engine, players, options, seed, changed))[-1]
            except Exception:  # the later moves are no longer legal
                continue
            result = engine.result(final)
            if result is not None and result.as_dict() == record["result"]:
                forged = copy.deepcopy(record)
                forged["moves"][index]["payload"] = other
                return forged
    return None


def test_a_swapped_legal_move_that_ends_the_same_way_is_refused(
    alice, client, tmp_path, django_capture_on_commit_callbacks
):
    match = finished_against_a_bot(alice, django_capture_on_commit_callbacks)
    record = json.loads(client.get(f"/matches/{match.pk}/record.json").content)
    forged = swap_one_move(record)
    assert forged is not None, "no legal move could be swapped without changing the result"
    message = refused(tmp_path, forged)
    assert "mismatch in moves, signature" in message, message


def test_an_unsigned_record_is_refused(alice, client, tmp_path, django_capture_on_commit_callbacks):
    match = finished_against_a_bot(alice, django_capture_on_commit_callbacks)
    record = json.loads(client.get(f"/matches/{match.pk}/record.json").content)
    del record["signature"]
    assert "mismatch in signature" in refused(tmp_path, record)


def test_adjudication_in_the_record_is_what_the_moderation_log_says(alice, bob, make_user, client, tmp_path, capsys):
    moderator = make_user("mod", is_staff=True)
    logged = start_match(alice, [bob])
    moderation.adjudicate(moderator, logged.pk, [1], "bob was winning")
    record = json.loads(client.get(f"/matches/{logged.pk}/record.json").content)
    assert record["adjudicated"] and record["ended_by"] == "adjudicated" and record["result"]["winners"] == [1]
    assert "adjudicated" in replay_output(tmp_path, record, capsys)

    unlogged = start_match(alice, [bob])
    actions.do_adjudicate(unlogged.pk, [0], "no moderator")  # not through the moderators' action: no log
    record = json.loads(client.get(f"/matches/{unlogged.pk}/record.json").content)
    assert not record["adjudicated"] and record["ended_by"] == "other"


def test_an_aborted_match_has_a_replay_and_a_record(alice, bob, make_user, client, client_for, tmp_path, capsys):
    """ALL-3: everything is public after any end, an abort included (defect 8)."""
    moderator = make_user("mod", is_staff=True)
    match = start_match(alice, [bob])
    mover = match.seats.get(to_act=True)
    engine = get_engine(match.game)
    actions.do_move(match.pk, mover.user, 0, engine.legal_moves(match.state, mover.number)[0])
    moderation.abort(moderator, match.pk, "a test")
    replay = client.get(f"/matches/{match.pk}/replay/?at=1")
    assert replay.status_code == 200
    assert "Position after move 1 of 1" in replay.content.decode()
    record = json.loads(client.get(f"/matches/{match.pk}/record.json").content)
    assert record["status"] == "aborted" and record["ended_by"] == "aborted" and len(record["moves"]) == 1
    assert "aborted" in replay_output(tmp_path, record, capsys)
    # The ended board links to them; no rematch for a match that ended without a result.
    board = client.get(f"/matches/{match.pk}/").content.decode()
    assert f"/matches/{match.pk}/replay/" in board and f"/matches/{match.pk}/record.json" in board
    assert f"/matches/{match.pk}/rematch/" not in client_for(alice).get(f"/matches/{match.pk}/").content.decode()


def test_a_match_aborted_before_it_started_has_no_replay(alice, bob, make_user, client):
    moderator = make_user("mod", is_staff=True)
    match = actions.create_match(alice, "solitaire-chess", [SeatSpec("me"), SeatSpec("invite", "bob")], options={})
    moderation.abort(moderator, match.pk, "never started")
    for url in (f"/matches/{match.pk}/replay/", f"/matches/{match.pk}/record.json"):
        assert client.get(url).status_code == 404


def test_a_record_signed_before_a_key_rotation_still_replays(alice, client, tmp_path, settings, capsys):
    """SECRET_KEY_FALLBACKS: the old key still verifies records signed with it."""
    match = start_match(alice, ["random"])
    actions.do_abort(match.pk, alice, "")
    record = json.loads(client.get(f"/matches/{match.pk}/record.json").content)
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "a-new-key-" + "x" * 50
    assert "aborted" in replay_output(tmp_path, record, capsys)
    settings.SECRET_KEY_FALLBACKS = []
    assert "mismatch in moves, result, players, signature" in refused(tmp_path, record)
