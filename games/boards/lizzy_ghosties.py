"""Drawing context for Lizzy Ghosties: a round table of Lizzies and ghosts, the Burn Lizzy and the
side stack in the middle, the decision being taken now, the last draw (or dice) and the end.

Everything here comes from the viewer's engine view and legal moves (rulings LG-2, ALL-3): a stack
is its top card and its size, a ghost pile and the side stack only a size. Move buttons are offered
only for moves in `info.legal`. Card pictures: lizzy_cards; the Dizzy Dice are drawn here.
"""

from __future__ import annotations

from typing import Any

from games.boards.lizzy_cards import FILLS, CardArt
from games.engines.dizzy_cards import PARTS, describe, parse
from games.engines.lizzy_ghosties.rules import BURN, info_with
from games.models import fill_names
from games.presenters import PlayerView, move_json

# The ring of places around the table on a 3 x 3 grid (row, column), clockwise seen from above,
# beginning at the bottom middle where the viewer sits; the middle cell is the table itself.
RING = ((3, 2), (3, 1), (2, 1), (1, 1), (1, 2), (1, 3), (2, 3), (3, 3))
# Which ring places are used for each number of players: spread evenly, the viewer at the bottom.
LAYOUT = {
    3: (0, 2, 6),
    4: (0, 2, 4, 6),
    5: (0, 2, 3, 5, 6),
    6: (0, 1, 3, 4, 5, 7),
    7: (0, 1, 2, 3, 5, 6, 7),
    8: (0, 1, 2, 3, 4, 5, 6, 7),
}
PHASES = {
    "opening": ("Opening", "every player is still a Lizzy"),
    "transition": ("Transition", "ghosts haunt the living Lizzies"),
    "showdown": ("Showdown", "team Lizzies against team Ghosties"),
    "over": ("Game over", "the cards are counted"),
}
EVENT_NAMES = {"steal": "steal event", "burn": "burn event", "ghost": "ghost event"}


def _die(card: str, part: str) -> dict[str, str]:
    """One Dizzy Die face (ruling LZ-3) read from the throw's card name: colour, pattern, words."""
    face = parse(card)
    return {
        "part": part,
        "colour": face.colour,
        "pattern": face.pattern,
        "fill": FILLS[face.colour],
        "words": f"{face.colour} {face.pattern}",
    }


def _tops(stacks: dict[str, dict[str, Any]] | None) -> list[str | None]:
    if not stacks:
        return [None, None, None]
    return [stacks[part]["top"] for part in PARTS]


def _lizzy_words(lizzy: dict[str, Any] | None) -> str:
    """What a Lizzy's top cards make (ruling LZ-2), in words."""
    if not lizzy:
        return ""
    if not lizzy["complete"]:
        return "incomplete: a stack is empty"
    if not lizzy["valid"]:
        return "not a valid Lizzy"
    bits = []
    if lizzy["colours"]:
        bits.append(f"colours all {'the same' if lizzy['colours'] == 'same' else 'different'}")
    if lizzy["patterns"]:
        bits.append(f"patterns all {'the same' if lizzy['patterns'] == 'same' else 'different'}")
    kind = "golden double" if lizzy["golden"] else ("double" if lizzy["double"] else "valid")
    return f"{kind}: {' and '.join(bits)}"


def _and(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def build(info: PlayerView, params: dict[str, str]) -> dict[str, Any]:
    view = info.view or {}
    art = CardArt("lg")
    players: int = view.get("players", len(info.seats))
    viewer = info.seat
    names = {s.number: s.name for s in info.seats}
    fill = {f"p{n}": name for n, name in names.items()}
    phase = view.get("phase", "opening")
    over = phase == "over"
    pending = view.get("pending")
    event = pending["event"] if pending else None
    showdown = view.get("showdown")
    seats_view = view.get("seats", [])
    legal = info.legal if info.my_turn and not over else []

    def name(seat: int) -> str:
        return names.get(seat, f"seat {seat + 1}")

    def whose(source: int | str) -> str:
        if source == BURN:
            return "the Burn Lizzy's"
        return "your" if source == viewer else f"{name(source)}'s"

    def onto(seat: int) -> str:
        return "your Lizzy" if seat == viewer else f"{name(seat)}'s Lizzy"

    def stacks_of(source: int | str) -> dict[str, dict[str, Any]] | None:
        if source == BURN:
            return view["burn"]["stacks"]
        return seats_view[source]["stacks"]

    def top(source: int | str, part: str) -> str:
        return stacks_of(source)[part]["top"]

    def makes_double(receiver: list[str | None], card: str) -> bool:
        found = info_with(receiver, card)
        return bool(found and found.double)

    # --- every legal move: where its button goes and what it says ------------------------------
    # Buttons sit on the stack whose top card moves; "skip" and the ghost doubles sit in the panel.
    on_stack: dict[tuple[Any, str], list[dict[str, str]]] = {}
    choices: list[dict[str, str]] = []  # every legal move in words, the plain fallback
    skip = None
    doubles: list[dict[str, Any]] = []
    own_tops = _tops(stacks_of(viewer)) if viewer is not None and not seats_view[viewer]["ghost"] else []
    loaned = view.get("loaned")
    extra_turn_left = bool(showdown) and not showdown["extra_turn"]
    for move in legal:
        kind = move["type"]
        value = move_json(move)
        if kind == "skip":
            if event is None:
                words = f"Skip {name(pending['opponent'])}: neither steal nor give"
            elif event["won"]:
                words = f"Skip {name(event['targets'][0])}: take none of their cards"
            else:
                words = "Take no card: end the event"
            skip = {"json": value, "words": words}
            choices.append(skip)
            continue
        if kind == "ghost_double":
            cards = [top(move[part], part) for part in PARTS]
            words = "Grab a double: " + ", ".join(
                f"{whose(move[part])} {describe(card)}" for part, card in zip(PARTS, cards)
            )
            doubles.append({"move": move, "json": value, "words": words, "cards": cards})
            choices.append({"json": value, "words": words})
            continue
        part = move["part"]
        if kind == "give":
            card = top(viewer, part)
            where, short = (viewer, part), "Give"  # to the Lizzy being passed: the only one
            words = f"Give {name(move['to'])} your {describe(card)}"
        elif kind == "move":
            card = top(move["from"], part)
            where, short = (move["from"], part), f"Move to {name(move['to'])}"
            words = f"Move {whose(move['from'])} {describe(card)} onto {onto(move['to'])}"
            if extra_turn_left and makes_double(_tops(stacks_of(move["to"])), card):
                words += " (a new double: an extra team turn)"
        elif kind == "take_burn":
            card = top(BURN, part)
            where, short = (BURN, part), f"Take for {'you' if move['to'] == viewer else name(move['to'])}"
            words = f"Take the Burn Lizzy's {describe(card)} onto {onto(move['to'])}"
            if extra_turn_left and makes_double(_tops(stacks_of(move["to"])), card):
                words += " (a new double: an extra team turn)"
        else:  # steal, burn, ghost_steal: a card taken from another Lizzy
            card = top(move["from"], part)
            where = (move["from"], part)
            if kind == "ghost_steal":
                short = "Steal"
                words = f"Steal {whose(move['from'])} {describe(card)} into your pile (your turn ends)"
                receiver: list[str | None] = []
            elif kind == "burn":
                short = "Burn"
                words = f"Burn {whose(move['from'])} {describe(card)} onto the Burn Lizzy"
                receiver = _tops(view["burn"]["stacks"])
            elif event is not None and event["kind"] == "ghost":
                short = "Steal"
                words = f"Steal {whose(move['from'])} {describe(card)} onto your loaned Lizzy"
                receiver = _tops(loaned["stacks"]) if loaned else []
            else:
                short = "Steal"
                words = f"Steal {whose(move['from'])} {describe(card)} onto your Lizzy"
                receiver = own_tops
            if receiver and makes_double(receiver, card):
                words += " (a double: a new event)"
        entry = {"json": value, "short": short, "words": words}
        on_stack.setdefault(where, []).append(entry)
        choices.append(entry)

    # --- a ghost double picked on the table, one top card at a time ----------------------------
    # ?select=d<head source><body source>, a source being a seat digit or "b" for the Burn Lizzy.
    def code(source: int | str) -> str:
        return "b" if source == BURN else str(source)

    picked_codes = ""
    select = params.get("select", "")
    if doubles and select.startswith("d"):
        wanted = select[1:]
        if len(wanted) <= 2 and any(
            "".join(code(d["move"][p]) for p in PARTS[: len(wanted)]) == wanted for d in doubles
        ):
            picked_codes = wanted
    picking_part = PARTS[len(picked_codes)] if doubles else None
    picks: dict[tuple[Any, str], dict[str, str]] = {}
    picked: set[tuple[Any, str]] = set()
    for number, source_code in enumerate(picked_codes):
        source: Any = BURN if source_code == "b" else int(source_code)
        picked.add((source, PARTS[number]))
    for double in doubles:
        move = double["move"]
        prefix = "".join(code(move[p]) for p in PARTS[: len(picked_codes)])
        if prefix != picked_codes:
            continue
        source = move[picking_part]
        where = (source, picking_part)
        card = top(source, picking_part)
        if picking_part == "tail":
            # The last card completes the double: this one is the move itself.
            entry = {"json": double["json"], "short": "Complete the double", "words": double["words"]}
            if entry not in on_stack.setdefault(where, []):
                on_stack[where].append(entry)
        elif where not in picks:
            codes = picked_codes + code(source)
            picks[where] = {
                "select": "d" + codes,
                "words": f"Pick {whose(source)} {describe(card)} as the {picking_part} of a double",
            }
    if doubles:
        if picked_codes:
            chosen = [
                f"{whose(source)} {describe(top(source, part))}"
                for (source, part) in sorted(picked, key=lambda where: PARTS.index(where[1]))
            ]
            double_hint = f"Double so far: {_and(chosen)}. Now pick a {picking_part} marked on the table."
        else:
            double_hint = "To grab a double, pick a head marked on the table, then a body, then a tail."
    else:
        double_hint = ""

    # --- the stacks as the template draws them -------------------------------------------------
    def stack_entries(source: int | str, stacks: dict[str, dict[str, Any]], owner: str) -> list[dict[str, Any]]:
        entries = []
        for part in PARTS:
            size = stacks[part]["size"]
            card = stacks[part]["top"]
            where = (source, part)
            words = f"{owner} {part} stack: {size} card{'s' if size != 1 else ''}"
            words += f", top card {describe(card)}" if card else ""
            entries.append(
                {
                    "id": f"{code(source) if source != BURN else 'burn'}-{part}",
                    "part": part,
                    "size": size,
                    "card": art.card(card) if card else None,
                    "depth": min(size, 4),  # how many card edges to draw under the top: a look only
                    "words": words,
                    "moves": on_stack.get(where, []),
                    "pick": picks.get(where),
                    "picked": where in picked,
                }
            )
        return entries

    teams = view.get("teams")
    result = view.get("result")
    to_act = set(view.get("to_act", []))
    target = event["targets"][0] if event and event["won"] and event["targets"] else None
    order = list(range(players))
    if viewer is not None:
        order = order[viewer:] + order[:viewer]  # the viewer sits at the bottom of the table
    seats = []
    for place, seat in zip(LAYOUT.get(players, range(players)), order):
        s = seats_view[seat]
        row, column = RING[place]
        who = "Your" if seat == viewer else f"{name(seat)}'s"
        entry: dict[str, Any] = {
            "seat": seat,
            "name": name(seat),
            "you": seat == viewer,
            "row": row,
            "column": column,
            "ghost": s["ghost"],
            "cards": s["cards"],
            # Teams exist from the showdown on; before it a seat's badge already says Lizzy or ghost.
            "team": s["team"] if phase in ("showdown", "over") else None,
            "to_act": seat in to_act,
            "first": seat == view.get("first_player"),
            "passed": bool(pending and pending["kind"] == "pass" and pending["opponent"] == seat),
            "target": seat == target,
            "won": bool(result) and seat in result["winners"],
            "stacks": None,
            "lizzy_words": "",
            "pile": None,
            "pile_size": s["pile_size"],
        }
        if s["ghost"]:
            entry["pile"] = art.back(f"{who} face-down pile: {s['pile_size']} cards")
        else:
            entry["stacks"] = stack_entries(seat, s["stacks"], who)
            entry["lizzy_words"] = _lizzy_words(s["lizzy"])
        seats.append(entry)

    burn = {
        "stacks": stack_entries(BURN, view["burn"]["stacks"], "The Burn Lizzy's"),
        "size": view.get("burn_size", 0),
        "words": _lizzy_words(view["burn"]["lizzy"]),
    }
    loaned_panel = None
    if loaned:
        ghost = "Your" if loaned["seat"] == viewer else f"{name(loaned['seat'])}'s"
        loaned_panel = {
            "title": f"{ghost} loaned Lizzy",
            "stacks": stack_entries("loaned", loaned["stacks"], f"{ghost} loaned Lizzy's"),
            "words": _lizzy_words(loaned["lizzy"]),
        }
    side_size = view.get("side_stack_size", 0)

    # --- the last draw or dice throw, public to all (LG-5, LG-11) -------------------------------
    draw = None
    last = view.get("last_draw")
    if last:
        where = {"own": f"{whose(last['seat'])} own Lizzy", "burn": "the Burn Lizzy", "loaned": "a loaned Lizzy"}
        by = "you" if last["seat"] == viewer else name(last["seat"])
        text = f"A double on {where[last['on']]} started a {EVENT_NAMES[last['event']]} for {by}: "
        if last["golden"]:
            how = "a golden Lizzy, won without a draw"
        elif last["dice"]:
            how = "threw " + ", ".join(f"{_die(card, part)['words']}" for part, card in zip(PARTS, last["dice"]))
        else:
            how = f"drew the {describe(last['card'])} from the side stack"
        text += how + (" — won." if last["won"] else " — lost.")
        draw = {
            "text": text,
            "won": last["won"],
            "card": art.card(last["card"]) if last["card"] else None,
            "dice": [_die(card, part) for part, card in zip(PARTS, last["dice"])] if last["dice"] else [],
            "golden": last["golden"],
        }

    # --- the decision being taken now, in words, for everyone ----------------------------------
    decision = None
    if pending:
        acting = pending["seat"]
        detail = ""
        if pending["kind"] == "pass":
            detail = (
                f"A Lizzy's turn passes every other living Lizzy clockwise; for each one "
                f"{'you' if acting == viewer else name(acting)} may steal a top card, give one, or skip."
            )
        elif event is not None:
            what = EVENT_NAMES[event["kind"]]
            if event["won"]:
                left = [name(t) for t in event["targets"]]
                detail = f"The {what} was won: one attempt on each Lizzy in turn. Attempts left: {_and(left)}."
            else:
                detail = f"The {what} was lost: one card of choice from any other living Lizzy."
            detail += " A new double during the event starts a new event (a chain)."
        elif pending["kind"] in ("ghost_turn", "showdown_ghosts"):
            detail = (
                "A ghost steals one top card into its face-down pile, or takes one top card from each of "
                "three Lizzies forming a double (a loaned Lizzy) and starts a ghost event."
            )
        elif pending["kind"] == "showdown_lizzies":
            detail = "Team Lizzies move one top card between their two Lizzies, or take a Burn Lizzy top card."
        decision = {
            "prompt": fill_names(pending["prompt"], fill),
            "detail": detail,
            "mine": acting == viewer and bool(legal),
            "event": EVENT_NAMES[event["kind"]] if event else "",
        }

    # --- teams, the showdown and the end -------------------------------------------------------
    team_words = None
    if teams:
        lizzies = _and([name(s) for s in sorted(teams["lizzies"])]) or "nobody"
        ghosts = _and([name(s) for s in sorted(teams["ghosts"])]) or "nobody"
        if phase == "transition":
            team_words = f"Still Lizzies: {lizzies}. Ghosts: {ghosts}."
        else:
            team_words = f"Team Lizzies: {lizzies}. Team Ghosties: {ghosts}."
    showdown_words = ""
    if showdown and not over:
        team = "Lizzies" if showdown["team"] == "lizzies" else "Ghosties"
        showdown_words = (
            f"Team turn {showdown['team_turns'] + 1} of at most {showdown['max_team_turns']}: "
            f"team {team} plays{' an extra turn (a new double)' if showdown['extra_turn'] else ''}."
        )
    outcome = None
    if result:
        winners = result["winners"]
        if result["draw"]:
            headline = "A draw"
        elif sorted(winners) == sorted(result["lizzies"]):
            headline = f"Team Lizzies wins: {_and([name(s) for s in winners])}"
        else:
            headline = f"Team Ghosties wins: {_and([name(s) for s in winners])}"
        outcome = {
            "headline": headline,
            "reason": fill_names(result["reason"], fill),
            "rows": [
                {
                    "name": name(seat),
                    "team": "Lizzies" if seat in result["lizzies"] else "Ghosties",
                    "cards": result["cards"][seat],
                    "won": seat in winners,
                }
                for seat in range(players)
            ],
        }

    # ALL-3: after the end every card is public, the ones below the tops and in the piles too.
    revealed = None
    if over and view.get("revealed"):
        shown = view["revealed"]
        revealed = {"seats": [], "burn": None, "side": art.cards(shown["side_stack"])}
        for seat in range(players):
            stacks = shown["lizzies"][seat]
            revealed["seats"].append(
                {
                    "name": name(seat),
                    "stacks": [{"part": p, "cards": art.cards(stacks[p])} for p in PARTS] if stacks else [],
                    "pile": art.cards(shown["piles"][seat]),
                }
            )
        revealed["burn"] = [{"part": p, "cards": art.cards(shown["burn"][p])} for p in PARTS]

    label, meaning = PHASES.get(phase, (phase, ""))
    return {
        "template": "games/boards/lizzy-ghosties.html",
        "players": players,
        "phase": phase,
        "phase_label": label,
        "phase_meaning": meaning,
        "over": over,
        "cycle": view.get("cycle"),
        "max_cycles": view.get("max_cycles"),
        "dicey": view.get("dicey", False),
        "first_player": name(view["first_player"]) if "first_player" in view else "",
        "seats": seats,
        "burn": burn,
        "loaned": loaned_panel,
        "side_size": side_size,
        "side_back": art.back(f"the side stack, face down: {side_size} cards"),
        "draw": draw,
        "decision": decision,
        "skip": skip,
        "choices": choices,
        "few_choices": len(choices) <= 6,
        "double_hint": double_hint,
        "picking": bool(picked_codes),
        "team_words": team_words,
        "showdown_words": showdown_words,
        "outcome": outcome,
        "revealed": revealed,
    }
