"""What the black-box run found in the API, each with the board's side where it has one:
wrongly typed options, moves with extra fields, the order of a move's errors, and statuses the
schema now documents (joining twice 409, leaving without a seat 403)."""

from __future__ import annotations

import pytest

from games.models import Match, Move
from tests.api_helpers import client_of, post_json
from tests.helpers import first_legal, post_move, start_match, user_to_act

pytestmark = pytest.mark.django_db


def _ddb(options: dict) -> dict:
    return {"game": "dizzy-duo-battle", "others": [{"kind": "bot", "level": "random"}], "options": options}


@pytest.mark.parametrize(
    "options",
    [
        {"lifeline": "maybe"},  # the case: was stored as true
        {"lifeline": "true"},  # a string for a yes-or-no option
        {"lifeline": 1},
        {"lives": "3"},  # a string for a number
        {"lives": True},  # JSON true is no number
        {"lives": 2.5},
    ],
)
def test_a_wrongly_typed_option_is_a_400_and_makes_nothing(alice, options):
    response = post_json(client_of(alice), "/api/v1/matches", _ddb(options))
    assert response.status_code == 400, response.content
    assert list(options)[0] in response.json()["detail"]
    assert not Match.objects.exists()


def test_a_rightly_typed_option_is_stored(alice):
    response = post_json(client_of(alice), "/api/v1/matches", _ddb({"lifeline": False, "lives": 3.0}))
    assert response.status_code == 201, response.content  # 3.0 is a JSON Schema integer
    assert Match.objects.get().options["lifeline"] is False and Match.objects.get().options["lives"] == 3


def test_the_new_match_form_refuses_maybe_for_a_yes_or_no_option(alice, client_for):
    c = client_for(alice)
    data = {"game": "dizzy-duo-battle", "players": 2, "seat_1": "bot:random", "time_preset": "daily"}
    data.update({"option_lives": 3, "option_points_target": 0})
    refused = c.post("/matches/new/?game=dizzy-duo-battle", {**data, "option_lifeline": "maybe"})
    assert refused.status_code == 400 and not Match.objects.exists()
    ticked = c.post("/matches/new/?game=dizzy-duo-battle", {**data, "option_lifeline": "on"})
    assert ticked.status_code == 302 and Match.objects.get().options["lifeline"] is True
    Match.objects.all().delete()
    unticked = c.post("/matches/new/?game=dizzy-duo-battle", data)
    assert unticked.status_code == 302 and Match.objects.get().options["lifeline"] is False


@pytest.fixture
def running(alice, bob):
    match = start_match(alice, [bob])
    mover = user_to_act(match).user
    other = bob if mover == alice else alice
    return match, mover, other


def test_a_move_with_an_extra_field_is_a_400_and_is_not_stored(running):
    match, mover, _ = running
    move = {**first_legal(match, match.seats.get(user=mover).number), "extra": 1}
    response = post_json(client_of(mover), f"/api/v1/matches/{match.pk}/moves", {"version": 0, "move": move})
    assert response.status_code == 400 and "extra" in response.json()["detail"]
    match.refresh_from_db()
    assert match.version == 0 and not Move.objects.exists() and "extra" not in str(match.state)


def test_the_board_refuses_a_move_with_an_extra_field_too(running, client_for):
    match, mover, _ = running
    move = {**first_legal(match, match.seats.get(user=mover).number), "extra": 1}
    assert post_move(client_for(mover), match, move).status_code == 400
    assert not Move.objects.exists()


def test_a_move_of_an_unknown_type_or_without_a_type_is_a_400(running):
    match, mover, _ = running
    c = client_of(mover)
    for move in [{"type": "fly"}, {"from": "a1"}]:
        response = post_json(c, f"/api/v1/matches/{match.pk}/moves", {"version": 0, "move": move})
        assert response.status_code == 400, move
    assert not Move.objects.exists()


def test_a_malformed_move_out_of_turn_is_a_400_as_on_the_board(running, client_for):
    match, mover, other = running
    move = {**first_legal(match, match.seats.get(user=mover).number), "extra": 1}
    api = post_json(client_of(other), f"/api/v1/matches/{match.pk}/moves", {"version": 0, "move": move})
    board = post_move(client_for(other), match, move)
    assert api.status_code == 400 and board.status_code == 400
    assert "turn" not in api.json()["detail"]


def test_the_api_checks_a_move_in_the_boards_order(running, client_for, carol):
    """Malformed 400, then no seat 403, then a changed board 409, then out of turn 403 (400 on the
    board), then illegal 400."""
    match, mover, other = running
    legal = first_legal(match, match.seats.get(user=mover).number)
    url = f"/api/v1/matches/{match.pk}/moves"
    assert post_json(client_of(carol), url, {"version": 0, "move": {**legal, "x": 1}}).status_code == 400
    assert post_json(client_of(carol), url, {"version": 0, "move": legal}).status_code == 403
    assert post_json(client_of(other), url, {"version": 5, "move": legal}).status_code == 409
    assert post_json(client_of(other), url, {"version": 0, "move": legal}).status_code == 403
    assert post_move(client_for(other), match, legal).status_code == 400
    assert post_json(client_of(mover), url, {"version": 5, "move": legal}).status_code == 409
    illegal = {**legal, "to": "z9"} if "to" in legal else {**legal, "first": "maybe"}
    assert post_json(client_of(mover), url, {"version": 0, "move": illegal}).status_code == 400
    assert not Move.objects.exists()


def test_joining_a_match_one_is_in_is_409_and_leaving_one_without_a_seat_403(alice, bob, carol):
    created = post_json(client_of(alice), "/api/v1/matches", {"game": "solitaire-chess", "others": [{"kind": "open"}]})
    match_id = created.json()["match"]["id"]
    assert post_json(client_of(alice), f"/api/v1/matches/{match_id}/join", {}).status_code == 409
    assert post_json(client_of(carol), f"/api/v1/matches/{match_id}/leave", {}).status_code == 403
    running = start_match(alice, [bob])
    assert post_json(client_of(bob), f"/api/v1/matches/{running.pk}/join", {}).status_code == 409


def test_the_schema_says_what_the_server_refuses(client):
    schema = client.get("/api/v1/openapi.json").json()
    parts = schema["components"]["schemas"]
    slugs = {"solitaire-chess", "doubting-flower-field", "dizzy-duo-battle", "lizzy-ghosties"}
    body = schema["paths"]["/api/v1/matches"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert set(body["discriminator"]["mapping"]) == slugs  # one body per game: its options, its seats
    lifeline = parts["DizzyDuoBattleOptions"]["properties"]["lifeline"]
    assert lifeline["type"] == "boolean" and parts["DizzyDuoBattleOptions"]["additionalProperties"] is False
    assert parts["MoveBody"]["required"] == ["type"]
    join = schema["paths"]["/api/v1/matches/{match_id}/join"]["post"]
    leave = schema["paths"]["/api/v1/matches/{match_id}/leave"]["post"]
    assert "409" in join["responses"] and "409" in join["summary"]
    assert "403" in leave["responses"] and "403" in leave["summary"]
    withdraw = schema["paths"]["/api/v1/tournaments/{tournament_id}/leave"]["post"]
    assert "lost" in withdraw["summary"] and "TRN-8" in withdraw["description"]  # not "running matches go on"


@pytest.mark.slow
def test_every_engine_move_fits_its_declared_fields():
    """The engines' own legal moves pass the new check, over random games of every game."""
    import random

    from games.engines.registry import available_engines

    for slug, engine in available_engines().items():
        assert engine.move_fields, slug
        for game in range(6):
            rng = random.Random(game)
            players = rng.randint(engine.min_players, engine.max_players)
            state = engine.new_state(players, engine.parse_options({}, players), game)
            for _turn in range(400):
                if engine.result(state) is not None:
                    break
                seat = rng.choice(engine.to_act(state))
                legal = engine.legal_moves(state, seat)
                for move in legal:
                    engine.check_move_fields(move)
                state, _ = engine.apply(state, seat, rng.choice(legal))


def test_the_games_list_names_each_move_types_fields(alice):
    games = {g["slug"]: g for g in client_of(alice).get("/api/v1/games").json()}
    assert games["solitaire-chess"]["moves"]["move"] == ["from", "to", "type"]
    assert games["dizzy-duo-battle"]["moves"]["attack"] == ["card", "type"]
