"""The API's access matrix: every endpoint with no token, a forged one, a revoked one, and the tokens
of an outsider, the player to move, the other player and staff. A refused request changes nothing;
nothing answers 500."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from api.api import api
from api.models import ApiToken
from games.models import Match, Move
from moderation.models import ChatMessage
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
    if method == "delete":
        return client.delete(url)
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
        # seeks, challenges, chat, the record, the export, the token itself
        ("get", "/api/v1/token", {**refused, "*": 200}),
        ("get", "/api/v1/seeks?game=solitaire-chess&clock=daily", {**refused, "*": 200}),
        ("get", "/api/v1/challenges", {**refused, "*": 200}),
        ("get", "/api/v1/challenges/999999", {**refused, "*": 404}),
        ("post", "/api/v1/challenges", {**refused, "*": 400}, {}),  # an empty body
        ("post", "/api/v1/challenges/999999/accept", {**refused, "*": 404}, {}),
        ("post", "/api/v1/challenges/999999/decline", {**refused, "*": 404}, {}),
        ("post", "/api/v1/challenges/999999/cancel", {**refused, "*": 404}, {}),
        ("post", f"/api/v1/matches/{m}/chat", {**refused, "outsider": 403, "staff": 403, "*": 201}, {"text": "hi"}),
        ("get", f"/api/v1/matches/{m}/record", {**refused, "*": 403}),  # public once finished (ALL-3)
        ("get", "/api/v1/users/alice/matches", {**refused, "*": 200}),
        ("post", f"/api/v1/matches/{m}/moves", {**refused, "outsider": 403, "other_seat": 403, "staff": 403}),
        ("post", f"/api/v1/matches/{m}/moves", {**refused, "seated": 200}, play),
        # tournaments (joining an unknown one is a 404 for every live token)
        ("get", "/api/v1/tournaments?game=solitaire-chess&status=open", {**refused, "*": 200}),
        ("get", "/api/v1/tournaments/999999", {**refused, "*": 404}),
        ("post", "/api/v1/tournaments/999999/join", {**refused, "*": 404}, {}),
        ("post", "/api/v1/tournaments/999999/leave", {**refused, "*": 404}, {}),
        ("get", "/api/v1/openapi.json", {"*": 200}),
        ("get", "/api/v1/docs", {"*": 200}),
    ]


@pytest.mark.slow
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
            assert response["Content-Type"].startswith(("application/json", "text/html", "application/x-ndjson")), url
    match.refresh_from_db()
    assert match.version == 1 and Move.objects.count() == 1  # only the seated player's move went through
    assert Match.objects.count() == 1
    assert ChatMessage.objects.count() == 2  # the two players' messages, nobody else's


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


# --- token scopes ---------------------------------------------------------------------


def _operations(match_id: int):
    """Every operation of the schema, with its path filled in: what a scope check must cover."""
    schema = Client().get("/api/v1/openapi.json").json()
    for path, methods in schema["paths"].items():
        url = path.replace("{match_id}", str(match_id)).replace("{challenge_id}", "999999")
        url = url.replace("{username}", "alice").replace("{tournament_id}", "999999")
        for method in methods:
            yield method, url


def test_every_endpoint_checks_a_scope(world):
    """A live token with no scope is refused everywhere but on itself (GET and DELETE /token): new
    endpoints (resign, abort) are covered as they come, a GET needing "read" and any other "play"
    unless they name another scope."""
    match = world["match"]
    mover = match.seats.get(user__isnull=False, to_act=True).user
    bare = ApiToken.issue(mover, "bare", [])[1]
    seen = 0
    for method, url in _operations(match.pk):
        if url.endswith("/token"):
            continue
        response = call(bare, method, url, {})
        assert response.status_code == 403 and "scope" in response.json()["detail"], f"{method} {url}"
        seen += 1
    assert seen >= 20 and len(api.urls[0]) >= seen // 2
    match.refresh_from_db()
    assert match.version == 0


@pytest.mark.parametrize(
    "scopes, can_read, can_move, can_create",
    [
        (["read"], True, False, False),
        (["play"], False, True, False),
        (["challenge"], False, False, True),
        (["read", "play", "challenge"], True, True, True),
    ],
)
def test_each_scope_opens_its_endpoints_only(world, scopes, can_read, can_move, can_create):
    match = world["match"]
    mover = match.seats.get(user__isnull=False, to_act=True).user
    raw = ApiToken.issue(mover, "scoped", scopes)[1]
    read = call(raw, "get", f"/api/v1/matches/{match.pk}/view")
    create = call(raw, "post", "/api/v1/matches", {"game": "solitaire-chess", "others": [{"kind": "open"}]})
    move = call(raw, "post", f"/api/v1/matches/{match.pk}/moves", {"version": 0, "move": world["move"]})
    assert (read.status_code == 200) is can_read and (read.status_code == 403) is not can_read
    assert (create.status_code == 201) is can_create and (create.status_code == 403) is not can_create
    assert (move.status_code == 200) is can_move and (move.status_code == 403) is not can_move


def test_a_bot_accounts_token_plays_with_the_bot_scope_and_never_has_play(make_user):
    robot = make_user("robot", is_bot=True)
    person = make_user("person")
    assert ApiToken.issue(robot, "t")[0].scopes == ["read", "bot", "challenge"]
    assert ApiToken.issue(robot, "t", ["play", "read"])[0].scopes == ["read"]
    assert ApiToken.issue(person, "t", ["bot", "read"])[0].scopes == ["read"]
    match = start_match(person, [robot])
    from games import actions

    while (seat := user_to_act(match)).user != robot:  # the person plays until it is the robot's turn
        actions.do_move(match.pk, person, match.version, first_legal(match, seat.number))
    number = match.seats.get(user=robot).number
    body = {"version": match.version, "move": first_legal(match, number)}
    no_bot = ApiToken.issue(robot, "read only", ["read", "challenge"])[1]
    assert call(no_bot, "post", f"/api/v1/matches/{match.pk}/moves", body).status_code == 403
    assert call(ApiToken.issue(robot, "bot")[1], "post", f"/api/v1/matches/{match.pk}/moves", body).status_code == 200


def test_a_token_shows_and_revokes_itself(alice):
    token, raw = ApiToken.issue(alice, "mine", ["read"])
    shown = call(raw, "get", "/api/v1/token")
    assert shown.status_code == 200 and shown.json()["scopes"] == ["read"] and shown.json()["name"] == "mine"
    other = ApiToken.issue(alice, "other")[1]
    assert call(raw, "delete", "/api/v1/token").status_code == 204
    assert call(raw, "get", "/api/v1/me").status_code == 401
    assert call(other, "get", "/api/v1/me").status_code == 200  # only the token used is revoked
    token.refresh_from_db()
    assert token.revoked is not None


def test_the_token_page_offers_the_scopes_and_shows_them(alice, make_user, client_for):
    c = client_for(alice)
    page = c.get("/settings/api/").content.decode()
    assert 'value="read"' in page and 'value="play"' in page and 'value="bot"' not in page
    made = c.post("/settings/api/", {"name": "reader", "scopes": ["read"]})
    assert made.status_code == 200 and ApiToken.objects.get(name="reader").scopes == ["read"]
    assert "<code>read</code>" in c.get("/settings/api/").content.decode()
    assert c.post("/settings/api/", {"name": "none"}).status_code == 400  # a token needs a scope
    assert c.post("/settings/api/", {"name": "bad", "scopes": ["bot"]}).status_code == 400  # not for a person
    robot = make_user("robot2", is_bot=True)
    assert 'value="bot"' in client_for(robot).get("/settings/api/").content.decode()


def test_the_migration_gives_old_tokens_what_they_could_do(make_user):
    from importlib import import_module

    from django.apps import apps

    migration = import_module("api.migrations.0002_scopes_and_challenges")
    robot, person = make_user("robot3", is_bot=True), make_user("person3")
    for user in (robot, person):
        ApiToken.issue(user, "old", [])
    migration.existing_tokens_keep_what_they_could_do(apps, None)
    assert ApiToken.objects.get(user=robot).scopes == ["read", "bot", "challenge"]
    assert ApiToken.objects.get(user=person).scopes == ["read", "play", "challenge"]


def test_becoming_a_bot_account_turns_its_tokens_play_into_bot(make_user, client_for):
    robot = make_user("fresh")
    token = ApiToken.issue(robot, "before", ["read", "play"])[0]
    client_for(robot).post("/settings/api/bot/")
    token.refresh_from_db()
    assert token.scopes == ["read", "bot"]
