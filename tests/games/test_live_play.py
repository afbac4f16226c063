"""Live play keeps time to the second: a task at each short deadline, Flower Field's extra
minute for a challenge, no "your turn" email in a live match, the optional turn sound."""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core import mail
from django.db.models import F
from django.utils import timezone

from games import actions, clock
from games.engines.registry import get_engine, get_spec
from games.models import Match, Move
from games.tasks import TIMER_GRACE_SECONDS, enforce_coming_deadlines, enforce_deadline, sweep_deadlines
from notifications.models import Kind, Notification
from tests.browser_helpers import page_as
from tests.helpers import play_first_move

pytestmark = pytest.mark.django_db
START = datetime(2026, 11, 18, 12, 0, tzinfo=UTC)  # a Wednesday

POLL_WAIT_MS = 20_000  # the board polls every 2 s; a loaded machine may take much longer to show it


def start(creator, other, game="solitaire-chess", preset="live", options=None) -> Match:
    match = actions.create_match(
        creator,
        game,
        [actions.SeatSpec("me"), actions.SeatSpec("invite", other.username)],
        options=options or {},
        time_preset=preset,
    )
    actions.do_join(match.pk, other)
    match.refresh_from_db()
    return match


def to_act(match: Match):
    match.refresh_from_db()
    return match.seats.select_related("user").get(to_act=True)


def play_first_legal(match: Match):
    seat = to_act(match)
    move = get_engine(match.game).legal_moves(match.state, seat.number)[0]
    actions.do_move(match.pk, seat.user, match.version, move)
    match.refresh_from_db()
    return seat


@pytest.fixture
def queued(monkeypatch, django_capture_on_commit_callbacks):
    """The deadline tasks queued after each commit, as (match id, deadline, eta), not run."""
    calls: list[tuple[int, str, datetime]] = []

    def record(args, eta=None, **kwargs):
        calls.append((*args, eta))

    monkeypatch.setattr(enforce_deadline, "apply_async", record)

    class Capture:
        calls = []

        def __enter__(self):
            self.context = django_capture_on_commit_callbacks(execute=True)
            self.context.__enter__()
            return self

        def __exit__(self, *exc):
            return self.context.__exit__(*exc)

    Capture.calls = calls
    return Capture()


@time_machine.travel(START, tick=False)
def test_a_short_deadline_queues_a_task_for_its_second_a_long_one_does_not(alice, bob, carol, queued):
    with queued:
        live = start(alice, bob)
    seat = to_act(live)
    assert seat.deadline == START + timedelta(minutes=1)  # the seed's live clock: a minute a turn (ALL-1)
    assert queued.calls == [(live.pk, seat.deadline.isoformat(), seat.deadline)]
    queued.calls.clear()
    with queued:
        start(alice, carol, preset="daily")
    assert queued.calls == []


def test_the_task_starts_a_reserve_period_then_applies_the_consequence_once(alice, bob, queued):
    """SC-7: the Death Match is lost on time, once the turn's minute and the reserve period are spent."""
    with time_machine.travel(START, tick=False) as traveller:
        with queued:
            match = start(alice, bob, options={"ruleset": "death"})
            match = play_first_move(match)  # a person moved: the time-out is scored (ruling SITE-ABORT)
        late = to_act(match)
        match.seats.update(reserve_left=1)
        first = late.deadline
        revision = match.revision
        traveller.move_to(first + timedelta(milliseconds=300))
        queued.calls.clear()
        with queued:
            assert enforce_deadline(match.pk, first.isoformat()) == [f"seat {late.number} spent a reserve period"]
        late.refresh_from_db()
        match.refresh_from_db()
        second = first + timedelta(minutes=1)
        assert late.reserve_left == 0 and late.deadline == second and match.deadline == second
        assert match.revision > revision  # the board's polls see the new deadline
        assert match.status == Match.Status.ACTIVE and match.version == 1
        assert queued.calls == [(match.pk, second.isoformat(), second)]  # the next one at its second
        assert enforce_deadline(match.pk, first.isoformat()) == []  # run twice: the deadline has moved
        traveller.move_to(second + timedelta(milliseconds=300))
        assert enforce_deadline(match.pk, second.isoformat()) == [f"seat {late.number} timed out"]
        assert enforce_deadline(match.pk, second.isoformat()) == []
        assert sweep_deadlines() == 0
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and late.number not in match.result["winners"]
    assert Move.objects.filter(match=match, kind="timeout").count() == 1


def test_the_task_does_nothing_once_the_turn_moved_on_or_before_the_deadline(alice, bob):
    with time_machine.travel(START, tick=False) as traveller:
        match = start(alice, bob)
        deadline = to_act(match).deadline
        assert enforce_deadline(match.pk, deadline.isoformat()) == []  # here early: an eager run cannot wait
        traveller.move_to(START + timedelta(seconds=5))
        mover = play_first_legal(match)
        while to_act(match).number == mover.number:  # the order choice may keep the turn
            play_first_legal(match)
        assert to_act(match).deadline == START + timedelta(seconds=65)
        version, revision = match.version, match.revision
        traveller.move_to(deadline + timedelta(seconds=1))
        assert enforce_deadline(match.pk, deadline.isoformat()) == []
    match.refresh_from_db()
    assert (match.version, match.revision) == (version, revision)
    assert sorted(match.seats.values_list("reserve_left", flat=True)) == [5, 5]


def due_at(match: Match, when: datetime) -> None:
    match.seats.filter(to_act=True).update(deadline=when)
    Match.objects.filter(pk=match.pk).update(deadline=when)


@pytest.fixture
def timer_wakes(monkeypatch) -> list[tuple[str, datetime]]:
    """The deadline timer's messages, (token, eta), recorded, not run."""
    wakes: list[tuple[str, datetime]] = []
    monkeypatch.setattr(enforce_coming_deadlines, "apply_async", lambda args, eta=None: wakes.append((*args, eta)))
    return wakes


def test_one_timer_applies_the_coming_deadlines_of_every_clock_at_their_second(alice, bob, carol, timer_wakes):
    """A long clock's deadline is applied at its second too; by one timer that
    wakes at each deadline in turn, not a countdown task a match queued by every sweep."""
    with time_machine.travel(START, tick=False):
        first, second = start(alice, bob, preset="daily"), start(alice, carol, preset="daily")
        soon, later = START + timedelta(seconds=40), START + timedelta(seconds=70)
        due_at(first, soon), due_at(second, later)
        start(bob, carol, preset="daily")  # its deadline is a day away: no wake for it
        assert sweep_deadlines() == 0
        assert [eta for _, eta in timer_wakes] == [soon]
        token = timer_wakes[0][0]
        assert sweep_deadlines() == 0 and len(timer_wakes) == 1  # a timer is going: the sweep sends nothing
    with time_machine.travel(soon, tick=False):
        assert enforce_coming_deadlines(token) == 1
        assert timer_wakes[1:] == [(token, later)]
        assert enforce_coming_deadlines(token) == 0  # run twice: applied once
    with time_machine.travel(later, tick=False):
        assert enforce_coming_deadlines(token) == 1
        assert len(timer_wakes) == 3  # nothing due in the next 90 s: the timer stops ...
        assert sweep_deadlines() == 0 and len(timer_wakes) == 3  # ... and the sweep has nothing to start
    # Each late seat spent a reserve period at its own deadline.
    for match, deadline in ((first, soon), (second, later)):
        match.refresh_from_db()
        assert match.deadline == deadline + timedelta(seconds=match.period_seconds)


def test_of_two_sweeps_that_found_no_timer_one_starts_it(alice, bob, timer_wakes, monkeypatch):
    with time_machine.travel(START, tick=False):
        due_at(start(alice, bob, preset="daily"), START + timedelta(seconds=40))
        sweep_deadlines()
        monkeypatch.setattr("games.tasks.cache.get", lambda key, default=None: None)  # read before the other's lease
        sweep_deadlines()
    assert len(timer_wakes) == 1


def test_a_lost_timer_is_replaced_and_a_superseded_one_stops(alice, bob, timer_wakes):
    with time_machine.travel(START, tick=False):
        match = start(alice, bob, preset="daily")
        soon = START + timedelta(seconds=40)
        due_at(match, soon)
        sweep_deadlines()
        lost = timer_wakes[0][0]
    # Its message never ran (a worker died with it): a minute after its wake the lease lapses.
    with time_machine.travel(soon + timedelta(seconds=TIMER_GRACE_SECONDS + 1), tick=False):
        due_at(match, soon + timedelta(seconds=TIMER_GRACE_SECONDS + 30))
        assert sweep_deadlines() == 0
        assert len(timer_wakes) == 2 and timer_wakes[1][0] != lost  # a new timer
        assert enforce_coming_deadlines(lost) == 0 and len(timer_wakes) == 2  # the old one, late: it stops


def flower_field_to_its_first_challenge(alice, bob, preset: str) -> Match:
    """Order, both hidden flowers and a first planting: the next player may challenge (FF-5)."""
    match = start(alice, bob, game="doubting-flower-field", preset=preset)
    engine = get_engine(match.game)
    while not match.state["plantings"]:
        for seat in match.seats.filter(to_act=True).select_related("user"):
            match.refresh_from_db()
            actions.do_move(match.pk, seat.user, match.version, engine.legal_moves(match.state, seat.number)[0])
        match.refresh_from_db()
    return match


@pytest.mark.parametrize(("preset", "extra"), [("live", 60), ("daily", 43200)])
def test_flower_field_a_challenge_adds_a_minute_on_the_live_clock_half_a_turn_on_others(alice, bob, preset, extra):
    """Seed 003: "Players will receive an extra minute if they challenge" (2-minute turns): a failed
    challenge (giving up is one, FF-5) keeps the turn (FF-6), now with the extra time on its clock."""
    with time_machine.travel(START, tick=False) as traveller:
        match = flower_field_to_its_first_challenge(alice, bob, preset)
        challenger = to_act(match)
        before = challenger.deadline
        traveller.move_to(START + timedelta(seconds=20))
        actions.do_move(match.pk, challenger.user, match.version, {"type": "give_up"})
    challenger.refresh_from_db()
    match.refresh_from_db()
    assert challenger.to_act and challenger.deadline == before + timedelta(seconds=extra)
    assert match.deadline == challenger.deadline


def test_the_extra_time_is_the_seeds_minute_on_its_own_clock_and_the_same_share_elsewhere():
    live = get_spec("doubting-flower-field").live_clock
    assert clock.extra_seconds(live, live.turn_seconds, "challenge") == 60
    assert clock.extra_seconds(live, 3 * 86400, "give_up") == 3 * 86400 // 2
    assert clock.extra_seconds(live, 120, "plant") == 0
    assert clock.extra_seconds(get_spec("solitaire-chess").live_clock, 60, "challenge") == 0


def test_no_your_turn_email_nor_reminder_in_a_live_match(alice, bob, carol, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        live = start(alice, bob)
        # carol (who starts it by joining) moves first: alice's only turn email is the one after her move
        slow = start(alice, carol, preset="daily", options={"advantage": "1"})
    assert to_act(live).remind_at is None and to_act(slow).remind_at is not None
    for match in (live, slow):
        mover = to_act(match)
        while to_act(match).number == mover.number:
            with django_capture_on_commit_callbacks(execute=True):
                play_first_legal(match)
    turns = Notification.objects.filter(kind=Kind.YOUR_TURN)
    assert not turns.filter(match=live).exists() and turns.filter(match=slow).count() == 1
    assert len([m for m in mail.outbox if "Your turn" in m.subject]) == 1
    assert to_act(live).remind_at is None


def test_the_turn_sound_setting_reaches_a_live_board_only(alice, bob, carol, client_for):
    live, slow = start(alice, bob), start(alice, carol, preset="daily")
    alice_client = client_for(alice)
    assert 'data-turn-sound="on"' not in alice_client.get(f"/matches/{live.pk}/").content.decode()
    response = alice_client.post(
        "/settings/", {"display_name": "", "time_zone": "UTC", "turn_sound": "on"}, follow=True
    )
    assert response.status_code == 200
    alice.refresh_from_db()
    assert alice.turn_sound
    assert "when it becomes my turn in a live match" in alice_client.get("/settings/").content.decode()
    assert 'data-turn-sound="on"' in alice_client.get(f"/matches/{live.pk}/").content.decode()
    assert 'data-turn-sound="on"' not in alice_client.get(f"/matches/{slow.pk}/").content.decode()
    assert 'data-turn-sound="on"' not in client_for(bob).get(f"/matches/{live.pk}/").content.decode()


def title_after_unread_count(page) -> str:
    """The tab's title without the inbox's "(2) " in front, which site.js adds whenever the bell loads."""
    return re.sub(r"^\(\d+\) ", "", page.title())


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_live_board_beeps_on_your_turn_and_shows_the_opponents_time_running_out(
    browser,
    live_server,
    make_user,
):
    """With the turn sound on, the board swapping in with "It is your turn" beeps once (a stubbed
    AudioContext counts the tones) and the tab's title says so; then the opponent's clock runs out
    while the player watches, and the board shows the result by itself."""
    ann, ben = make_user("ann", turn_sound=True), make_user("ben")
    match = start(ann, ben, options={"ruleset": "death", "advantage": "0"})  # ben moves, then ann
    while to_act(match).user != ben:
        play_first_legal(match)
    page = page_as(browser, live_server, ann)
    page.add_init_script(
        "window.__tones = 0; window.AudioContext = class { constructor() { this.state = 'running';"
        " this.currentTime = 0; this.destination = {}; } createGain() { return { gain: { setValueAtTime() {},"
        " exponentialRampToValueAtTime() {} }, connect() {} }; } createOscillator() { return { frequency: {},"
        " connect() {}, start() { window.__tones += 1; }, stop() {} }; } };"
    )
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    assert page.locator("#board").get_attribute("data-turn-sound") == "on"
    assert "Waiting for" in page.locator(".turn-banner").inner_text()
    while to_act(match).user == ben:  # ben moves (choosing the order may leave it his turn): ann's board polls
        play_first_legal(match)
    page.wait_for_function("() => document.querySelector('.turn-banner.mine') && window.__tones", timeout=POLL_WAIT_MS)
    assert page.evaluate("window.__tones") == 1 and title_after_unread_count(page).startswith("Your turn")

    play_first_legal(match)  # ann moves (in another tab, say); ben's clock: 3 s and no reserve left
    soon = timezone.now() + timedelta(seconds=4)
    match.seats.update(reserve_left=0)
    match.seats.filter(to_act=True).update(deadline=soon)
    Match.objects.filter(pk=match.pk).update(deadline=soon, revision=F("revision") + 1)
    page.wait_for_selector("time.clock.clock-low", timeout=POLL_WAIT_MS)  # red in the last 10 seconds
    assert not title_after_unread_count(page).startswith("Your turn")
    time.sleep(max(0.0, (soon - timezone.now()).total_seconds()) + 0.1)
    enforce_deadline(match.pk, soon.isoformat())  # what a worker does at the deadline
    page.wait_for_function("() => document.querySelector('.status-finished')", timeout=POLL_WAIT_MS)
    assert page.evaluate("window.__tones") == 1
