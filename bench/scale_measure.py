"""The measurement of bench/scale.py: each built database through gunicorn with production settings.

For each database: a helper process (this file run as a script, with the database's DATABASE_URL)
signs in the heavy player and the admin, issues API tokens and finds the pages' ids; gunicorn serves
the site (bench/web.py's start_gunicorn, bench_env: DEBUG=false, Redis cache when it answers); each
page is requested `requests` times in turn after warm-ups, one at a time, and timed at the client; the
helper then times the minute sweep's tasks in-process; the table sizes come from pg_total_relation_size.
"""

from __future__ import annotations

import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

HEAVY_NAME = "heavy"
PAGE_GAME = "doubting-flower-field"
WARMUP = 3
SWEEP_RUNS = 100  # a task of 1 ms: the p95 of 20 runs was its second worst, one stray pause
TOURNAMENT_RUNS = 20
TARGET_RATIO = 1.5
TARGET_P95_MS = 50.0


def pages(facts: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(label, path, who): who is "heavy" (session), "admin" (session) or "api1"/"api2" (token)."""
    found = [
        ("dashboard", "/", "heavy"),
        ("profile", f"/players/{HEAVY_NAME}/", "heavy"),
        ("inbox", "/inbox/", "heavy"),
        ("inbox deep page", f"/inbox/?before={facts['inbox_deep']}", "heavy"),
        ("lobby (new match)", "/matches/new/", "heavy"),
        ("running board", f"/matches/{facts['running']}/", "heavy"),
        ("finished replay", f"/matches/{facts['finished']}/replay/", "heavy"),
        ("move history", f"/matches/{facts['finished']}/history/", "heavy"),
        ("finished matches", f"/players/{HEAVY_NAME}/matches/", "heavy"),
        ("finished matches deep page", f"/players/{HEAVY_NAME}/matches/?before={facts['matches_deep']}", "heavy"),
        ("admin changelist", "/admin/games/match/", "admin"),
        ("admin search", f"/admin/games/match/?q={HEAVY_NAME}", "admin"),
        ("api matches", "/api/v1/matches", "api1"),
        ("api deepest page", f"/api/v1/matches?before={facts['api_deep']}", "api2"),
    ]
    for game in facts["games"]:
        found.append((f"leaderboard {game}", f"/leaderboards/{game}/", "heavy"))
    return found


def get(port: int, path: str, headers: dict[str, str]) -> tuple[int, float, int]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    started = time.perf_counter()
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()
    body = response.read()
    seconds = time.perf_counter() - started
    conn.close()
    return response.status, seconds, len(body)


def headers_for(facts: dict[str, Any]) -> dict[str, dict[str, str]]:
    auth = {
        "heavy": {"Cookie": f"sessionid={facts['heavy_session']}"},
        "admin": {"Cookie": f"sessionid={facts['admin_session']}"},
        "api1": {"Authorization": f"Bearer {facts['token1']}"},
        "api2": {"Authorization": f"Bearer {facts['token2']}"},
    }
    return {who: {"Host": "127.0.0.1", "Accept-Encoding": "gzip", **extra} for who, extra in auth.items()}


def measure_pages(sites: dict[str, dict[str, Any]], requests: int) -> dict[str, dict[str, dict[str, Any]]]:
    """Each page on every database in turn, request by request: the machine's load (shared with
    other work) falls on both alike, so the ratio full/small stays meaningful."""
    results: dict[str, dict[str, dict[str, Any]]] = {label: {} for label in sites}
    plans = {label: pages(site["facts"]) for label, site in sites.items()}
    for index, (page, _, _) in enumerate(next(iter(plans.values()))):
        times: dict[str, list[float]] = {label: [] for label in sites}
        statuses: dict[str, set[int]] = {label: set() for label in sites}
        for round_ in range(WARMUP + requests):
            for label, site in sites.items():
                _, path, who = plans[label][index]
                status, seconds, _size = get(site["port"], path, site["headers"][who])
                if round_ >= WARMUP:
                    statuses[label].add(status)
                    times[label].append(seconds * 1000)
        line = []
        for label in sites:
            _, path, _ = plans[label][index]
            results[label][page] = {"path": path, "statuses": sorted(statuses[label]), **percentiles(times[label])}
            figures = results[label][page]
            line.append(f"{label} {figures['p50']:7.1f} {figures['p95']:7.1f} {sorted(statuses[label])}")
        print(f"    {page:36} " + " | ".join(line), flush=True)
    return results


def percentiles(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {"p50": statistics.median(ordered), "p95": ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]}


def helper(env: dict[str, str], command: str) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, __file__, command], cwd=REPO, env=env, check=True, capture_output=True, text=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def table_sizes(url: str) -> dict[str, int]:
    import psycopg

    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT relname, pg_total_relation_size(c.oid) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY 2 DESC LIMIT 12"
        ).fetchall()
        total = conn.execute("SELECT pg_database_size(current_database())").fetchone()[0]
    return {"(database)": total, **dict(rows)}


def start_site(name: str) -> dict[str, Any]:
    from bench.scale import db_url
    from bench.web.database import bench_env
    from bench.web.server import start_gunicorn
    from dizzysite.netutil import free_port

    var_dir = Path(tempfile.mkdtemp(prefix="dizzy-scale-"))
    env = bench_env(var_dir)
    env["DATABASE_URL"] = db_url(name)
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=REPO, env=env, check=True)
    facts = helper(env, "prepare")
    port = free_port()
    process = start_gunicorn(env, port, 2, var_dir / "gunicorn.log")
    return {"name": name, "env": env, "facts": facts, "port": port, "process": process, "headers": headers_for(facts)}


def measure_all(names: dict[str, str], requests: int, builds: dict[str, Any]) -> dict[str, Any]:
    from bench.scale import db_url
    from bench.web.server import stop_gunicorn

    sites: dict[str, dict[str, Any]] = {}
    try:
        for label, name in names.items():
            sites[label] = start_site(name)
        print(f"  page p50/p95 in ms over {requests} requests each, databases in turn", flush=True)
        page_figures = measure_pages(sites, requests)
    finally:
        for site in sites.values():
            stop_gunicorn(site["process"])
    measured = {}
    env = {**sites["full"]["env"], "SCALE_SWEEP_DATABASES": ",".join(f"{k}={v}" for k, v in names.items())}
    sweeps = helper(env, "sweep")
    for label, site in sites.items():
        sweep = sweeps[label]
        print(f"    {label} catch-up before the timed runs: {sweep.pop('caught up')}", flush=True)
        for task, figures in sweep.items():
            print(f"    {label} {task:36} {figures['p50']:8.1f} {figures['p95']:8.1f} ms", flush=True)
        measured[label] = {"pages": page_figures[label], "sweep": sweep, "sizes": table_sizes(db_url(site["name"]))}
    print_table(measured)
    print(json.dumps({"scale": measured, "builds": builds}, default=str))
    return measured


def print_table(measured: dict[str, Any]) -> None:
    small, full = measured.get("small"), measured["full"]
    print("\n| what | small p50 | small p95 | full p50 | full p95 | ratio p95 | ok |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for kind in ("pages", "sweep"):
        for label, figures in full[kind].items():
            base = small[kind][label] if small else None
            ratio = figures["p95"] / base["p95"] if base else float("nan")
            ok = figures["p95"] < TARGET_P95_MS if kind == "pages" else True
            ok = ok and (base is None or ratio <= TARGET_RATIO)
            cells = [f"{base['p50']:.1f}", f"{base['p95']:.1f}"] if base else ["", ""]
            row = [
                label,
                *cells,
                f"{figures['p50']:.1f}",
                f"{figures['p95']:.1f}",
                f"{ratio:.2f}",
                "yes" if ok else "NO",
            ]
            print("| " + " | ".join(row) + " |")
    print("\n| table | small MB | full MB |")
    print("|---|---:|---:|")
    for table, size in full["sizes"].items():
        base = small["sizes"].get(table, 0) if small else 0
        print(f"| {table} | {base / 2**20:.1f} | {size / 2**20:.1f} |")


# --- the helper process (Django on the measured database) --------------------------------------


def prepare() -> dict[str, Any]:
    from django.db.models import Case, When
    from django.test import Client

    from accounts.models import User
    from api.models import ApiToken
    from games.engines.registry import GAMES
    from games.models import Match, Seat
    from notifications.models import Notification
    from ratings import views as ratings_views

    heavy = User.objects.get(username=HEAVY_NAME)
    admin = User.objects.get(username="admin")
    sessions = {}
    for label, user in (("heavy_session", heavy), ("admin_session", admin)):
        client = Client()
        client.force_login(user)
        sessions[label] = client.cookies["sessionid"].value
    ApiToken.objects.filter(user=heavy).delete()
    tokens = {f"token{n}": ApiToken.issue(heavy, f"scale {n}")[1] for n in (1, 2)}
    # The same game's board and replay on both databases (PAGE_GAME when the heavy player has one):
    # the ratio compares like with like.
    seats = Seat.objects.filter(user=heavy).order_by(Case(When(match__game=PAGE_GAME, then=0), default=1), "-match_id")
    running = seats.filter(match__status=Match.Status.ACTIVE).first().match_id
    finished_ids = seats.filter(match__status=Match.Status.FINISHED).values_list("match_id", flat=True)
    finished = (
        Match.objects.filter(pk__in=finished_ids)
        .order_by(Case(When(game=PAGE_GAME, then=0), default=1), "-id")
        .first()
        .pk
    )
    oldest = seats.order_by("match_id").values_list("match_id", flat=True)[:2]
    # The last full page of the heavy player's finished matches: below the 26th oldest, 25 rows.
    page = ratings_views.PLAYER_MATCHES_PAGE
    deep = list(finished_ids.order_by("match_id")[page : page + 1]) or [1]
    inbox = Notification.objects.filter(recipient=heavy).order_by("id").values_list("id", flat=True)[:2]
    return {
        **sessions,
        **tokens,
        "running": running,
        "finished": finished,
        "api_deep": oldest[len(oldest) - 1] + 1 if oldest else 1,
        "inbox_deep": inbox[len(inbox) - 1] + 1 if inbox else 1,
        "matches_deep": deep[0],
        "games": list(GAMES),
    }


def sweep() -> dict[str, Any]:
    """The periodic tasks of the beat schedule that run every minute or few (and the daily digest),
    timed in-process; the queued follow-ups go to the in-memory broker. The databases named in
    SCALE_SWEEP_DATABASES ("label=name,...") take turns, ROUNDS times per task, as the pages do: a
    task of a millisecond or two is timed on both under the same load."""
    import time_machine
    from django.utils import timezone

    databases = dict(pair.split("=") for pair in os.environ["SCALE_SWEEP_DATABASES"].split(","))
    tasks = sweep_tasks()
    # One instant for every run: a catch-up run does what fell due since the build (the full database's
    # 50,000 running matches have about 7 deadlines a minute, the small one's hardly any), then the
    # timed runs find the same nothing due on both, so the ratio is the queries', not the workload's.
    with time_machine.travel(timezone.now(), tick=False):
        caught_up = {}
        for label, name in databases.items():
            use_database(name)
            caught_up[label] = catch_up(tasks)
        timed = {
            **{f"task {label}": (task, SWEEP_RUNS) for label, task in tasks.items()},
            "sweep_deadlines' two queries": (deadline_queries, SWEEP_RUNS),
            "tournament start, 64 entrants": (tournament_start, TOURNAMENT_RUNS),
        }
        times: dict[str, dict[str, list[float]]] = {label: {} for label in databases}
        for what, (run, runs) in timed.items():
            for _ in range(ROUNDS):
                for label, name in databases.items():
                    use_database(name)
                    run()  # warm: the connection, the caches
                    times[label].setdefault(what, []).extend(timed_runs(run, runs // ROUNDS))
    return {
        label: {**{what: percentiles(t) for what, t in times[label].items()}, "caught up": caught_up[label]}
        for label in databases
    }


ROUNDS = 10


def use_database(name: str) -> None:
    """The database `name`, and a cache of its own as each site would have (the deadline timer's lease
    is kept there)."""
    from django.core.cache import cache
    from django.db import connection

    connection.close()
    connection.settings_dict["NAME"] = name
    cache.key_prefix = name


def timed_runs(run, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        run()
        times.append((time.perf_counter() - started) * 1000)
    return times


def sweep_tasks() -> dict[str, Any]:
    from games import tasks as game_tasks
    from notifications import tasks as notification_tasks
    from push import tasks as push_tasks
    from tournaments import tasks as tournament_tasks

    return {
        "sweep_deadlines": game_tasks.sweep_deadlines,
        "send_reminders": game_tasks.send_reminders,
        "end_used_up_vacations": game_tasks.end_used_up_vacations,
        "resend_waiting_notifications": notification_tasks.resend_waiting_notifications,
        "resend_waiting_pushes": push_tasks.resend_waiting_pushes,
        "send_digests": notification_tasks.send_digests,
        "sweep_tournaments": tournament_tasks.sweep_tournaments,
        "archive_ended_matches": game_tasks.archive_ended_matches,
    }


def deadline_queries() -> None:
    """sweep_deadlines' own reads, without what it then does: the passed deadlines (none once the
    catch-up ran) and the first deadline of the coming 90 s (SWEEP_LOOKAHEAD_SECONDS), which the
    sweep reads when no deadline timer is going."""
    from django.utils import timezone

    from games.models import Match
    from games.tasks import next_deadline

    now = timezone.now()
    active = Match.objects.filter(status=Match.Status.ACTIVE)
    list(active.filter(deadline__lte=now).order_by("deadline").values_list("pk", "version")[:500])
    next_deadline(now)


def tournament_start() -> None:
    """The tournaments issue's pairing on this history: a Swiss of 64 players (the heavy one among
    them) is made and starts, reading their ratings, seeding, pairing round 1 and starting its 32
    matches (tournaments.actions.do_start_if_due), in a transaction rolled back afterwards."""
    from datetime import timedelta

    from django.db import transaction
    from django.utils import timezone

    from accounts.models import User
    from games.engines.registry import get_engine
    from tournaments import actions
    from tournaments.models import Entry, Tournament

    players = list(User.objects.filter(is_active=True, is_bot=False).exclude(username="admin").order_by("id")[:64])
    with transaction.atomic():
        # Made as do_create makes it, without its checks: the generated players have no verified
        # email address (allauth's rows), which they would need to enter.
        tournament = Tournament.objects.create(
            organiser=players[0],
            name="Scale",
            game=PAGE_GAME,
            format=Tournament.Format.SWISS,
            starts_at=timezone.now() - timedelta(seconds=1),
            options=get_engine(PAGE_GAME).parse_options({}, 2),
        )
        Entry.objects.bulk_create([Entry(tournament=tournament, user=user) for user in players])
        assert actions.do_start_if_due(tournament.pk) == "started"
        transaction.set_rollback(True)


def catch_up(tasks: dict[str, Any]) -> dict[str, Any]:
    """Run the deadline sweep once and time it, then mark the rows it wrote sent, as the worker this
    bench does not run would within seconds (its broker is in memory): otherwise each resend run
    queues them all again. Every pending row here was written by a measurement; the build writes none."""
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Match
    from games.tasks import SWEEP_LOOKAHEAD_SECONDS
    from notifications.models import Notification
    from push.models import PushDelivery

    active = Match.objects.filter(status=Match.Status.ACTIVE)
    due = active.filter(deadline__lte=timezone.now()).count()
    ahead = timezone.now() + timedelta(seconds=SWEEP_LOOKAHEAD_SECONDS)
    started = time.perf_counter()
    tasks["sweep_deadlines"]()
    ms = (time.perf_counter() - started) * 1000
    sent = Notification.objects.filter(status=Notification.Status.PENDING).update(status=Notification.Status.SENT)
    pushed = PushDelivery.objects.filter(status=PushDelivery.Status.PENDING).update(status=PushDelivery.Status.SENT)
    return {
        "deadlines": due,
        "ms": round(ms, 1),
        "notifications marked sent": sent,
        "pushes marked sent": pushed,
        "deadlines in the next 90 s (the timer's)": active.filter(deadline__lte=ahead).count(),
    }


if __name__ == "__main__":
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.web_settings")
    django.setup()
    command = sys.argv[1]
    print(json.dumps({"prepare": prepare, "sweep": sweep}[command]()))
