"""The API's access matrix: every endpoint with no token, a forged one, a revoked one, and the tokens
of an outsider, the player to move, the other player and staff. A refused request changes nothing;
nothing answers 500."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from api.models import ApiToken
from games.models import Match, Move
from tests.helpers import first_legal, start_match, user_to_act

pytestmark = pytest.mark.django_db

WHO = ["none", "forged", "revoked", "outsider", "seated", "other_seat", "staff"]


@pytest.fixture
def world(alice, bob, carol, make_user, settings):
    settings.DIZZY_API_LONGPOLL_SECONDS = 0
    match = start_match(alice, [bob])
    mover = user_to_act(match).user
    revoked_token, revoked = ApiToken.issue(mover, "old")
    revoked_token.revoke()
    users = {
        "outsider": carol,
        "seated": mover,
        "other_seat": bob if mover == alice else alice,
        "staff": make_user("mod", is_staff=True, is_superuser=True),
    }
    raw = {who: ApiToken.issue(user, "test")[1] for who, user in users.items()}
    raw.update({"none": "", "forged": "dzy_" + "x" * 43, "revoked": revoked})
    move = first_legal(match, match.seats.get(user=mover).number)
    return {"match": match, "raw": raw, "move": move}


def call(raw: str, method: str, url: str, body=None):
    client = Client(HTTP_AUTHORIZATION=f"Bearer {raw}") if raw else Client()
    if method == "get":
        return client.get(url)
    return client.post(url, json.dumps(body or {}), content_type="application/json")


def cases(m: int, move: dict):
    refused = {"none": 401, "forged": 401, "revoked": 401}
    play = {"version": 0, "move": move}
    return [
        ("get", "/api/v1/me", {**refused, "*": 200}),
        ("get", "/api/v1/games", {**refused, "*": 200}),
        ("get", "/api/v1/matches?filter=my_turn", {**refused, "*": 200}),
        ("get", f"/api/v1/matches/{m}", {**refused, "*": 200}),
        ("get", "/api/v1/matches/999999", {**refused, "*": 404}),
        ("get", f"/api/v1/matches/{m}/view", {**refused, "*": 200}),
        ("get", f"/api/v1/matches/{m}/events?since=0", {**refused, "*": 200}),
        ("post", f"/api/v1/matches/{m}/join", {**refused, "*": 409}),
        ("post", f"/api/v1/matches/{m}/leave", {**refused, "outsider": 403, "staff": 403, "*": 409}),
        ("post", "/api/v1/matches", {**refused, "*": 400}),  # an empty body: game and seats missing
        ("post", f"/api/v1/matches/{m}/moves", {**refused, "outsider": 403, "other_seat": 403, "staff": 403}),
        ("post", f"/api/v1/matches/{m}/moves", {**refused, "seated": 200}, play),
        ("get", "/api/v1/openapi.json", {"*": 200}),
        ("get", "/api/v1/docs", {"*": 200}),
    ]


def test_every_api_endpoint_for_every_token(world):
    match = world["match"]
    for method, url, expected, *body in cases(match.pk, world["move"]):
        payload = body[0] if body else {"version": 0, "move": world["move"]}
        for who in WHO:
            want = expected.get(who, expected.get("*"))
            if want is None:
                continue  # the seated player's move is played once, at the end
            response = call(world["raw"][who], method, url, payload)
            assert response.status_code == want, f"{method.upper()} {url} as {who}: {response.status_code} != {want}"
            assert response["Content-Type"].startswith(("application/json", "text/html")), url
    match.refresh_from_db()
    assert match.version == 1 and Move.objects.count() == 1  # only the seated player's move went through
    assert Match.objects.count() == 1


def test_a_view_shows_legal_moves_to_their_owner_only(world):
    match = world["match"]
    for who in ["outsider", "other_seat", "staff"]:
        body = call(world["raw"][who], "get", f"/api/v1/matches/{match.pk}/view").json()
        assert body["legal"] == [] and not body["my_turn"], who
    assert call(world["raw"]["seated"], "get", f"/api/v1/matches/{match.pk}/view").json()["legal"]


def test_a_bot_account_plays_through_the_api_only(world, make_user, client_for):
    from tests.helpers import post_move

    robot = make_user("robot", is_bot=True)
    alice = make_user("alice2")
    match = start_match(alice, [robot])
    from games import actions

    while (seat := user_to_act(match)).user != robot:  # alice plays until it is the robot's turn
        actions.do_move(match.pk, alice, match.version, first_legal(match, seat.number))
    number = match.seats.get(user=robot).number
    move = first_legal(match, number)
    assert post_move(client_for(robot), match, move).status_code == 403  # the board refuses a bot account
    assert Move.objects.filter(match=match, seat=number).count() == 0
    raw = ApiToken.issue(robot, "bot")[1]
    played = call(raw, "post", f"/api/v1/matches/{match.pk}/moves", {"version": match.version, "move": move})
    assert played.status_code == 200 and Move.objects.filter(match=match, seat=number).count() == 1


def test_staff_see_tokens_and_mark_bot_accounts_in_the_admin(world, client_for, make_user):
    staff = make_user("mod2", is_staff=True, is_superuser=True)
    c = client_for(staff)
    assert c.get("/admin/api/apitoken/").status_code == 200
    token = ApiToken.objects.filter(revoked__isnull=True).first()
    page = c.get(f"/admin/api/apitoken/{token.pk}/change/").content.decode()
    assert token.key_hash in page and "is_bot" in c.get(f"/admin/accounts/user/{staff.pk}/change/").content.decode()
    c.post("/admin/api/apitoken/", {"action": "revoke", "_selected_action": [token.pk]})
    token.refresh_from_db()
    assert token.revoked is not None
