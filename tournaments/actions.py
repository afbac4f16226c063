"""Changing tournaments: check_* validate, do_* change, each in one transaction with the
tournament row locked (select_for_update), so two workers or a worker and a player take turns.

Matches are created started (tournaments/matches.py) inside that transaction; their side effects
(bot moves, deadline tasks, notifications) are queued on commit by the games code.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from accounts.models import User
from games.actions.common import ActionError, NotAllowed, check_can_play  # noqa: F401 (raised to callers)
from games.actions.resign import do_forfeit
from games.engines.base import BadOptions
from games.engines.registry import SPECS, get_bots, get_engine
from games.models import BOT_LEVELS, Match, TimeControl
from moderation.actions import abort
from moderation.models import ModerationLog
from notifications.models import Kind, Notification
from notifications.service import notify_tournament
from ratings.models import Pool, Rating, display
from tournaments import pairing
from tournaments.matches import PlannedRound, create_rounds
from tournaments.models import Entry, Invitation, Round, Table, TableSeat, Tournament
from tournaments.standings import compute_standings, knockout_winners, pairable, read_tables, rounds_with_tables

MAX_ROUNDS = 30
MAX_ROUND_HOURS = 2000  # about twelve weeks between rounds


@dataclass
class TournamentSettings:
    """What an organiser chooses (the create form's cleaned data)."""

    name: str
    game: str
    format: str
    starts_at: datetime
    time_preset: str = "daily"
    options: dict[str, Any] | None = None
    rounds: int = 5
    table_size: int = 4
    all_at_once: bool = False
    round_hours: int | None = None
    min_entrants: int = 2
    max_entrants: int = 64
    rating_min: int | None = None
    rating_max: int | None = None
    invite_only: bool = False
    bots_allowed: bool = False


def seats_per_match(game: str, format: str, table_size: int) -> tuple[int, int]:
    """The smallest and largest match of this format: two seats, or tables of the game's range."""
    engine = get_engine(game)
    if format == Tournament.Format.TABLES:
        return engine.min_players, max(engine.min_players, min(engine.max_players, table_size))
    return 2, 2


def check_create(user: User, chosen: TournamentSettings) -> dict[str, Any]:
    """Validate an organiser's settings; returns the engine's parsed options."""
    check_can_play(user)
    if chosen.game not in SPECS:
        raise ActionError(gettext("There is no such game."))
    if chosen.format not in Tournament.Format.values:
        raise ActionError(gettext("Choose one of the formats offered."))
    if chosen.time_preset not in TimeControl.PRESETS:
        raise ActionError(gettext("Choose one of the time controls offered."))
    engine = get_engine(chosen.game)
    if chosen.format != Tournament.Format.TABLES and not engine.min_players <= 2 <= engine.max_players:
        raise ActionError(gettext("This game is not played by two: choose tables."))
    if chosen.format == Tournament.Format.TABLES and engine.max_players <= 2:
        raise ActionError(gettext("Tables are for the games of more than two players."))
    smallest, largest = seats_per_match(chosen.game, chosen.format, chosen.table_size)
    try:
        options = engine.parse_options(chosen.options, largest)
    except BadOptions as error:
        raise ActionError(str(error)) from None
    if not chosen.name.strip():
        raise ActionError(gettext("Give the tournament a name."))
    if chosen.starts_at <= timezone.now():
        raise ActionError(gettext("The start must be in the future."))
    if not max(2, smallest) <= chosen.min_entrants <= chosen.max_entrants <= 1000:
        raise ActionError(
            gettext("The fewest entrants must be at least %(fewest)d and at most the most entrants.")
            % {"fewest": max(2, smallest)}
        )
    if chosen.round_hours is not None and not 1 <= chosen.round_hours <= MAX_ROUND_HOURS:
        raise ActionError(gettext("Choose between 1 and 2000 hours between rounds."))
    if not 1 <= chosen.rounds <= MAX_ROUNDS:
        raise ActionError(gettext("Choose between 1 and 30 rounds."))
    if chosen.rating_min is not None and chosen.rating_max is not None and chosen.rating_min > chosen.rating_max:
        raise ActionError(gettext("The lowest rating allowed is above the highest."))
    return options


def do_create(user: User, chosen: TournamentSettings) -> Tournament:
    options = check_create(user, chosen)
    fields = {k: v for k, v in vars(chosen).items() if k != "options"}
    with transaction.atomic():
        return Tournament.objects.create(organiser=user, official=user.is_staff, options=options, **fields)


def lock_tournament(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise ActionError(gettext("There is no such tournament.")) from None


def rating_of(game: str, user_id: int | None, *, bot_level: str = "") -> int:
    """The displayed rating used for bounds and seeds (a player's people pool; a bot's own)."""
    if user_id is None:
        row = Rating.objects.filter(game=game, pool=Pool.BOTS, user=None, bot_level=bot_level).first()
    else:
        row = Rating.objects.filter(game=game, pool=Pool.PEOPLE, user_id=user_id).first()
    return row.value if row else display(Rating._meta.get_field("mu").default)


def ratings_of(game: str, entries: list[Entry]) -> dict[int, int]:
    """rating_of for every entry at once, by entry id, in one query (a tournament's start
    read one rating per entrant)."""
    user_ids = {e.user_id for e in entries if e.user_id is not None}
    levels = {e.bot_level for e in entries if e.user_id is None}
    rows = Rating.objects.filter(game=game).filter(
        Q(pool=Pool.PEOPLE, user_id__in=user_ids) | Q(pool=Pool.BOTS, user=None, bot_level__in=levels)
    )
    people, bots = {}, {}
    for user_id, level, value in ((r.user_id, r.bot_level, r.value) for r in rows):
        if user_id is None:
            bots[level] = value
        else:
            people[user_id] = value
    default = display(Rating._meta.get_field("mu").default)
    return {
        e.pk: (bots.get(e.bot_level, default) if e.user_id is None else people.get(e.user_id, default)) for e in entries
    }


def check_entry_open(tournament: Tournament) -> None:
    if tournament.status != Tournament.Status.OPEN or tournament.starts_at <= timezone.now():
        raise ActionError(gettext("This tournament is not taking entries."))
    if tournament.entries.count() >= tournament.max_entrants:
        raise ActionError(gettext("This tournament is full."))


def check_join(tournament: Tournament, user: User) -> None:
    check_can_play(user)
    check_entry_open(tournament)
    if tournament.invite_only and tournament.organiser_id != user.pk:
        if not tournament.invitations.filter(user=user).exists():
            raise NotAllowed(gettext("This tournament is by invitation only."))
    if tournament.entries.filter(user=user).exists():
        raise ActionError(gettext("You have entered this tournament already."))
    rating = rating_of(tournament.game, user.pk)
    too_low = tournament.rating_min is not None and rating < tournament.rating_min
    if too_low or (tournament.rating_max is not None and rating > tournament.rating_max):
        raise ActionError(gettext("Your rating is outside this tournament's bounds."))


def do_join(tournament_id: int, user: User) -> Entry:
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        check_join(tournament, user)
        entry = Entry.objects.create(tournament=tournament, user=user)
        notify_tournament(tournament, user, Kind.TOURNAMENT_ENTRY)  # sent once this commits
        return entry


def tell_entrants(tournament: Tournament, kind: str, *, tell_organiser: bool = True) -> None:
    """A tournament notification to every player entered (bots hear nothing), written in the
    caller's transaction; emails and pushes go once it commits. A player who withdrew or was
    disqualified is out of it: they hear no more of it."""
    entries = tournament.entries.select_related("user").filter(user__isnull=False)
    for entry in entries.filter(withdrawn=False, disqualified=False):
        notify_tournament(tournament, entry.user, kind)
    # The organiser who did not enter hears of the start and the end too; not a championship's
    # organiser (an admin) of each of its divisions, nor one who called it off themselves.
    entered = entries.filter(user_id=tournament.organiser_id).exists()
    if tell_organiser and tournament.season_id is None and not entered:
        notify_tournament(tournament, tournament.organiser, kind)


def entrant_notifications(tournament: Tournament, entries: list[Entry], kind: str) -> list[Notification]:
    """tell_entrants' rows, unsaved, for notify_all (a new tournament: none of them exists yet)."""
    return [Notification(tournament=tournament, recipient=e.user, kind=kind, turn=0) for e in entries if e.user_id]


def do_add_bot(tournament_id: int, user: User, level: str) -> Entry:
    """The organiser enters a bot, where the tournament allows bots."""
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        if tournament.organiser_id != user.pk:
            raise NotAllowed(gettext("Only the organiser can enter bots."))
        if not tournament.bots_allowed:
            raise ActionError(gettext("This tournament does not take bots."))
        if level not in dict(BOT_LEVELS) or level not in get_bots(tournament.game):
            raise ActionError(gettext("There is no such bot."))
        check_entry_open(tournament)
        return Entry.objects.create(tournament=tournament, bot_level=level)


def do_invite(tournament_id: int, user: User, username: str) -> Invitation:
    """The organiser lets a player enter (any tournament; needed for an invite-only one)."""
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        if tournament.organiser_id != user.pk:
            raise NotAllowed(gettext("Only the organiser can invite players."))
        check_entry_open(tournament)
        invitee = User.objects.filter(username__iexact=username.strip(), is_active=True).first()
        if invitee is None:
            raise ActionError(gettext("There is no player called %(name)r.") % {"name": username})
        if invitee.blocks.filter(blocked=user).exists():
            raise ActionError(gettext("%(name)s does not accept your invitations.") % {"name": invitee.username})
        invitation, _ = Invitation.objects.get_or_create(tournament=tournament, user=invitee)
        return invitation


def do_leave(tournament_id: int, user: User) -> Tournament:
    """Before the start: the entry goes. After: the player withdraws, is paired no more, and loses
    their running matches of the tournament at once (ruling TRN-8)."""
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        entry = tournament.entries.filter(user=user).first()
        if entry is None:
            raise ActionError(gettext("You have not entered this tournament."))
        if tournament.status == Tournament.Status.OPEN:
            entry.delete()
        elif tournament.status == Tournament.Status.RUNNING and entry.active:
            entry.withdrawn = True
            entry.save(update_fields=["withdrawn"])
            forfeit_running_matches(entry)
        else:
            raise ActionError(gettext("This tournament is over."))
        return tournament


def do_cancel(tournament_id: int, reason: str) -> Tournament:
    """A moderator (or the sweep, for too few entrants) cancels; the reason is kept. Matches
    already running go on as ordinary matches."""
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            raise ActionError(gettext("This tournament is over."))
        _cancel_locked(tournament, reason)
        return tournament


STALLED = gettext_noop("It could not go on: the site met the same error again and again, and the moderators see it.")


def do_cancel_stalled(tournament_id: int) -> None:
    """A tournament whose start or next round keeps failing is called off, its entrants and organiser
    told, so that nobody waits for a round that will not come; matches already running go on."""
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        if tournament.status in (Tournament.Status.OPEN, Tournament.Status.RUNNING):
            _cancel_locked(tournament, STALLED)


def _cancel_locked(tournament: Tournament, reason: str, tell_organiser: bool = True) -> None:
    tournament.status = Tournament.Status.CANCELLED
    tournament.ended = timezone.now()
    tournament.end_reason = reason[:300]
    tournament.save(update_fields=["status", "ended", "end_reason"])
    tell_entrants(
        tournament, Kind.TOURNAMENT_OVER, tell_organiser=tell_organiser
    )  # "cancelled", never the moderator's reason


def _check_organiser_before_start(tournament: Tournament, user: User) -> None:
    if tournament.organiser_id != user.pk:
        raise NotAllowed(gettext("Only the organiser can change this tournament."))
    if tournament.status != Tournament.Status.OPEN:
        raise ActionError(gettext("The tournament has started: only a moderator can change it now."))


def do_organiser_cancel(tournament_id: int, user: User) -> Tournament:
    """The organiser calls their tournament off before it starts; the entrants hear it is over."""
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        _check_organiser_before_start(tournament, user)
        # translated where shown; the organiser knows: only the entrants hear it
        _cancel_locked(tournament, gettext_noop("Cancelled by the organiser."), tell_organiser=False)
        return tournament


def fewest_to_start(tournament: Tournament) -> int:
    smallest, _ = seats_per_match(tournament.game, tournament.format, tournament.table_size)
    return max(tournament.min_entrants, smallest)


def do_organiser_start(tournament_id: int, user: User) -> str:
    """The organiser starts their tournament now instead of at its start time, once its fewest
    entrants are in: seeded and paired as at the start time. Returns "started"."""
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        _check_organiser_before_start(tournament, user)
        if tournament.entries.count() < fewest_to_start(tournament):
            raise ActionError(
                gettext("It can start once %(count)d players have entered.") % {"count": fewest_to_start(tournament)}
            )
        tournament.starts_at = timezone.now()
        tournament.save(update_fields=["starts_at"])
        return do_start_if_due(tournament_id)


def do_edit(tournament_id: int, user: User, chosen: TournamentSettings) -> Tournament:
    """The organiser changes their tournament before it starts, checked as at its creation; no
    fewer places than players entered."""
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        _check_organiser_before_start(tournament, user)
        options = check_create(user, chosen)
        if chosen.max_entrants < tournament.entries.count():
            raise ActionError(gettext("More players have entered than that maximum allows."))
        for field, value in vars(chosen).items():
            setattr(tournament, field, options if field == "options" else value)
        tournament.save()
        return tournament


def do_disqualify(entry_id: int, reason: str) -> Entry:
    """A moderator removes an entrant from further pairings, with the reason kept."""
    with transaction.atomic():
        entry = Entry.objects.select_related("tournament").get(pk=entry_id)
        lock_tournament(entry.tournament_id)
        entry.disqualified = True
        entry.reason = reason[:300]
        entry.save(update_fields=["disqualified", "reason"])
        return entry  # their running matches: the moderator re-pairs the round, or they play on (TRN-8)


def forfeit_running_matches(entry: Entry) -> int:
    """Ruling TRN-8: an entrant who is out (withdrawn or banned) loses every running match
    of the tournament at once, as their clock running out for good would have them lose it: in a game
    of two the opponent wins; in a bigger one a bot takes the seat for good (ALL-4) and they are ranked
    last (SITE-RESIGN). Called with the tournament locked; returns how many matches it changed."""
    seats = TableSeat.objects.filter(entry=entry, table__match__status=Match.Status.ACTIVE).select_related("table")
    for seat in seats:
        do_forfeit(seat.table.match_id, seat.number)
    return len(seats)


def do_forfeit_banned(user_id: int) -> int:
    """A banned player's running tournaments: each one's matches lost at once (TRN-8); they are paired
    no more (tournaments.standings.pairable reads is_active). Returns how many matches it changed."""
    changed = 0
    running = Entry.objects.filter(user_id=user_id, tournament__status=Tournament.Status.RUNNING)
    for entry_id, tournament_id in running.values_list("pk", "tournament_id"):
        with transaction.atomic():
            lock_tournament(tournament_id)
            changed += forfeit_running_matches(Entry.objects.get(pk=entry_id))
    return changed


def do_repair_round(tournament_id: int, moderator: User, reason: str) -> Round:
    """A moderator pairs the current round again, typically after disqualifying or withdrawing
    entrants: its matches still being played are aborted (with the reason, in the moderation log)
    and the round is paired anew. Refused once one of its matches has finished."""
    if not reason.strip():
        raise ActionError(gettext("Say why the round is paired again."))
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        if tournament.status != Tournament.Status.RUNNING or tournament.all_at_once:
            raise ActionError(gettext("Only a running tournament's current round can be paired again."))
        round_ = tournament.round_set.get(number=tournament.current_round)
        matches = [table.match for table in round_.tables.select_related("match") if table.match is not None]
        if any(match.status == Match.Status.FINISHED for match in matches):
            raise ActionError(gettext("A match of this round has finished: the round cannot be paired again."))
        for match in matches:
            if not match.is_over:
                abort(moderator, match.pk, reason)  # moderation's abort: logged with the match
        round_.delete()
        tournament.current_round -= 1
        ModerationLog.objects.create(
            moderator=moderator,
            action=f"re-pair tournament {tournament.pk} round {round_.number}"[:40],  # the log's field length
            reason=reason,
        )
        return pair_round(tournament)


def total_rounds(tournament: Tournament, entrants: int) -> int:
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        return pairing.round_robin_rounds(list(range(entrants)))
    if tournament.format == Tournament.Format.KNOCKOUT:
        return max(1, math.ceil(math.log2(max(entrants, 2))))
    return tournament.rounds


def do_start_if_due(tournament_id: int) -> str:
    """At its start time: cancel for too few entrants, or seed and pair the first round(s).
    Returns what happened ("started", "cancelled" or "" for nothing); safe to call again."""
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        if tournament.status != Tournament.Status.OPEN or tournament.starts_at > timezone.now():
            return ""
        entries = list(tournament.entries.all())
        if len(entries) < fewest_to_start(tournament):
            tournament.status = Tournament.Status.CANCELLED
            tournament.ended = timezone.now()
            tournament.end_reason = gettext_noop("Too few entrants.")  # translated where shown
            tournament.save(update_fields=["status", "ended", "end_reason"])
            tell_entrants(tournament, Kind.TOURNAMENT_OVER)
            return "cancelled"
        ratings = ratings_of(tournament.game, entries)
        for entry in entries:
            entry.rating = ratings[entry.pk]
        entries.sort(key=lambda e: (-e.rating, e.joined, e.pk))
        for seed, entry in enumerate(entries, start=1):
            entry.seed = seed
        Entry.objects.bulk_update(entries, ["rating", "seed"])
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
        rounds = total_rounds(tournament, len(entries))
        all_now = tournament.format == Tournament.Format.ROUND_ROBIN and tournament.all_at_once
        if all_now:
            pair_all_rounds(tournament, entries, rounds)
        else:
            pair_round(tournament)
        tell_entrants(tournament, Kind.TOURNAMENT_STARTED)
        return "started"


def do_advance_if_round_over(tournament_id: int) -> str:
    """When every match of the current round has ended: pair the next round, or finish.
    Returns "paired", "finished" or "" (nothing to do); safe to call again and from two workers."""
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        if tournament.status != Tournament.Status.RUNNING:
            return ""
        rounds = rounds_with_tables(tournament)
        tables = read_tables(tournament, rounds)
        all_over = all(read.over for reads in tables.values() for read in reads)
        entrants = tournament.entries.count()
        active = sum(pairable(entry) for entry in tournament.entries.select_related("user"))
        last = tournament.current_round >= total_rounds(tournament, entrants)
        knockout = tournament.format == Tournament.Format.KNOCKOUT
        knockout_won = knockout and len(tables[tournament.current_round]) == 1
        smallest, _ = seats_per_match(tournament.game, tournament.format, tournament.table_size)
        if last or knockout_won or active < smallest:
            if not all_over:
                return ""
            _finish(tournament, tables)
            return "finished"
        due = tournament.round_due(tournament.current_round + 1)
        if due is not None and due > timezone.now():
            return ""  # a fixed schedule: the next round not before its time
        if not all_over and (due is None or knockout):  # on schedule, only a knockout waits for its winners
            return ""
        pair_round(tournament, tables=tables)
        return "paired"


def _finish(tournament: Tournament, tables) -> None:
    places = {row.player: row.rank for row in compute_standings(tournament, tables)}
    if tournament.format == Tournament.Format.KNOCKOUT:
        places = knockout_places(tournament, tables)
    entries = list(tournament.entries.all())
    for entry in entries:
        entry.place = places.get(entry.pk)
    Entry.objects.bulk_update(entries, ["place"])
    tournament.status = Tournament.Status.FINISHED
    tournament.ended = timezone.now()
    tournament.save(update_fields=["status", "ended"])
    tell_entrants(tournament, Kind.TOURNAMENT_OVER)


def pair_round(tournament: Tournament, *, tables=None) -> Round:
    """Pair round current_round + 1 and create its matches (called with the tournament locked)."""
    if tables is None:
        tables = read_tables(tournament, rounds_with_tables(tournament))
    entries = {e.pk: e for e in tournament.entries.select_related("user")}
    number = tournament.current_round + 1
    planned = plan_round(tournament, number, entries, tables)
    seated = [
        [entries[i] for i in ids] for ids in planned.tables + ([(planned.bye,)] if planned.bye is not None else [])
    ]
    (round_,) = create_rounds([PlannedRound(tournament, number, seated)])
    tournament.current_round = number
    tournament.save(update_fields=["current_round"])
    return round_


def round_robin_plans(tournament: Tournament, entries: list[Entry], rounds: int) -> list[PlannedRound]:
    """Every round of an all-at-once round robin of these entries (all active, seeded), planned
    before any is played: the pairing needs no results (plan_round for round robins, in memory)."""
    seeded = sorted(entries, key=lambda e: (e.seed or 0, e.pk))
    by_id = {e.pk: e for e in seeded}
    plans = []
    for number in range(1, rounds + 1):
        planned = pairing.round_robin_round([e.pk for e in seeded], number - 1)
        ids = planned.tables + ([(planned.bye,)] if planned.bye is not None else [])
        plans.append(PlannedRound(tournament, number, [[by_id[i] for i in table] for table in ids]))
    return plans


def pair_all_rounds(tournament: Tournament, entries: list[Entry], rounds: int) -> None:
    """An all-at-once round robin's rounds, every match created now (called with the tournament locked)."""
    create_rounds(round_robin_plans(tournament, entries, rounds))
    tournament.current_round = rounds
    tournament.save(update_fields=["current_round"])


def plan_round(tournament: Tournament, number: int, entries: dict[int, Entry], tables) -> pairing.Round:
    """The pairing of round `number` by the tournament's format (tournaments/pairing.py)."""
    seeded = sorted(entries.values(), key=lambda e: (e.seed or 0, e.pk))
    active = [e.pk for e in seeded if pairable(e)]
    fmt = tournament.format
    if fmt == Tournament.Format.ROUND_ROBIN:
        return _without_withdrawn(pairing.round_robin_round([e.pk for e in seeded], number - 1), set(active))
    if fmt == Tournament.Format.KNOCKOUT:
        if number == 1:
            return pairing.knockout_first_round(active)
        return pairing.knockout_next_round(knockout_winners(tables[number - 1], entries))
    history = swiss_players(entries, tables)
    ranked = [p.id for p in pairing.swiss_rank(history[i] for i in active)]
    if fmt == Tournament.Format.TABLES:
        engine = get_engine(tournament.game)  # ruling TRN-9: a table may grow past the organiser's size
        firsts = {i: history[i].firsts for i in active}
        return pairing.tables_round(ranked, firsts, engine.min_players, engine.max_players, tournament.table_size)
    return pairing.swiss_round([history[i] for i in active])


def _without_withdrawn(planned: pairing.Round, active: set[int]) -> pairing.Round:
    """A round robin round with the withdrawn left out: their opponents have a bye (one table each)."""
    tables, byes = [], []
    for table in planned.tables:
        staying = [p for p in table if p in active]
        (tables if len(staying) == 2 else byes).append(tuple(staying))
    if planned.bye in active:
        byes.append((planned.bye,))
    return pairing.Round(tables + [b for b in byes if b])


def swiss_players(entries: dict[int, Entry], tables) -> dict[int, pairing.SwissPlayer]:
    """Each entry's score, opponents, seats and byes so far, for Swiss and table pairings."""
    score: dict[int, Fraction] = {i: Fraction(0) for i in entries}
    opponents: dict[int, set[int]] = {i: set() for i in entries}
    firsts = dict.fromkeys(entries, 0)
    seconds = dict.fromkeys(entries, 0)
    byes: set[int] = set()
    for reads in tables.values():
        for read in reads:
            ids = [e.pk for e in read.entries]
            if read.table.is_bye:
                byes.update(ids)
                score[ids[0]] += 1  # TRN-4
                continue
            firsts[ids[0]] += 1
            for n, i in enumerate(ids):
                opponents[i].update(j for j in ids if j != i)
                seconds[i] += n > 0
                score[i] += read.points[n] if read.points else 0
    return {
        i: pairing.SwissPlayer(i, float(score[i]), e.rating, frozenset(opponents[i]), firsts[i], seconds[i], i in byes)
        for i, e in entries.items()
    }


def knockout_places(tournament: Tournament, tables) -> dict[int, int]:
    """The winner 1, the final's loser 2, the semi-finals' losers 3, and so on (shared places)."""
    entries = {e.pk: e for e in tournament.entries.select_related("user")}
    places: dict[int, int] = {}
    for number in sorted(tables, reverse=True):
        reads = tables[number]
        won = set(knockout_winners(reads, entries))
        for read in reads:
            for entry in read.entries:
                if entry.pk not in places and entry.pk not in won:
                    places[entry.pk] = len(reads) + 1
        if number == max(tables):
            for pk in won:
                places.setdefault(pk, 1)
    return places


def due_to_start() -> list[int]:
    return list(
        Tournament.objects.filter(status=Tournament.Status.OPEN, starts_at__lte=timezone.now()).values_list(
            "pk", flat=True
        )
    )


def rounds_maybe_over() -> list[int]:
    """Running tournaments whose current round has no match still open or in play, or whose next
    round is due on their fixed schedule."""
    busy = set(
        Table.objects.filter(
            round__tournament__status=Tournament.Status.RUNNING,
            match__status__in=[Match.Status.OPEN, Match.Status.ACTIVE],
        ).values_list("round__tournament_id", flat=True)
    )
    running = Tournament.objects.filter(status=Tournament.Status.RUNNING)
    now = timezone.now()
    return [
        t.pk
        for t in running.only("pk", "starts_at", "round_hours", "current_round")
        if t.pk not in busy or (t.round_hours is not None and t.round_due(t.current_round + 1) <= now)
    ]
