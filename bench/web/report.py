"""Stage 7: the report: a table, where the time goes, the targets as met or not, and the figures for
the final JSON line."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from bench.web.config import (
    BOARD_TARGET,
    MAX_BOARD_KB,
    MAX_BOARD_QUERIES,
    MOVE_TARGET,
    PLAYERS,
    POLL_TARGET,
    ROUNDS,
    Options,
    underscored,
)
from bench.web.load import css_imports
from bench.web.loading import Loaded
from bench.web_load import LoadResult


def game_name(game: str) -> str:
    from games.engines.registry import GAMES

    return GAMES.get(game, game)


def label_of(name: str) -> str:
    labels = {
        "bare": "bare view /bench/bare/ (logged in)",
        "bare_anon": "bare view, anonymous (info)",
        "poll": "idle poll (HX, since=rev: 204)",
        "move": "move POST (HX, Solitaire Chess)",
    }
    boards = {f"board_{underscored(game)}": f"board: {game_name(game)}" for game in PLAYERS}
    return {**labels, **boards}.get(name, name)


def print_load_table(results: dict[str, LoadResult], queries: dict[str, Any]) -> None:
    base, base_cpu = results["bare"].rps or 1e-9, results["bare"].server_cpu_ms
    header = f"{'endpoint':36} {'ok':>6} {'failed':>6} {'req/s':>7} {'p50 ms':>7} {'p99 ms':>7} {'vs bare':>7}"
    header += f" {'CPU ms':>7} {'vs bare':>7} {'queries':>7}"
    print(header)
    print("-" * len(header))
    for name, result in results.items():
        q = queries.get(name, "")
        if name.startswith("board_"):
            q = next((v.get("late", "") for g, v in queries["boards"].items() if name == f"board_{underscored(g)}"), "")
        cpu_ms = result.server_cpu_ms
        cpu_ratio = f"{base_cpu / cpu_ms:7.0%}" if cpu_ms else f"{'-':>7}"
        print(
            f"{label_of(name):36} {result.ok:6d} {result.failed:6d} {result.rps:7.1f} {result.percentile_ms(0.5):7.1f} "
            f"{result.percentile_ms(0.99):7.1f} {result.rps / base:7.0%} {cpu_ms:7.2f} {cpu_ratio} {q!s:>7}"
        )
    print(
        "(req/s and latencies as the client saw them; CPU ms: gunicorn workers plus PostgreSQL backends per "
        "request; its 'vs bare' is the throughput ratio the CPU cost predicts, little moved by other programs)"
    )
    for name, result in results.items():
        if result.failed:
            print(f"  {name}: {result.failed} failed requests; first: {result.first_failure}")
        if result.exhausted:
            print(f"  {name}: ran out of prepared requests after {result.seconds:.1f} s")


def add_ceilings(parts: dict[str, dict[str, Any]], bare_cpu_ms: float) -> None:
    """The most each board page's ratio could be if all its data came free: the server's CPU for the
    bare view, plus drawing the board (engine view, legal moves, presenter, Jinja page, gzip)."""
    for part in parts.values():
        if "drawing" in part and bare_cpu_ms:
            part["ceiling"] = round(bare_cpu_ms / (bare_cpu_ms + part["drawing"]), 3)


def print_breakdown(parts: dict[str, dict[str, Any]]) -> None:
    print(
        "Where a late board page's time goes (in-process, one thread, median CPU ms of the Python side; each "
        "step timed alone on prepared input; context = player_view and the chat, its rest: its queries (chat; "
        "history where one), ORM, clocks; other: middleware, view code, Django's response; DB: the queries' wall time; "
        "with its data free: the ratio if the server paid only the bare view's CPU and drawing the board):"
    )
    for game, p in parts.items():
        if "error" in p:
            print(f"  {game_name(game)}: ERROR {p['error']}")
            continue
        django_board = f", Django board {p['django_board']:.1f}" if p["django_board"] else ""
        print(
            f"  {game_name(game)}: page {p['page']:.1f} (at move 1: {p['page_move1']:.1f}) = bare {p['bare']:.1f}"
            f" + presence {p['presence']:.1f} + match {p['match']:.1f} + context {p['context']:.1f} [view "
            f"{p['view']:.1f}, legal {p['legal']:.1f}, presenter {p['presenter']:.1f}, chat {p['chat']:.1f}"
            f"{django_board}, rest {p['context_rest']:.1f}] + Jinja page {p['templates']:.1f} [frame "
            f"{p['frame']:.1f}] + gzip {p['gzip']:.1f} + other {p['other']:.1f}; {p['queries']} queries, "
            f"DB {p['db']:.1f}" + (f"; with its data free: at most {p['ceiling']:.0%}" if "ceiling" in p else "")
        )
    sql = next((p["sql"] for p in parts.values() if "sql" in p), [])
    print(f"  The queries of a board page: {', '.join(sql)}")


def print_move_queries(queries: dict[str, Any]) -> None:
    print(f"The queries of a move POST ({queries['move']}): {', '.join(queries['move_sql'])}")


def targets(
    ratios: dict[str, float], by_cpu: Callable[[str], str], queries: dict[str, Any], pages: dict[str, Any]
) -> list[tuple[str, bool, str]]:
    """(label, met, figure) for each target."""
    rows = []
    for game in PLAYERS:
        key = f"board_{underscored(game)}"
        label = f"{game_name(game)} board page >= {BOARD_TARGET:.0%} of baseline (guard)"
        rows.append((label, ratios[key] >= BOARD_TARGET, by_cpu(key)))
    label = f"move throughput >= {MOVE_TARGET:.0%} of baseline (guard)"
    rows.append((label, ratios["move"] >= MOVE_TARGET, by_cpu("move")))
    label = f"idle poll throughput >= {POLL_TARGET:.0%} of baseline (guard)"
    rows.append((label, ratios["poll"] >= POLL_TARGET, by_cpu("poll")))
    for game, counts in queries["boards"].items():
        label = f"{game_name(game)}: <= {MAX_BOARD_QUERIES} queries per board page, the same at move 1 and late"
        if "error" in counts:
            rows.append((label, False, counts["error"]))
            continue
        met = max(counts.values()) <= MAX_BOARD_QUERIES and len(set(counts.values())) == 1
        rows.append((label, met, ", ".join(f"{k}: {v}" for k, v in counts.items())))
    for game, page in pages.items():
        label = f"{game_name(game)}: <= {MAX_BOARD_KB:g} KB compressed, served compressed"
        if "error" in page:
            rows.append((label, False, page["error"]))
            continue
        met = page["kb"] <= MAX_BOARD_KB and page["served_compressed"]
        encoding = "gzip" if page["served_compressed"] else "NOT compressed"
        rows.append((label, met, f"{page['kb']:.1f} KB as served ({encoding}), {page['raw_kb']:.1f} KB of HTML"))
    imports = css_imports()
    rows.append(("no @import in static/css", not imports, ", ".join(imports) or "none"))
    links = {game: page.get("stylesheets") for game, page in pages.items()}
    rows.append(
        (
            "one stylesheet link per board page besides css/site.css",
            all(n == 1 for n in links.values()),
            ", ".join(f"{game_name(g)}: {n}" for g, n in links.items()),
        )
    )
    return rows


def print_targets(rows: list[tuple[str, bool, str]]) -> list[str]:
    print()
    print("Targets:")
    for label, met, figure in rows:
        print(f"  {'MET    ' if met else 'NOT MET'}  {label}: {figure}")
    missed = [label for label, met, _ in rows if not met]
    if missed:
        print(f"  {len(missed)} target(s) not met (a measurement, not a test: exit status stays 0).")
    else:
        print("  All targets met.")
    return missed


def report(
    results: dict[str, LoadResult],
    queries: dict[str, Any],
    parts: dict[str, dict[str, Any]],
    pages: dict[str, dict[str, Any]],
    loaded: Loaded,
    opts: Options,
    load_avg: tuple[float, float],
) -> dict[str, Any]:
    base, base_cpu = results["bare"].rps or 1e-9, results["bare"].server_cpu_ms
    ratios = {name: result.rps / base for name, result in results.items()}

    def by_cpu(name: str) -> str:
        cpu_ms, failed = results[name].server_cpu_ms, results[name].failed
        text = f"{ratios[name]:.0%}" + (f" (by server CPU: {base_cpu / cpu_ms:.0%})" if cpu_ms else "")
        return text + (f", {failed} failed requests" if failed else "")

    late = {game: sorted(loaded.history[i] for i in loaded.pick(game, late=True)) for game in PLAYERS}
    print()
    print(
        f"Web benchmark: gunicorn -w {opts.workers} (sync) on PostgreSQL, DEBUG=false, {opts.threads} client "
        f"threads, {opts.seconds:g} s per endpoint in {ROUNDS} interleaved rounds after {opts.warmup:g} s warm-up, "
        f"{len(loaded.match_ids)} active matches, half at move 1, half late; moves played in the late ones: "
        + ", ".join(f"{game_name(g)} ({PLAYERS[g]} seats) {m[0]}-{m[-1]}" for g, m in late.items() if m)
    )
    print_load_table(results, queries)
    cores = os.cpu_count() or 1
    print(f"Machine load average before/after the load: {load_avg[0]:.1f} / {load_avg[1]:.1f} on {cores} cores", end="")
    print(" - busy: figures are noisy" if max(load_avg) > cores else "")
    add_ceilings(parts, base_cpu)
    print_breakdown(parts)
    print_move_queries(queries)
    missed = print_targets(targets(ratios, by_cpu, queries, pages))
    return figures_json(results, ratios, queries, parts, pages, missed)


def figures_json(
    results: dict[str, LoadResult],
    ratios: dict[str, float],
    queries: dict[str, Any],
    parts: dict[str, dict[str, Any]],
    pages: dict[str, dict[str, Any]],
    missed: list[str],
) -> dict[str, Any]:
    counts = [n for c in queries["boards"].values() if "error" not in c for n in c.values()]
    sizes = [page["kb"] for page in pages.values() if "error" not in page]
    figures: dict[str, Any] = {
        "move_ratio": round(ratios["move"], 3),
        "poll_ratio": round(ratios["poll"], 3),
        "queries_max": max(counts) if counts else None,
        "board_kb_max": max(sizes) if sizes else None,
        "queries_bare": queries["bare"],
        "queries_poll": queries["poll"],
        "queries_move_post": queries["move"],
        "css_imports": css_imports(),
    }
    for game in PLAYERS:
        slug = underscored(game)
        figures[f"board_ratio_{slug}"] = round(ratios[f"board_{slug}"], 3)
        figures[f"queries_{slug}"] = queries["boards"][game]
        figures[f"page_{slug}"] = pages[game]
        figures[f"breakdown_ms_{slug}"] = parts[game]
    for name, result in results.items():
        figures[f"{name}_rps"] = round(result.rps, 1)
        figures[f"{name}_p50_ms"] = round(result.percentile_ms(0.5), 2)
        figures[f"{name}_p99_ms"] = round(result.percentile_ms(0.99), 2)
        figures[f"{name}_cpu_ms"] = round(result.server_cpu_ms, 2)
        figures[f"{name}_failed"] = result.failed
    figures["moves_ok"] = results["move"].ok
    figures["targets_missed"] = missed
    figures["all_targets_met"] = not missed
    return figures
