"""Tournament notifications: entry confirmed, tournament started, a new round and your
match, your tournament is over; through the inbox, email and push preferences, queued on commit,
in the player's language, telling only what the tournament's public page shows."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from games import actions as games
from games.models import Match
from notifications.models import Kind, Notification
from notifications.tasks import send_digests
from push.payloads import push_payload
from tournaments import actions
from tournaments.actions import TournamentSettings
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

GAME = "solitaire-chess"
TOURNAMENT_KINDS = (Kind.TOURNAMENT_ENTRY, Kind.TOURNAMENT_STARTED, Kind.TOURNAMENT_OVER)


def swiss(organiser, **changes) -> Tournament:
    chosen = {
        "name": "Monday Swiss",
        "game": GAME,
        "format": Tournament.Format.SWISS,
        "starts_at": timezone.now() + timedelta(days=1),
        "rounds": 2,
        "min_entrants": 2,
    }
    return actions.do_create(organiser, TournamentSettings(**{**chosen, **changes}))


def make_due(tournament: Tournament) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - timedelta(seconds=1))


def round_matches(tournament: Tournament) -> list[Match]:
    tournament.refresh_from_db()
    return list(
        Match.objects.filter(
            tournament_table__round__tournament=tournament, tournament_table__round__number=tournament.current_round
        )
    )


def mails_to(user) -> list:
    return [message for message in mail.outbox if message.to == [user.email]]


def tournament_rows(user) -> list[str]:
    rows = Notification.objects.filter(recipient=user, kind__in=TOURNAMENT_KINDS).order_by("id")
    return list(rows.values_list("kind", flat=True))


@pytest.fixture
def players(make_user):
    return [make_user(f"player{n}") for n in range(4)]


def test_entry_confirmed_once_and_only_after_commit(alice, bob, django_capture_on_commit_callbacks):
    tournament = swiss(alice)
    with django_capture_on_commit_callbacks(execute=True):
        actions.do_join(tournament.pk, bob)
        assert mail.outbox == []  # nothing leaves inside the transaction
    row = Notification.objects.get(recipient=bob)
    assert (row.kind, row.tournament, row.match) == (Kind.TOURNAMENT_ENTRY, tournament, None)
    [email] = mails_to(bob)
    assert email.subject == "[Dizzysite] You are in Monday Swiss"
    assert "a tournament of Solitaire Chess, is confirmed" in email.body
    assert f"/tournaments/{tournament.pk}/" in email.body
    with pytest.raises(actions.ActionError):
        actions.do_join(tournament.pk, bob)
    assert Notification.objects.filter(recipient=bob).count() == 1
    # The inbox lists it, linking the tournament (no "mute this match": there is no match).
    page = _client(bob).get("/inbox/").content.decode()
    assert "Your tournament entry is confirmed: Monday Swiss" in page
    assert f'href="/tournaments/{tournament.pk}/"' in page and "Mute this match" not in page
    opened = _client(bob).get(f"/inbox/{row.pk}/")  # the address older pushes carry
    assert opened.status_code == 302 and opened["Location"] == f"/tournaments/{tournament.pk}/"


def test_started_new_round_and_over(alice, players, django_capture_on_commit_callbacks):
    tournament = swiss(alice)
    with django_capture_on_commit_callbacks(execute=True):
        for player in players:
            actions.do_join(tournament.pk, player)
    mail.outbox.clear()
    make_due(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        assert actions.do_start_if_due(tournament.pk) == "started"
    for player in players:
        assert tournament_rows(player) == [Kind.TOURNAMENT_ENTRY, Kind.TOURNAMENT_STARTED]
        [started] = [m for m in mails_to(player) if m.subject == "[Dizzysite] Monday Swiss has started"]
        [first] = [m for m in mails_to(player) if m is not started]  # the player's match of round one
        assert "has started with 4 entrants" in started.body
        assert "Round 1 of Monday Swiss." in first.body
    assert tournament_rows(alice) == [Kind.TOURNAMENT_STARTED]  # the organiser, who did not enter
    [organised] = mails_to(alice)
    assert "Monday Swiss, which you organise, has started with 4 entrants." in organised.body
    assert "Your matches" not in organised.body
    for match in round_matches(tournament):
        games.do_adjudicate(match.pk, [0], "test: the first seat wins")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert actions.do_advance_if_round_over(tournament.pk) == "paired"
    for player in players:
        [new_round] = [m for m in mails_to(player) if "Round 2 of Monday Swiss." in m.body]
        assert "/matches/" in new_round.body
    for match in round_matches(tournament):
        games.do_adjudicate(match.pk, [0], "test: the first seat wins")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert actions.do_advance_if_round_over(tournament.pk) == "finished"
    for player in players:
        entry = tournament.entries.get(user=player)
        assert tournament_rows(player)[-1] == Kind.TOURNAMENT_OVER
        [over] = [m for m in mails_to(player) if "Monday Swiss is over" in m.subject]
        assert f"you finished {entry.place} of 4." in over.body
    with django_capture_on_commit_callbacks(execute=True):
        assert actions.do_advance_if_round_over(tournament.pk) == ""
    assert tournament_rows(alice) == [Kind.TOURNAMENT_STARTED, Kind.TOURNAMENT_OVER]
    [over] = [m for m in mails_to(alice) if "Monday Swiss is over" in m.subject]
    assert "Monday Swiss is over." in over.body and "you finished" not in over.body
    assert Notification.objects.filter(kind=Kind.TOURNAMENT_OVER).count() == 5  # once each, the organiser too


def test_cancelled_never_tells_the_moderators_reason(alice, bob, carol, django_capture_on_commit_callbacks):
    tournament = swiss(alice)
    with django_capture_on_commit_callbacks(execute=True):
        actions.do_join(tournament.pk, bob)
        actions.do_join(tournament.pk, carol)
    with django_capture_on_commit_callbacks(execute=True):
        actions.do_cancel(tournament.pk, "bob was reported for cheating")
    for player in (bob, carol):
        [over] = [m for m in mails_to(player) if "is over" in m.subject]
        assert "Monday Swiss was cancelled." in over.body
        assert "cheating" not in over.body and "cheating" not in over.alternatives[0][0]
        row = Notification.objects.get(recipient=player, kind=Kind.TOURNAMENT_OVER)
        payload = push_payload(row)
        assert payload["body"] == "It was cancelled." and "cheating" not in str(payload)


def test_too_few_entrants_tell_the_one_who_entered(alice, bob, django_capture_on_commit_callbacks):
    tournament = swiss(alice, min_entrants=3)
    actions.do_join(tournament.pk, bob)
    make_due(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        assert actions.do_start_if_due(tournament.pk) == "cancelled"
    assert tournament_rows(bob) == [Kind.TOURNAMENT_ENTRY, Kind.TOURNAMENT_OVER]


def test_pushes_say_only_public_facts(alice, bob, carol, django_capture_on_commit_callbacks):
    tournament = swiss(alice, rounds=1)
    for player in (bob, carol):
        actions.do_join(tournament.pk, player)
    entry_push = push_payload(Notification.objects.get(recipient=bob, kind=Kind.TOURNAMENT_ENTRY))
    assert entry_push["title"] == "You are in Monday Swiss"
    assert entry_push["body"].startswith("A tournament of Solitaire Chess; it starts ")
    assert entry_push["url"].endswith(f"/tournaments/{tournament.pk}/")
    assert entry_push["tag"] == f"tournament-{tournament.pk}"
    make_due(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        actions.do_start_if_due(tournament.pk)
    started = push_payload(Notification.objects.get(recipient=bob, kind=Kind.TOURNAMENT_STARTED))
    assert (started["title"], started["body"]) == ("Monday Swiss has started", "2 entrants.")
    [match] = round_matches(tournament)
    first_word = Notification.objects.get(recipient=bob, match=match)
    assert first_word.kind == Kind.TOURNAMENT_ROUND  # "a new round, and your match"
    payload = push_payload(first_word)
    body = payload["body"]
    assert payload["title"] == f"Your new tournament match: Solitaire Chess #{match.pk}"
    assert body.startswith("Round 1 of Monday Swiss. Against carol.")
    assert ("Move by" in body) == match.seats.get(user=bob).to_act  # the one to move is told by when
    assert match.seed not in body and match.seed not in str(push_payload(first_word))
    [email] = [m for m in mails_to(bob) if f"#{match.pk}" in m.subject]
    assert match.seed not in email.body


def test_dutch_players_hear_it_in_dutch(alice, bob, carol, django_capture_on_commit_callbacks):
    for dutch in (alice, bob):
        dutch.language = "nl"
        dutch.save()
    tournament = swiss(alice, rounds=1)
    with django_capture_on_commit_callbacks(execute=True):
        for player in (bob, carol):
            actions.do_join(tournament.pk, player)
    make_due(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        actions.do_start_if_due(tournament.pk)
    by_subject = {m.subject: m for m in mails_to(bob)}
    assert len(by_subject) == 3
    entry_mail = by_subject.pop("[Dizzysite] Je doet mee aan Monday Swiss")
    started_mail = by_subject.pop("[Dizzysite] Monday Swiss is begonnen")
    [match_mail] = by_subject.values()
    assert "een toernooi van Solitaire Chess, is bevestigd" in entry_mail.body
    assert "is begonnen met 2 deelnemers" in started_mail.body
    assert "Ronde 1 van Monday Swiss." in match_mail.body
    [organised] = mails_to(alice)  # the organiser, who did not enter
    assert "Monday Swiss, dat je organiseert, is begonnen met 2 deelnemers." in organised.body
    started = push_payload(Notification.objects.get(recipient=bob, kind=Kind.TOURNAMENT_STARTED))
    assert (started["title"], started["body"]) == ("Monday Swiss is begonnen", "2 deelnemers.")
    [match] = round_matches(tournament)
    games.do_adjudicate(match.pk, [0], "test")
    with django_capture_on_commit_callbacks(execute=True):
        assert actions.do_advance_if_round_over(tournament.pk) == "finished"
    [over] = [m for m in mails_to(bob) if "afgelopen" in m.subject]
    place = tournament.entries.get(user=bob).place
    assert f"Monday Swiss is afgelopen: je eindigde op plaats {place} van 2." in over.body
    over_push = push_payload(Notification.objects.get(recipient=bob, kind=Kind.TOURNAMENT_OVER))
    assert over_push["body"] == f"Je eindigde op plaats {place} van 2."
    page = _client(bob).get("/inbox/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Je inschrijving voor een toernooi is bevestigd: Monday Swiss" in page


def test_preferences_list_the_tournament_kinds_and_are_obeyed(alice, bob, django_capture_on_commit_callbacks):
    page = _client(bob).get("/email/preferences/").content.decode()
    for label in ("Your tournament entry is confirmed", "A tournament you entered has started"):
        assert label in page
    bob.email_preferences = {Kind.TOURNAMENT_ENTRY: "never", Kind.TOURNAMENT_STARTED: "digest"}
    bob.save()
    tournament = swiss(alice, rounds=1)
    with django_capture_on_commit_callbacks(execute=True):
        actions.do_join(tournament.pk, bob)
        actions.do_join(tournament.pk, alice)
    assert mails_to(bob) == []  # not wanted by email; still in the inbox
    assert Notification.objects.get(recipient=bob).status == Notification.Status.SKIPPED
    make_due(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        actions.do_start_if_due(tournament.pk)
    assert not [m for m in mails_to(bob) if "has started" in m.subject and "Monday" in m.subject]
    mail.outbox.clear()
    assert send_digests() >= 1
    [digest] = mails_to(bob)
    assert "Monday Swiss" in digest.body and f"/tournaments/{tournament.pk}/" in digest.body


def _client(user):
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


def test_a_championship_division_tells_its_players_it_started_and_ended(make_user, django_capture_on_commit_callbacks):
    from tournaments import championship_actions
    from tournaments.models import Championship

    admin = make_user("admin", is_staff=True)
    championship = Championship.objects.create(game=GAME, division_size=4, organiser=admin)
    players = [make_user(f"member{n}") for n in range(3)]
    for player in players:
        championship_actions.do_join_championship(championship.pk, player)
    with django_capture_on_commit_callbacks(execute=True):
        assert championship_actions.do_start_season_if_due(championship.pk) == "started"
    division = championship.seasons.get().divisions.get()
    for player in players:
        assert tournament_rows(player) == [Kind.TOURNAMENT_ENTRY, Kind.TOURNAMENT_STARTED]  # the sign-up's, then
        [started] = [m for m in mails_to(player) if m.subject == f"[Dizzysite] {division.name} has started"]
        assert "with 3 entrants" in started.body
    assert tournament_rows(admin) == []  # the championship's organiser plays in no division
    for match in Match.objects.filter(tournament_table__round__tournament=division):
        games.do_adjudicate(match.pk, [0], "test: the first seat wins")
    with django_capture_on_commit_callbacks(execute=True):
        assert actions.do_advance_if_round_over(division.pk) == "finished"
    for player in players:
        assert tournament_rows(player) == [Kind.TOURNAMENT_ENTRY, Kind.TOURNAMENT_STARTED, Kind.TOURNAMENT_OVER]


def test_a_division_is_named_in_the_readers_language(make_user, client, django_capture_on_commit_callbacks):
    """Its name is stored in English; pages, emails and pushes name it in the reader's language."""
    from tournaments import championship_actions
    from tournaments.models import Championship

    admin = make_user("admin", is_staff=True)
    championship = Championship.objects.create(game=GAME, division_size=4, organiser=admin)
    dutch, english = make_user("piet"), make_user("pat")
    dutch.language = "nl"
    dutch.save()
    for player in (dutch, english):
        championship_actions.do_join_championship(championship.pk, player)
    with django_capture_on_commit_callbacks(execute=True):
        assert championship_actions.do_start_season_if_due(championship.pk) == "started"
    division = championship.seasons.get().divisions.get()
    assert division.name == "Solitaire Chess, season 1, division 1"
    assert [m.subject for m in mails_to(english) if "has started" in m.subject] == [
        "[Dizzysite] Solitaire Chess, season 1, division 1 has started"
    ]
    assert "[Dizzysite] Solitaire Chess, seizoen 1, divisie 1 is begonnen" in [m.subject for m in mails_to(dutch)]
    [round_mail] = [m for m in mails_to(dutch) if m.subject.startswith("[Dizzysite] Ronde 1")]
    assert "Ronde 1 van Solitaire Chess, seizoen 1, divisie 1." in round_mail.body
    push = push_payload(Notification.objects.get(recipient=dutch, kind=Kind.TOURNAMENT_STARTED))
    assert push["title"] == "Solitaire Chess, seizoen 1, divisie 1 is begonnen"
    page = client.get(f"/tournaments/{division.pk}/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "<h1>Solitaire Chess, seizoen 1, divisie 1</h1>" in page
    assert (
        "Solitaire Chess, seizoen 1, divisie 1"
        in client.get("/tournaments/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    )


def test_a_withdrawn_or_disqualified_player_hears_no_tournament_over(
    alice, players, django_capture_on_commit_callbacks
):
    tournament = swiss(alice)
    for player in players:
        actions.do_join(tournament.pk, player)
    make_due(tournament)
    assert actions.do_start_if_due(tournament.pk) == "started"
    actions.do_leave(tournament.pk, players[0])
    actions.do_disqualify(tournament.entries.get(user=players[1]).pk, "test: disqualified")
    outcome = ""
    while outcome != "finished":
        for match in round_matches(tournament):
            if not match.is_over:
                games.do_adjudicate(match.pk, [0], "test: the first seat wins")
        with django_capture_on_commit_callbacks(execute=True):
            outcome = actions.do_advance_if_round_over(tournament.pk)
        assert outcome in ("paired", "finished")
    for player in players[:2]:
        assert Kind.TOURNAMENT_OVER not in tournament_rows(player)
        assert [m for m in mails_to(player) if "is over" in m.subject] == []
    for player in players[2:]:
        assert tournament_rows(player)[-1] == Kind.TOURNAMENT_OVER


def test_the_organiser_hears_a_cancel_they_did_not_make_and_once_when_they_entered(
    alice, bob, carol, django_capture_on_commit_callbacks
):
    called_off = swiss(alice, name="Called off")
    actions.do_join(called_off.pk, bob)
    with django_capture_on_commit_callbacks(execute=True):
        actions.do_organiser_cancel(called_off.pk, alice)
    assert tournament_rows(alice) == []  # they called it off themselves
    assert tournament_rows(bob) == [Kind.TOURNAMENT_ENTRY, Kind.TOURNAMENT_OVER]
    cancelled = swiss(alice, name="Cancelled")
    with django_capture_on_commit_callbacks(execute=True):
        actions.do_cancel(cancelled.pk, "test: a moderator cancels")
    assert tournament_rows(alice) == [Kind.TOURNAMENT_OVER]
    entered = swiss(alice, name="Entered", min_entrants=2)
    for player in (alice, carol):
        actions.do_join(entered.pk, player)
    make_due(entered)
    with django_capture_on_commit_callbacks(execute=True):
        assert actions.do_start_if_due(entered.pk) == "started"
    rows = Notification.objects.filter(recipient=alice, tournament=entered).order_by("id")
    assert list(rows.values_list("kind", flat=True)) == [Kind.TOURNAMENT_ENTRY, Kind.TOURNAMENT_STARTED]
    [started] = [m for m in mails_to(alice) if m.subject == "[Dizzysite] Entered has started"]
    assert "Your matches are waiting for you." in started.body  # as an entrant, not as the organiser


def test_signing_up_for_a_championship_is_confirmed(make_user, client, django_capture_on_commit_callbacks):
    from tournaments import championship_actions
    from tournaments.models import Championship

    admin = make_user("admin", is_staff=True)
    championship = Championship.objects.create(game=GAME, division_size=4, organiser=admin)
    eva, dirk, quiet = make_user("eva"), make_user("dirk", language="nl"), make_user("quiet")
    quiet.email_preferences = {Kind.TOURNAMENT_ENTRY: "never"}
    quiet.save()
    with django_capture_on_commit_callbacks(execute=True):
        for player in (eva, dirk, quiet):
            championship_actions.do_join_championship(championship.pk, player)
        assert mail.outbox == []  # sent only once each sign-up commits
    for player in (eva, dirk, quiet):
        row = Notification.objects.get(recipient=player)
        assert (row.kind, row.championship, row.tournament, row.match) == (
            Kind.TOURNAMENT_ENTRY,
            championship,
            None,
            None,
        )
        assert row.get_absolute_url() == championship.get_absolute_url()
    [email] = mails_to(eva)
    assert email.subject == "[Dizzysite] You are in Solitaire Chess championship"
    assert "You start in its lowest division at its next season." in email.body
    assert f"/championships/{championship.pk}/" in email.body
    [dutch] = mails_to(dirk)
    assert dutch.subject == "[Dizzysite] Je doet mee aan Kampioenschap Solitaire Chess"
    assert "Je begint in de laagste divisie van het volgende seizoen." in dutch.body
    assert mails_to(quiet) == []  # their preference: never by email; the inbox row stays
    assert Notification.objects.get(recipient=quiet).status == Notification.Status.SKIPPED
    payload = push_payload(Notification.objects.get(recipient=eva))
    assert (payload["title"], payload["body"]) == (
        "You are in Solitaire Chess championship",
        "You start in its lowest division at its next season.",
    )
    assert payload["tag"] == f"championship-{championship.pk}"
    client.force_login(eva)
    inbox = client.get("/inbox/")
    assert "Solitaire Chess championship" in inbox.content.decode()
    championship_actions.do_leave_championship(championship.pk, eva)
    championship_actions.do_join_championship(championship.pk, eva)  # back: no second confirmation
    assert Notification.objects.filter(recipient=eva).count() == 1
