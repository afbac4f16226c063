"""The hidden-information audit (ALL-2, ALL-3): random matches of every game, every surface,
every viewer.

For each viewer (every seat, a spectator, an anonymous visitor) the audit builds the engine's
hidden twin of the current state: a state that differs only in what the rules hide from that
viewer (other hands, pile orders, hidden placements, the random seed). Every surface rendered
for the viewer (the full page, the HTMX fragment, the emails) must be byte for byte the same
for both states: if anything hidden could be read from a page, in text, attributes, comments or
scripts, the two renderings would differ. It also checks that the seed never appears and that
log entries meant for others never reach a viewer, and that everything is public after the end.
Every setup runs in English, and each game's plain setup in Dutch too (players, the
spectator and the visitor all reading Dutch), since the words of a log entry differ by language.
"""

from __future__ import annotations

import html
import json
import random
import re

import pytest
import time_machine
from django.core import mail as django_mail
from django.core.cache import cache
from django.test import Client
from django.utils import translation

from accounts.actions import build_archive
from games import actions
from games.actions import SeatSpec
from games.engines.registry import available_engines
from games.i18n import entry_text, entry_text_for
from games.models import Match, fill_names
from notifications.emails import build_email
from notifications.models import Kind, Notification
from notifications.tasks import email_context
from push.payloads import push_payload
from tests.api_surfaces import api_surfaces
from tests.live_surfaces import live_surfaces

pytestmark = [pytest.mark.audit, pytest.mark.slow, pytest.mark.django_db]

CHECKPOINTS_PER_MATCH = 10  # states rendered per match, spread over the whole game
# Short matches so the audit reaches the end of every game.
SHORT = {"dizzy-duo-battle": {"lives": 2}}
CSRF = re.compile(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+')


def setups():
    for slug, engine in sorted(available_engines().items()):
        counts = sorted({engine.min_players, engine.max_players})
        for players in counts:
            yield slug, players, dict(SHORT.get(slug, {}))
        for option in engine.options:
            if option.kind == "bool":
                yield slug, engine.min_players, {**SHORT.get(slug, {}), option.name: not option.default}
            elif option.kind == "choice":
                for value, _ in option.choices:
                    if value != option.default:
                        yield slug, engine.min_players, {**SHORT.get(slug, {}), option.name: value}


def audit_runs():
    """Every setup in English; each game at its fewest players and default options in Dutch."""
    for slug, players, options in setups():
        yield slug, players, options, "en"
    for slug, engine in sorted(available_engines().items()):
        yield slug, engine.min_players, dict(SHORT.get(slug, {})), "nl"


def log_text(entry: dict, names: dict[str, str]) -> str:
    """An entry's words as the active language reads them, names filled in."""
    return fill_names(entry_text(entry), names)


def normalised(html: str) -> str:
    return CSRF.sub(r"\1…", html)


class Audit:
    def __init__(self, match: Match, users: list, language: str = "en") -> None:
        self.match = match
        self.engine = actions.engine_of(match)
        self.users = users
        self.clients: dict[int | str, Client] = {}
        for seat, user in enumerate(users):
            c = Client()
            c.force_login(user)
            self.clients[seat] = c
        self.clients["anonymous"] = Client(HTTP_ACCEPT_LANGUAGE=language)
        self.views_checked = 0

    def surfaces(self, viewer) -> list[str]:
        c = self.clients[viewer]
        url = f"/matches/{self.match.pk}/"
        return [
            normalised(c.get(url).content.decode()),
            normalised(c.get(url, HTTP_HX_REQUEST="true").content.decode()),
            normalised(c.get(url + "history/").content.decode()),
            # Profiles, the leaderboard and the replay (404 while running) tell nothing hidden.
            normalised(c.get(f"/players/{self.users[0].username}/").content.decode()),
            normalised(c.get(f"/players/{self.users[-1].username}/").content.decode()),
            normalised(c.get(f"/leaderboards/{self.match.game}/").content.decode()),
            normalised(c.get(url + "replay/").content.decode()),
            *api_surfaces(c, self.match.pk),  # every API response and the calendar feed
            *self.inbox(c),
            *live_surfaces(c, self.match.pk),  # what the live streams send at once
            *self.data_copy(viewer),
        ]

    def data_copy(self, viewer) -> list[str]:
        """A seated player's copy of their own data (the archive a download holds)."""
        if not isinstance(viewer, int):
            return []
        archive = build_archive(self.users[viewer])
        del archive["api_tokens"]  # the audit's own, one more after each rendering of the API
        return [json.dumps(archive, sort_keys=True, default=str)]

    def inbox(self, c: Client) -> list[str]:
        """The inbox page and its bell. Opening the inbox marks its rows read, so each rendering
        starts from the same unread state (the twin's rendering would otherwise show none new)."""
        Notification.objects.filter(match=self.match).update(read_at=None)
        page = normalised(c.get("/inbox/").content.decode())
        Notification.objects.filter(match=self.match).update(read_at=None)
        return [page, normalised(c.get("/inbox/bell/").content.decode())]

    def emails(self, seat: int) -> list[str]:
        user = self.users[seat]
        row = Notification(match=self.match, recipient=user, kind=Kind.YOUR_TURN, turn=self.match.version)
        message = build_email(user, Kind.YOUR_TURN, email_context(row))
        # The push payload of every kind, as the worker would send it now.
        pushes = [
            json.dumps(push_payload(Notification(match=self.match, recipient=user, kind=kind, turn=row.turn)))
            for kind in Kind
        ]
        return [message.subject, message.body, message.alternatives[0][0], *pushes]

    def rendered(self, viewer) -> tuple[list[str], list[str]]:
        """The viewer's pages, then its emails (in the language its last page left active)."""
        pages = self.surfaces(viewer)
        return pages, self.emails(viewer) if isinstance(viewer, int) else []

    def check_state(self, rng: random.Random, spectator: Client) -> None:
        match = Match.objects.get(pk=self.match.pk)
        real = match.state
        seed = real["rng"]["seed"]
        names = match.seat_names()
        moves = list(match.moves.all())
        viewers = [*range(len(self.users)), "spectator", "anonymous"]
        self.clients["spectator"] = spectator
        # Every viewer's real pages first, one after the other on one cache: a board drawn for one
        # viewer and served to another (games.board_cache) would differ from that viewer's twin,
        # whose pages start from an empty cache, as the real pass does.
        cache.clear()
        seen = {viewer: self.rendered(viewer) for viewer in viewers}
        for viewer in viewers:
            seat = viewer if isinstance(viewer, int) else None
            pages, mail = seen[viewer]
            twin = self.engine.hidden_twin(real, seat, rng)
            Match.objects.filter(pk=match.pk).update(state=twin)
            cache.clear()
            try:
                twin_pages, twin_mail = self.rendered(viewer)
            finally:
                Match.objects.filter(pk=match.pk).update(state=real)
            label = f"{match.game} #{match.pk} v{match.version} viewer {viewer}"
            for number, (page, twin_page) in enumerate(zip(pages + mail, twin_pages + twin_mail)):
                assert page == twin_page, f"{label}: surface {number} changes with what the viewer may not know"
                assert seed not in page and twin["rng"]["seed"] not in twin_page, f"{label}: the seed leaks"
            if match.status != Match.Status.FINISHED:
                visible = {fill_names(t, names) for m in moves for t in m.texts_for(seat, everything=False)}
                for move in moves:
                    for entry in move.log:
                        # Both forms: as its seat reads it ("You drew ...") and as others read it after
                        # the end ("p1 drew ...", games.i18n.entry_text_for).
                        for text in {log_text(entry, names), fill_names(entry_text_for(entry, None), names)}:
                            if text not in visible:
                                for page in pages + mail:
                                    assert text not in page, f"{label}: a log entry for others leaks: {text!r}"
            self.views_checked += len(pages) + len(mail)


@pytest.mark.parametrize("slug, players, options, language", list(audit_runs()), ids=lambda v: str(v))
def test_no_surface_shows_a_viewer_what_the_rules_hide(slug, players, options, language, make_user):
    engine = available_engines()[slug]
    users = [make_user(f"p{i}", language=language) for i in range(players)]
    watcher = make_user("watcher", language=language)
    rng = random.Random(f"{slug}:{players}:{sorted(options.items())}")
    with time_machine.travel("2026-11-20 12:00Z", tick=False), translation.override(language):
        seats = [SeatSpec("me")] + [SeatSpec("invite", u.username) for u in users[1:]]
        match = actions.create_match(users[0], slug, seats, options=options)
        for user in users[1:]:
            actions.do_join(match.pk, user)
        match.refresh_from_db()
        limit = engine.max_moves(players, match.options)
        spectator = Client()
        spectator.force_login(watcher)
        audit = Audit(match, users, language)
        states: list[int] = []
        moves_played = 0
        # Play the whole match with random legal moves; render at checkpoints spread over it.
        estimate = max(1, min(limit, 60 * players) // CHECKPOINTS_PER_MATCH)
        while True:
            match.refresh_from_db()
            if moves_played % estimate == 0 or match.status != Match.Status.ACTIVE:
                audit.check_state(rng, spectator)
                states.append(match.version)
            if match.status != Match.Status.ACTIVE:
                break
            seat = engine.to_act(match.state)[0]
            move = rng.choice(engine.legal_moves(match.state, seat))
            actions.do_move(match.pk, users[seat], match.version, move)
            moves_played += 1
            assert moves_played <= limit
        # ALL-3: after the end everything is public, the whole history included.
        match.refresh_from_db()
        page = html.unescape(spectator.get(f"/matches/{match.pk}/history/").content.decode())
        names = match.seat_names()
        for move in match.moves.all():
            for entry in move.log:  # a private entry names its seat to the spectator
                assert fill_names(entry_text_for(entry, None), names) in page
        assert f'<html lang="{language}">' in page
    print(f"\naudit {slug} {players}p {options} {language}: {len(states)} states, {audit.views_checked} views checked")
    assert audit.views_checked > 0


@pytest.mark.parametrize("leak", ["hand in the view", "seed in a comment", "board cached for every viewer"])
def test_the_audit_catches_a_planted_leak(leak, make_user, monkeypatch):
    """The audit can fail: plant a leak and it must be found."""
    # Time stands still: the board carries the server's clock (data-now), so only the leak can differ.
    with time_machine.travel("2026-11-20 12:00Z", tick=False):
        engine = available_engines()["dizzy-duo-battle"]
        users = [make_user("p0"), make_user("p1")]
        match = actions.create_match(users[0], "dizzy-duo-battle", [SeatSpec("me"), SeatSpec("invite", "p1")])
        actions.do_join(match.pk, users[1])
        match.refresh_from_db()
        if leak == "hand in the view":
            original = engine.view
            monkeypatch.setattr(
                engine, "view", lambda state, seat, **kwargs: {**original(state, seat, **kwargs), "all": state["hands"]}
            )
            # ... and a board section that draws it: the presenter's round line.
            monkeypatch.setattr("games.engines.dizzy_duo_battle.board._about", lambda view: str(view["all"]))
        elif leak == "board cached for every viewer":
            # One drawing of the board per match, whoever asks: the first viewer's hand reaches the rest.
            monkeypatch.setattr("games.board_cache.board_key", lambda pv, select: f"board:{pv.match.id}")
        else:
            from games import presenters

            original_view = presenters.player_view

            def leaky(match, user, params=None, **kwargs):
                info = original_view(match, user, params, **kwargs)
                info.history.append((0, [f"<!-- {match.state['rng']['seed']} -->"]))
                return info

            monkeypatch.setattr("games.views.player_view", leaky)
        spectator = Client()
        spectator.force_login(make_user("watcher"))
        with pytest.raises(AssertionError, match="changes with what the viewer may not know|the seed leaks"):
            Audit(match, users).check_state(random.Random(1), spectator)


def test_the_audit_catches_a_hand_in_a_push(make_user, monkeypatch):
    """Push payloads are audited surfaces. One that told the hands (read as the worker would,
    from the database) is caught, and by a push surface: with time frozen, every page stays the same."""
    users = [make_user("p0"), make_user("p1")]
    with time_machine.travel("2026-11-20 12:00Z", tick=False):
        match = actions.create_match(users[0], "dizzy-duo-battle", [SeatSpec("me"), SeatSpec("invite", "p1")])
        actions.do_join(match.pk, users[1])
        match.refresh_from_db()

        real_payload = push_payload

        def leaky_push(row):
            return {**real_payload(row), "body": str(Match.objects.get(pk=row.match_id).state["hands"])}

        monkeypatch.setitem(globals(), "push_payload", leaky_push)  # the name Audit.emails calls
        spectator = Client()
        spectator.force_login(make_user("watcher"))
        audit = Audit(match, users)
        with pytest.raises(AssertionError, match="changes with what the viewer may not know") as caught:
            audit.check_state(random.Random(1), spectator)
        pages = len(audit.surfaces(0))
    surface = int(re.search(r"surface (\d+) changes", str(caught.value)).group(1))
    assert surface >= pages + 3  # after the pages and the email's subject, text and HTML: a push


@pytest.mark.parametrize("slug", sorted(available_engines()))
def test_private_notes_reach_their_writer_alone(slug, make_user):
    """A player's notes are on their own board page only, during the match and after it:
    never in another viewer's page, fragment, history, API view, feed, inbox, email or push, nor in
    the record or the replay that the end makes public."""
    engine = available_engines()[slug]
    users = [make_user(f"p{i}") for i in range(engine.min_players)]
    watcher = make_user("watcher")
    seats = [SeatSpec("me")] + [SeatSpec("invite", u.username) for u in users[1:]]
    match = actions.create_match(users[0], slug, seats, options={})
    for user in users[1:]:
        actions.do_join(match.pk, user)
    match.refresh_from_db()
    audit = Audit(match, users)
    spectator = Client()
    spectator.force_login(watcher)
    audit.clients["spectator"] = spectator
    marks = {seat: f"note-of-seat-{seat}-{slug}-x7q" for seat in range(len(users))}
    for seat, mark in marks.items():  # one through the plain form, the others as the board's script sends
        headers = {} if seat == 0 else {"HTTP_ACCEPT": "application/json"}
        response = audit.clients[seat].post(f"/matches/{match.pk}/notes/", {"text": f"my plan: {mark}"}, **headers)
        assert response.status_code == (302 if seat == 0 else 200)
    assert spectator.post(f"/matches/{match.pk}/notes/", {"text": "not a player"}).status_code == 403

    def check(when: str, extra: list[str]) -> None:
        for viewer in [*range(len(users)), "spectator", "anonymous"]:
            seat = viewer if isinstance(viewer, int) else None
            surfaces = audit.surfaces(viewer)
            # The writer's own notes are on their board page and in the copy of their own data (the last surface).
            own = {0, len(surfaces) - 1} if seat is not None else set()
            pages = surfaces + (audit.emails(seat) if seat is not None else [])
            for number, page in enumerate(pages + extra):
                for writer, mark in marks.items():
                    if number in own and writer == seat:
                        assert mark in page, f"{when}: seat {writer} does not see their own notes"
                    else:
                        assert mark not in page, f"{when}: seat {writer}'s notes reach {viewer} (surface {number})"

    check("in play", [])
    actions.do_player_abort(match.pk, users[-1])  # the end makes the whole match public (ALL-3), not the notes
    record = spectator.get(f"/matches/{match.pk}/record.json").content.decode()
    replay = spectator.get(f"/matches/{match.pk}/replay/").content.decode()
    mail = [f"{m.subject} {m.body} {m.alternatives[0][0] if m.alternatives else ''}" for m in django_mail.outbox]
    check("after the end", [record, replay, *mail])
    assert audit.clients[0].get(f"/matches/{match.pk}/").content.decode().count(marks[0]) == 1  # kept after the end


# --- the audit's API surfaces can fail: a leak planted in the API's view alone is found ---


@pytest.mark.parametrize("leak", ["hands in the API view", "seed in the calendar"])
def test_the_audit_catches_a_leak_planted_in_the_api(leak, make_user, monkeypatch):
    users = [make_user("p0"), make_user("p1")]
    match = actions.create_match(users[0], "dizzy-duo-battle", [SeatSpec("me"), SeatSpec("invite", "p1")])
    actions.do_join(match.pk, users[1])
    match.refresh_from_db()
    if leak == "hands in the API view":
        from api import present

        original = present.view_for
        monkeypatch.setattr(
            "api.api.view_for", lambda match, user: {**original(match, user), "waiting_for": str(match.state["hands"])}
        )
    else:
        from api import calendar

        original_build = calendar.build
        monkeypatch.setattr(
            "api.views.ical.build",
            lambda user: original_build(user) + f"X-LEAK:{_state_of(user)}".encode(),
        )
    spectator = Client()
    spectator.force_login(make_user("watcher"))
    with pytest.raises(AssertionError, match="changes with what the viewer may not know|the seed leaks"):
        Audit(match, users).check_state(random.Random(1), spectator)


def _state_of(user) -> str:
    from games.models import Match

    match = Match.objects.filter(seats__user=user).first()
    return str(match.state["rng"]["seed"]) if match else ""


def test_the_audit_reads_the_new_api_surfaces_of_a_finished_match(make_user, monkeypatch):
    """A player's exported matches are read too; the seed planted in them is caught."""
    users = [make_user("p0"), make_user("p1")]
    match = actions.create_match(users[0], "solitaire-chess", [SeatSpec("me"), SeatSpec("invite", "p1")])
    actions.do_join(match.pk, users[1])
    actions.do_adjudicate(match.pk, [0], "a test")
    match.refresh_from_db()
    from api import export

    original = export.facts
    monkeypatch.setattr("api.export.facts", lambda m: {**original(m), "leak": m.seed})
    spectator = Client()
    spectator.force_login(make_user("watcher"))
    with pytest.raises(AssertionError, match="the seed leaks"):
        Audit(match, users).check_state(random.Random(1), spectator)
