"""English and Dutch.

Every catalogue (the site's locale/nl/LC_MESSAGES/django.po and djangojs.po, and each game package's
games/engines/<game>/locale/nl/LC_MESSAGES/django.po) has a Dutch text for every message, none fuzzy,
and compiles; each committed .mo is that compilation; every msgid of the Jinja2 templates (which
makemessages cannot read) and of the board presenters is in a catalogue. Visitors get the language their
browser asks for, members their own setting; the switch on every page is a plain form and sticks to
the account; emails speak the recipient's language, not the sender's.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client
from django.utils import translation

from tests.conftest import require
from tests.dutch_words import ENGLISH_WORDS, catalogue
from tests.helpers import start_match, user_to_act

BASE = Path(settings.BASE_DIR)
LOCALE = BASE / "locale" / "nl" / "LC_MESSAGES"
MO = LOCALE / "django.mo"
# The site's templates' and Python's words, the scripts' (static/js), and each game package's own.
CATALOGUES = [
    str(po.relative_to(BASE))
    for folder in settings.LOCALE_PATHS
    for po in sorted(Path(folder).glob("nl/LC_MESSAGES/*.po"))
]
GAME_PACKAGES_WITH_WORDS = sorted(path.parent.name for path in (BASE / "games" / "engines").glob("*/locale"))


def gettext_tool(name: str) -> str:
    path = shutil.which(name)
    require(path is not None, f"GNU gettext's {name} is not installed (apt-get install gettext)")
    return path


def visible_words(html: str) -> set[str]:
    """The words a reader sees: no tags, scripts, styles or SVG, no attribute values."""
    text = re.sub(r"<(script|style|svg|title)\b.*?</\1>", " ", html, flags=re.S | re.I)
    text = re.sub(r"<[^>]+>", " ", text)
    return {word.lower() for word in re.findall(r"[A-Za-z']+", text)}


# --- the catalogue -------------------------------------------------------------------------------------


def test_the_site_and_every_game_have_their_catalogues():
    from games.engines.registry import GAME_PACKAGES

    assert {"locale/nl/LC_MESSAGES/django.po", "locale/nl/LC_MESSAGES/djangojs.po"} <= set(CATALOGUES)
    assert GAME_PACKAGES_WITH_WORDS == sorted(package.rsplit(".", 1)[1] for package in GAME_PACKAGES)
    assert [str(path) for path in settings.LOCALE_PATHS][0] == str(BASE / "locale")  # the site's words win


@pytest.mark.parametrize("name", CATALOGUES)
def test_every_message_has_a_dutch_translation_none_fuzzy(name):
    msgattrib = gettext_tool("msgattrib")
    po = BASE / name
    for flag in ("--untranslated", "--only-fuzzy"):
        out = subprocess.run([msgattrib, flag, "--no-wrap", str(po)], capture_output=True, text=True, check=True)
        entries = [m for m in re.findall(r'^msgid (".*")$', out.stdout, flags=re.M) if m != '""']
        assert entries == [], f"{flag}: {entries[:10]}"
    assert "#, fuzzy" not in po.read_text()


@pytest.mark.parametrize("name", CATALOGUES)
def test_the_catalogue_compiles_and_the_committed_mo_is_its_compilation(name, tmp_path):
    msgfmt = gettext_tool("msgfmt")
    po, fresh = BASE / name, tmp_path / "fresh.mo"
    mo = po.with_suffix(".mo")
    result = subprocess.run([msgfmt, "--check", "-o", str(fresh), str(po)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert mo.exists(), f"{mo.relative_to(BASE)} is committed (run manage.py messages)"
    assert catalogue(mo) == catalogue(fresh), f"{mo.relative_to(BASE)} is out of date: run manage.py messages"


def test_every_jinja2_msgid_is_in_the_catalogue():
    from games.management.commands.messages import jinja_messages

    known = catalogue(MO)
    missing = []
    for template, line, message in jinja_messages():
        key = (message[0], 0) if isinstance(message, tuple) else message
        if key not in known:
            missing.append(f"{template}:{line}: {message!r}")
    assert missing == [], "run manage.py messages and translate:\n" + "\n".join(missing)


@pytest.mark.parametrize("package", GAME_PACKAGES_WITH_WORDS)
def test_every_presenter_word_of_a_game_is_in_its_catalogue(package):
    source = (BASE / "games" / "engines" / package / "board.py").read_text()
    known = catalogue(BASE / "games" / "engines" / package / "locale" / "nl" / "LC_MESSAGES" / "django.mo")
    found = re.findall(r'\b_\(\s*"((?:[^"\\]|\\.)*)"', source)
    assert len(found) > 20
    assert [m for m in found if m not in known] == []


# --- pages ---------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_visitor_gets_the_language_the_browser_asks_for(client):
    dutch = client.get("/games/", HTTP_ACCEPT_LANGUAGE="nl-NL,nl;q=0.9,en;q=0.5")
    page = dutch.content.decode()
    assert '<html lang="nl">' in page and "Spellen" in page and "Spelregels" in page and "Inloggen" in page
    assert dutch["Content-Language"] == "nl"
    english = Client().get("/games/", HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.8").content.decode()
    assert '<html lang="en">' in english and "How to play" in english
    assert '<html lang="en">' in Client().get("/games/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()  # default


@pytest.mark.django_db
def test_a_members_own_setting_wins_over_the_browser(alice, client_for):
    alice.language = "en"
    alice.save()
    page = client_for(alice).get("/settings/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert '<html lang="en">' in page and "Settings" in page
    alice.language = "nl"
    alice.save()
    page = client_for(alice).get("/settings/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="nl">' in page and "Instellingen" in page and "Weergavenaam" in page


@pytest.mark.django_db
def test_the_board_page_and_its_fragment_in_dutch(alice, bob, client_for):
    match = start_match(alice, [bob])
    mover = user_to_act(match).user
    mover.language = "nl"
    mover.save()
    page = client_for(mover).get(f"/matches/{match.pk}/").content.decode()
    assert '<html lang="nl">' in page and "Jij bent aan de beurt." in page and "Spelregels van" in page
    assert 'data-units="dag|dagen|uur|uur"' in page
    assert 'src="/jsi18n/"' in page
    fragment = client_for(mover).get(f"/matches/{match.pk}/?since=0", HTTP_HX_REQUEST="true").content.decode()
    assert "Jij bent aan de beurt." in fragment
    leftover = visible_words(page) & ENGLISH_WORDS
    assert leftover == set(), f"English words on the Dutch board: {sorted(leftover)}"


@pytest.mark.django_db
def test_the_language_switch_works_without_javascript_and_sticks_to_the_account(alice):
    # A visitor: the cookie carries the choice.
    visitor = Client()
    page = visitor.get("/games/").content.decode()
    assert 'action="/language/"' in page and 'name="language" value="nl"' in page
    response = visitor.post("/language/", {"language": "nl", "next": "/games/"})
    assert response.status_code == 302 and response["Location"] == "/games/"
    assert '<html lang="nl">' in visitor.get("/games/").content.decode()
    # A member: kept on the account, so another browser (no cookie) gets it too.
    member = Client()
    member.force_login(alice)
    member.post("/language/", {"language": "nl", "next": "/settings/"})
    alice.refresh_from_db()
    assert alice.language == "nl"
    elsewhere = Client()
    elsewhere.force_login(alice)
    page = elsewhere.get("/settings/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="nl">' in page and 'name="language" value="en"' in page
    member.post("/language/", {"language": "en", "next": "/"})
    alice.refresh_from_db()
    assert alice.language == "en"
    # Not a language of the site: nothing changes.
    member.post("/language/", {"language": "xx", "next": "/"})
    alice.refresh_from_db()
    assert alice.language == "en"


@pytest.mark.django_db
def test_the_settings_form_sets_the_language(alice, client_for):
    c = client_for(alice)
    form = {"display_name": "", "language": "nl", "time_zone": "UTC"}
    assert c.post("/settings/", form).status_code == 302
    alice.refresh_from_db()
    assert alice.language == "nl"
    page = c.get("/settings/").content.decode()
    assert '<html lang="nl">' in page and "Your settings are saved." in page  # said before the change
    c.post("/settings/", form)
    assert "Je instellingen zijn opgeslagen." in c.get("/settings/").content.decode()


@pytest.mark.django_db
def test_error_messages_of_actions_follow_the_language(alice, bob):
    from games import actions

    match = start_match(alice, [bob])
    waiting = match.seats.exclude(to_act=True).get().user
    with translation.override("nl"), pytest.raises(actions.ActionError) as error:
        actions.do_move(match.pk, waiting, match.version, {"type": "order", "first": True})
    assert str(error.value) == "Je bent niet aan de beurt."


# --- emails --------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_each_email_is_in_its_recipients_language_not_the_senders(alice, bob, django_capture_on_commit_callbacks):
    from games import actions

    bob.language = "nl"
    bob.save()
    alice.language = "en"
    alice.save()
    # alice (English) invites bob (Dutch): bob's email is Dutch.
    with translation.override("en"), django_capture_on_commit_callbacks(execute=True):
        match = actions.create_match(
            alice, "solitaire-chess", [actions.SeatSpec("me"), actions.SeatSpec("invite", "bob")]
        )
    invitation = mail.outbox[-1]
    assert invitation.to == [bob.email]
    assert invitation.subject == "[Dizzysite] alice nodigt je uit voor Solitaire Chess"
    assert "Hallo bob," in invitation.body and "Open de partij om aan te nemen of af te slaan" in invitation.body
    assert "Hallo bob," in invitation.alternatives[0][0] and "e-mailvoorkeuren" in invitation.alternatives[0][0]
    mail.outbox.clear()
    # bob (browsing in Dutch) invites alice (English): alice's email is English.
    with translation.override("nl"), django_capture_on_commit_callbacks(execute=True):
        actions.create_match(bob, "solitaire-chess", [actions.SeatSpec("me"), actions.SeatSpec("invite", "alice")])
    invitation = mail.outbox[-1]
    assert invitation.to == [alice.email]
    assert invitation.subject == "[Dizzysite] bob invites you to Solitaire Chess"
    assert "Hello alice," in invitation.body and "Open the match to accept or decline" in invitation.body
    assert match.pk


@pytest.mark.django_db
def test_a_dutch_your_turn_email_reads_the_move_in_dutch(alice, bob, django_capture_on_commit_callbacks):
    from games import actions
    from games.engines.registry import get_engine

    match = start_match(alice, [bob])
    for user in (alice, bob):
        user.language = "nl"
        user.save()
    mail.outbox.clear()
    seat = user_to_act(match)
    engine = get_engine(match.game)
    match.refresh_from_db()
    with translation.override("en"), django_capture_on_commit_callbacks(execute=True):
        while True:
            actions.do_move(match.pk, seat.user, match.version, engine.legal_moves(match.state, seat.number)[0])
            match.refresh_from_db()
            if not match.seats.get(number=seat.number).to_act:
                break
    message = mail.outbox[-1]
    assert message.subject.startswith("[Dizzysite] Jouw beurt in Solitaire Chess")
    assert "Laatste zet:" in message.body
    assert "chose to go" not in message.body and "placed a piece" not in message.body


@pytest.mark.django_db
def test_the_scripts_words_come_from_the_javascript_catalogue(client):
    script = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Klaar: je krijgt meldingen op dit apparaat." in script and "Meldingen worden aangezet" in script
    assert "Meldingen worden aangezet" not in Client().get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="en").content.decode()


@pytest.mark.django_db
def test_the_new_match_form_in_dutch_with_the_engines_options(alice, client_for):
    alice.language = "nl"
    alice.save()
    page = client_for(alice).get("/matches/new/?game=solitaire-chess").content.decode()
    assert "Nieuwe partij Solitaire Chess" in page and "Spelvorm" in page and "Doodsduel" in page
    assert "Speler met het voordeel" in page and "Door het lot bepaald" in page and "Bedenktijd" in page
    assert "Rule set" not in page and "Advantage player" not in page


@pytest.mark.django_db
def test_allauths_pages_follow_the_language(client):
    page = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert '<html lang="nl">' in page and "Wachtwoord" in page
    page = Client().get("/accounts/signup/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="en">' in page and "Password" in page


@pytest.mark.django_db
def test_an_illegal_solitaire_chess_move_is_refused_in_the_players_language(alice, bob):
    from games import actions

    match = start_match(alice, [bob])
    mover = user_to_act(match).user
    with translation.override("nl"), pytest.raises(actions.ActionError) as error:
        actions.do_move(match.pk, mover, match.version, {"type": "place", "to": "e5"})
    assert str(error.value) == "Je kunt nu geen stuk plaatsen: kies eerst de speelvolgorde."
    with pytest.raises(actions.ActionError) as error:
        actions.do_move(match.pk, mover, match.version, {"type": "place", "to": "e5"})
    assert str(error.value) == "You cannot place a piece now: first choose the order of play."


# --- the words of a match's end, and pushes ------------------------------------------------------------


@pytest.mark.django_db
def test_how_a_match_ended_reads_in_each_readers_language(alice, bob, make_user, client_for):
    from games import actions
    from moderation.actions import abort

    staff = make_user("mod", is_staff=True)
    running = start_match(alice, [bob])
    abort(staff, running.pk, "spam in de chat")
    running.refresh_from_db()
    assert running.end_reason == "Aborted by a moderator: spam in de chat"  # the admin's and the API's
    with translation.override("nl"):
        assert running.end_reason_text() == "Afgebroken door een moderator: spam in de chat"
    bob.language = "nl"
    bob.save()
    page = client_for(bob).get(f"/matches/{running.pk}/").content.decode()
    assert "Afgebroken door een moderator: spam in de chat" in page
    other = start_match(alice, [bob])
    actions.do_abort(other.pk, alice, "")
    other.refresh_from_db()
    assert other.end_reason == "Aborted by alice"
    with translation.override("nl"):
        assert other.end_reason_text() == "Afgebroken door alice"


@pytest.mark.django_db
def test_a_push_speaks_its_recipients_language(alice, bob):
    from notifications.models import Kind, Notification
    from push.payloads import push_payload

    match = start_match(alice, [bob])
    waiting = user_to_act(match).user
    waiting.language = "nl"
    waiting.save()
    with translation.override("en"):
        payload = push_payload(Notification(match=match, recipient=waiting, kind=Kind.YOUR_TURN, turn=1))
    assert payload["title"] == f"Jouw beurt in Solitaire Chess #{match.pk}"
    assert payload["body"].startswith("Tegen ") and "Zet vóór " in payload["body"]
    waiting.language = "en"
    waiting.save()
    with translation.override("nl"):
        payload = push_payload(Notification(match=match, recipient=waiting, kind=Kind.YOUR_TURN, turn=1))
    assert payload["title"] == f"Your turn in Solitaire Chess #{match.pk}"
    assert payload["body"].startswith("Against ") and "Move by " in payload["body"]


@pytest.mark.django_db
def test_the_admins_own_words_follow_the_moderators_language(alice, bob, make_user, client_for):
    moderator = make_user("mod", is_staff=True, is_superuser=True, language="nl")
    match = start_match(alice, [bob])
    c = client_for(moderator)
    changelist = c.get("/admin/games/match/").content.decode()
    assert "De gekozen partijen afbreken (niemand wint)" in changelist
    asking = c.post("/admin/games/match/", {"action": "abort_matches", "_selected_action": [match.pk]}).content.decode()
    assert "Partijen afbreken" in asking and "Wordt bewaard in het moderatielogboek." in asking
    assert 'value="Bevestigen"' in asking and "Confirm" not in asking
    done = c.post(
        "/admin/games/match/",
        {"action": "abort_matches", "_selected_action": [match.pk], "apply": "1", "reason": "op verzoek"},
        follow=True,
    ).content.decode()
    assert "Partijen afbreken: gedaan voor 1 van 1." in done
    replay = c.get(f"/admin/games/match/{match.pk}/replay/").content.decode()
    assert "Staf ziet hier elke verborgen kaart" in replay and "terug naar de partij" in replay


@pytest.mark.django_db
def test_the_calendar_feed_speaks_its_owners_language(alice, bob):
    from icalendar import Calendar

    from api.models import CalendarFeed

    match = start_match(alice, [bob])
    for user in (alice, bob):
        user.language = "nl"
        user.save()
    feeds = {user: CalendarFeed.for_user(user) for user in (alice, bob)}
    mover = user_to_act(match).user
    waiter = bob if mover == alice else alice
    with translation.override("en"):
        own = Calendar.from_ical(Client().get(f"/calendar/{feeds[mover].token}.ics").content)
        other = Calendar.from_ical(Client().get(f"/calendar/{feeds[waiter].token}.ics").content)
    assert str(own["X-WR-CALNAME"]) == "Dizzysite-termijnen"
    assert str(own.walk("VEVENT")[0]["SUMMARY"]) == f"Jouw zet: Solitaire Chess #{match.pk}"
    assert str(other.walk("VEVENT")[0]["SUMMARY"]) == f"{mover.username} is aan zet: Solitaire Chess #{match.pk}"
    assert str(other.walk("VEVENT")[0]["DESCRIPTION"]).startswith("Uiterlijk ")


@pytest.mark.django_db
def test_error_pages_are_the_sites_own_in_the_readers_language(alice, client_for):
    from django.template.loader import render_to_string

    missing = client_for(alice).get("/matches/999999/", HTTP_ACCEPT_LANGUAGE="nl")
    page = missing.content.decode()
    assert missing.status_code == 404 and '<html lang="nl">' in page
    assert "Pagina niet gevonden" in page and "Naar je partijen" in page and alice.username in page  # the site's frame
    english = Client().get("/matches/999999/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Page not found" in english
    bad_host = Client().get("/games/", HTTP_HOST="not-ours.example", HTTP_ACCEPT_LANGUAGE="nl")
    assert bad_host.status_code == 400 and "Onjuist verzoek" in bad_host.content.decode()
    with translation.override("nl"):
        assert "Er ging iets mis" in render_to_string("500.html")  # no request, no database needed


@pytest.mark.parametrize("game", ["dizzy-duo-battle", "doubting-flower-field", "lizzy-ghosties", "solitaire-chess"])
def test_the_engines_shared_move_checks_speak_dutch(game):
    """The contract's own refusals of a malformed move (games/engines/base.py) are in a catalogue:
    makemessages keeps only the words it finds marked in the code."""
    from games.engines.base import IllegalMove
    from games.engines.registry import get_engine
    from games.i18n import tr

    engine = get_engine(game)
    kind = sorted(engine.move_fields)[0]
    refusals = [
        ([], "Een zet moet een object met een type zijn."),
        ({"type": "fly"}, "Onbekende soort zet: 'fly'."),
        ({"type": kind, "colour": "red"}, f"Een {kind}-zet heeft geen veld 'colour'."),
    ]
    for move, dutch in refusals:
        with pytest.raises(IllegalMove) as refused:
            engine.check_move_fields(move)
        with translation.override("nl"):
            assert tr(refused.value.args[0]) == dutch


@pytest.mark.django_db
def test_the_boards_deadline_is_written_in_the_sites_one_date_style_per_language(alice, bob):
    match = start_match(alice, [bob])
    seat = user_to_act(match)
    for language, month in (("en", " Nov, "), ("nl", " nov, ")):
        reader = Client(HTTP_ACCEPT_LANGUAGE=language)
        reader.force_login(seat.user)
        page = reader.get(f"/matches/{match.pk}/").content.decode()
        until = re.search(r"\((?:until|tot) ([^)]*)\)", page).group(1)
        assert month in until and until.endswith("UTC"), until
