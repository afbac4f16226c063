"""Doubting Flower Field: the rules as a state machine (see the package docstring for moves and view).

Phases, in order:
    "order"  the advantage player chooses to go first or second (ruling FF-1)
    "hide"   both players hide two flowers, a simultaneous step (FF-2)
    "play"   the player on turn plants, challenges or gives up (FF-3 to FF-6); after a successful
             challenge the challenged player must replant ("redo")
    "doubt"  after a challenge that named empty cells, the challenged player may challenge the
             challenge or accept it (FF-7)
    "final"  the board is full: the player who did not plant last challenges or passes (FF-8)
    "over"
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from games.engines.base import (
    BadOptions,
    Engine,
    IllegalMove,
    LogEntry,
    Move,
    Option,
    Result,
    State,
    View,
    clone,
    draw_rng,
    new_rng,
)
from games.engines.flower_field.phrases import flowers_words
from games.engines.flower_field.rules import (
    CELL_INDEX,
    CELLS,
    CENTRE,
    COLOURS,
    NEIGHBOURS,
    PLACEMENTS,
    SIZE,
    codes_of,
    completable_pairs,
    fields_equal,
    is_connected,
    parse_rows,
)
from games.engines.words import _, gettext_noop, logged

LIVES = 5  # ruling FF-1
HIDDEN_PER_PLAYER = 2  # ruling FF-2
BOARD_CELLS = SIZE * SIZE
MAX_EMPTY_NAMED = 2  # ruling FF-5


def other(seat: int) -> int:
    return 1 - seat


def _seat_name(seat: int) -> str:
    return f"{{p{seat}}}"


# Why a match ended (Result.reason, kept in English with its words: Result.reason_words).
LOST_ON_TIME = _("lost on time")
OUT_OF_LIVES = _("out of lives")
MORE_LIVES = _("full field: more lives")
LAST_PLANTER = _("full field: equal lives, the last planter wins")
# A move of a kind the phase does not take, by kind.
NOT_NOW = {
    "order": _("An order move is not allowed now."),
    "hide": _("A hide move is not allowed now."),
    "plant": _("A plant move is not allowed now."),
    "challenge": _("A challenge move is not allowed now."),
    "give_up": _("A give up move is not allowed now."),
    "challenge_challenge": _("A challenge challenge move is not allowed now."),
    "accept": _("An accept move is not allowed now."),
    "pass": _("A pass move is not allowed now."),
}
# How many named cells are empty when too many are (at most eight: two fields of four).
TOO_MANY_EMPTY = {3: _("Three"), 4: _("Four"), 5: _("Five"), 6: _("Six"), 7: _("Seven"), 8: _("Eight")}


class FlowerFieldEngine(Engine):
    slug = "doubting-flower-field"
    name = "Doubting Flower Field"
    min_players = 2
    max_players = 2
    options = (
        Option(
            name="advantage",
            kind="choice",
            default="random",
            label=gettext_noop("Advantage player"),
            choices=(
                ("random", gettext_noop("Drawn at random")),
                ("0", gettext_noop("First seat")),
                ("1", gettext_noop("Second seat")),
            ),
            help=gettext_noop("The advantage player chooses to go first or second."),
        ),
    )
    # The seed: "You win ... if your opponent runs out of lives or runs out of time."
    timeout_policy = "engine"
    move_fields = {
        "order": frozenset({"type", "go"}),
        "hide": frozenset({"type", "flowers"}),
        "plant": frozenset({"type", "flowers"}),
        "challenge": frozenset({"type", "a", "b"}),
        "give_up": frozenset({"type"}),
        "challenge_challenge": frozenset({"type"}),
        "accept": frozenset({"type"}),
        "pass": frozenset({"type"}),
    }

    # --- the game ------------------------------------------------------------------------
    def new_state(self, players: int, options: dict[str, Any], seed: int) -> State:
        if players != 2:
            raise BadOptions(_("Doubting Flower Field is for 2 players."))
        options = self.parse_options(options, players)
        state: State = {
            "players": 2,
            "options": options,
            "rng": new_rng(seed),
            "phase": "order",
            "advantage": None,
            "first": None,
            "turn": None,
            "redo": False,  # the player on turn must replant (FF-6)
            "lives": [LIVES, LIVES],
            "board": {CENTRE: "yellow"},  # visible flowers: cell -> colour (FF-1)
            # Every planting in order: {"seat", "flowers": [{"cell", "colour"}], "exploded": [cells],
            # "standing": False once undone (FF-6), True again if restored (FF-7)}.
            "plantings": [],
            # Per seat: None until chosen, then [{"cell", "colour", "status": live|cancelled|exploded}].
            "hidden": [None, None],
            "explosions": [],  # cells where a hidden flower exploded, in order (FF-4, public)
            # Every challenge: {"seat", "a", "b", "empty", "announced", "truth", "doubt", "undone", "final"}.
            "challenges": [],
            "give_ups": [],  # seats, in order (FF-5: announced failures)
            "pending": None,  # index in challenges while the challenge-challenge window is open (FF-7)
            "last_planter": None,  # the seat that planted the last standing planting
            "moves": 0,
            "result": None,
        }
        if options["advantage"] == "random":
            state["advantage"] = draw_rng(state).randrange(2)  # ruling FF-1: from the state's generator
        else:
            state["advantage"] = int(options["advantage"])
        return state

    def to_act(self, state: State) -> list[int]:
        phase = state["phase"]
        if phase == "order":
            return [state["advantage"]]
        if phase == "hide":
            return [seat for seat in (0, 1) if state["hidden"][seat] is None]
        if phase in ("play", "final"):
            return [state["turn"]]
        if phase == "doubt":
            return [other(state["challenges"][state["pending"]]["seat"])]
        return []

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Every move of every kind but challenges, which are too many to list (two tetrominoes with up
        to two empty cells): the list holds every challenge that *could* be true judged from the visible
        board alone (public knowledge): the pair involves the opponent's last planting, at most two
        named cells are empty, none of them was ever planted on (such a cell surely holds no hidden
        flower), and some colours for the empty cells make the two fields equal. It does not depend on
        anyone's hidden flowers; `apply` accepts any well-formed challenge. The site never shows this
        list to a player (FF-9); bots use it."""
        if seat not in self.to_act(state):
            return []
        phase = state["phase"]
        if phase == "order":
            return [{"type": "order", "go": "first"}, {"type": "order", "go": "second"}]
        if phase == "hide":
            cells = [cell for cell in CELLS if cell != CENTRE]
            return [
                {"type": "hide", "flowers": [{"cell": c1, "colour": k1}, {"cell": c2, "colour": k2}]}
                for c1, c2 in itertools.combinations(cells, 2)
                for k1 in COLOURS
                for k2 in COLOURS
            ]
        if phase == "doubt":
            return [{"type": "challenge_challenge"}, {"type": "accept"}]
        if phase == "final":
            return [{"type": "pass"}, *self._listed_challenges(state, seat)]
        moves = self._plantings(state)
        if self._may_challenge(state, seat):
            moves.append({"type": "give_up"})
            moves.extend(self._listed_challenges(state, seat))
        return moves

    def board_moves(self, state: State, seat: int) -> list[Move]:
        """Every legal move but the listed challenges: the board never shows them (FF-9), and listing
        them is most of a late page's cost. A challenge is built on the board cell by cell instead."""
        if seat not in self.to_act(state) or state["phase"] not in ("play", "final"):
            return self.legal_moves(state, seat)
        if state["phase"] == "final":
            return [{"type": "pass"}]
        moves = self._plantings(state)
        if self._may_challenge(state, seat):
            moves.append({"type": "give_up"})
        return moves

    def apply(self, state: State, seat: int, move: Move) -> tuple[State, list[LogEntry]]:
        if not isinstance(move, dict):
            raise IllegalMove(_("A move is a JSON object."))
        if seat not in self.to_act(state):
            raise IllegalMove(_("It is not your turn."))
        kind = move.get("type")
        handlers = {
            "order": ("order", self._apply_order),
            "hide": ("hide", self._apply_hide),
            "plant": ("play", self._apply_plant),
            "challenge": ("play", self._apply_challenge),
            "give_up": ("play", self._apply_give_up),
            "challenge_challenge": ("doubt", self._apply_challenge_challenge),
            "accept": ("doubt", self._apply_accept),
            "pass": ("final", self._apply_pass),
        }
        if kind not in handlers:
            raise IllegalMove(_("Unknown move type {kind}.", kind=repr(kind)))
        phases, handler = handlers[kind]
        allowed = (phases, "final") if kind == "challenge" else (phases,)
        if state["phase"] not in allowed:
            raise IllegalMove(NOT_NOW[kind])
        new = clone(state)
        new["moves"] += 1
        entries = handler(new, seat, move)
        return new, entries

    def apply_timeout(self, state: State, seat: int) -> tuple[State, list[LogEntry]]:
        """The seed: a player who runs out of time loses, the hidden-flower setup included."""
        if seat not in self.to_act(state):
            raise IllegalMove(_("Only a player who has to act can run out of time."))
        new = clone(state)
        self._finish(new, other(seat), LOST_ON_TIME)
        return new, [logged(gettext_noop("{player} ran out of time and loses."), player=_seat_name(seat))]

    def view(self, state: State, seat: int | None, ended: bool = False) -> View:
        over = ended or state["phase"] == "over"  # ALL-3: however the match ended
        last = self._last_standing(state)
        last_cells = [f["cell"] for f in state["plantings"][last]["flowers"]] if last is not None else []
        view: View = {
            "game": self.slug,
            "seat": seat,
            "phase": state["phase"],
            "to_act": self.to_act(state),
            "turn": state["turn"],
            "redo": state["redo"],
            "advantage": state["advantage"],
            "first": state["first"],
            "lives": list(state["lives"]),
            "lives_at_start": LIVES,  # ruling FF-1; a successful challenge-challenge may add one more
            "moves": state["moves"],  # how many moves the game has taken (the board stamps a selection)
            # The cells a flower may go on now, for whoever is to act: planting, one or two of these
            # cells (FF-3); hiding, two of any cell but the centre (FF-2). Empty in other phases.
            "plantable": self._open_cells(state) if state["phase"] == "play" else [],
            "hideable": [cell for cell in CELLS if cell != CENTRE] if state["phase"] == "hide" else [],
            "board": dict(state["board"]),
            "grid": self._grid_view(state, seat, last_cells),
            "last_planting": {"seat": state["plantings"][last]["seat"], "cells": last_cells}
            if last is not None
            else None,
            "last_planter": state["last_planter"],
            "explosions": list(state["explosions"]),
            "plantings": [
                {
                    "seat": p["seat"],
                    "flowers": [dict(f) for f in p["flowers"]],
                    "exploded": list(p["exploded"]),
                    "standing": p["standing"],
                }
                for p in state["plantings"]
            ],
            "hidden_chosen": [h is not None for h in state["hidden"]],
            "hidden": [dict(h) for h in state["hidden"][seat]]
            if seat is not None and state["hidden"][seat] is not None
            else [],
            "pending": self._pending_view(state),
            "challenges": [self._challenge_view(c, reveal=over) for c in state["challenges"]],
            "give_ups": list(state["give_ups"]),
            "may_challenge": seat is not None
            and (self._may_challenge(state, seat) or (state["phase"] == "final" and seat == state["turn"])),
            "result": state["result"],
        }
        if over:  # ruling ALL-3: everything is public after the end (but never the rng seed, ALL-2)
            view["all_hidden"] = [[dict(h) for h in hidden] if hidden else [] for hidden in state["hidden"]]
        return view

    @staticmethod
    def _grid_view(state: State, seat: int | None, last_cells: list[str]) -> list[dict[str, Any]]:
        """The field row by row, row 7 first (drawn top to bottom), with the viewer's own hidden flowers."""
        own_hidden: dict[str, dict[str, str]] = {}
        if seat is not None and state["hidden"][seat] is not None:
            own_hidden = {h["cell"]: {"colour": h["colour"], "status": h["status"]} for h in state["hidden"][seat]}
        explosions = set(state["explosions"])
        return [
            {
                "row": row,
                "cells": [
                    {
                        "cell": f"{col}{row}",
                        "colour": state["board"].get(f"{col}{row}"),
                        "last": f"{col}{row}" in last_cells,
                        "exploded": f"{col}{row}" in explosions,
                        "hidden": own_hidden.get(f"{col}{row}"),  # the viewer's own hidden flower only
                    }
                    for col in "ABCDEFG"
                ],
            }
            for row in range(SIZE, 0, -1)
        ]

    @staticmethod
    def _pending_view(state: State) -> dict[str, Any] | None:
        """A successful challenge that named empty cells, waiting for the challenge-challenge window."""
        if state["pending"] is None:
            return None
        challenge = state["challenges"][state["pending"]]
        undone = state["plantings"][challenge["undone"]]
        return {
            "challenger": challenge["seat"],
            "a": challenge["a"],
            "b": challenge["b"],
            "empty": challenge["empty"],
            "announced": "successful",
            "undone": [dict(f) for f in undone["flowers"]],
        }

    def hidden_twin(self, state: State, seat: int | None, rng: random.Random) -> State:
        """What `seat` cannot know, dealt anew: the other players' hidden flowers (ALL-3).

        A live hidden flower moves to another cell that could hold one (empty, never planted on, not
        D4, not named in a challenge) with any colour; a cancelled or exploded one keeps its cell,
        which its owner's opponent knows, but not its colour. A flower named in a claim judged by a
        challenge-challenge stays as it is (that judgement is public)."""
        twin = super().hidden_twin(state, seat, rng)
        if twin["phase"] == "over":
            return twin  # everything is public after the end
        others = [s for s in (0, 1) if s != seat]
        judged = {c for ch in twin["challenges"] if ch["doubt"] in ("successful", "failed") for c in ch["empty"]}
        named = {c for ch in twin["challenges"] for c in ch["a"] + ch["b"]}
        ever = {f["cell"] for p in twin["plantings"] for f in p["flowers"]}
        taken = {h["cell"] for hidden in twin["hidden"] for h in hidden or []}
        blocked = set(twin["board"]) | ever | taken | named
        free = [c for c in CELLS if c != CENTRE and c not in blocked]
        rng.shuffle(free)
        for other_seat in others:
            for flower in twin["hidden"][other_seat] or []:
                if flower["cell"] in judged:
                    continue
                if flower["status"] == "live" and free:
                    flower["cell"] = free.pop()
                flower["colour"] = rng.choice(COLOURS)
        if twin["pending"] is not None:
            # The claim now waiting for a challenge-challenge, judged on the twin's flowers. (Older
            # unjudged claims keep their truth: no view shows it before the end.)
            pending = twin["challenges"][twin["pending"]]
            pending["truth"] = self._claim_truth(twin, pending)
        return twin

    def turn_key(self, state: State) -> Any:
        """ALL-1, one clock per whole turn: a player's turn ends with a planting, so a failed challenge
        (played again), or a challenge-challenge followed by the replant (FF-7: on the doubter's own
        clock), keeps the clock running. The order choice and the hiding are steps of their own."""
        phase = state["phase"] if state["phase"] in ("order", "hide") else "play"
        return f"{phase}:{len(state['plantings'])}"

    def result(self, state: State) -> Result | None:
        if state["result"] is None:
            return None
        return Result(**state["result"])

    def max_moves(self, players: int, options: dict[str, Any]) -> int:
        """A true bound on apply() calls.

        - 1 order move and 2 hide moves.
        - Every challenge or give-up takes at least one life from the total of both players at once
          (a success costs the challenged one, a failure the challenger; an announced success costs
          the challenged one, and a challenge-challenge then either moves one life across (+1 -1) or
          takes another). Nothing ever raises the total. The game goes on only while both have a life,
          so the total is at least 2 before each such move: at most 2 * LIVES - 1 = 9 of them (the
          final challenge included), and at most 9 challenge-challenge/accept moves, one per challenge.
        - Each planting move puts at least one flower on one of the 48 empty cells. Flowers leave the
          board only by an undo (at most 2 each, one undo per successful challenge, so at most 9 undos),
          and a restore only puts flowers back: at most 48 + 2 * 9 = 66 planting moves.
        - At most 1 pass.
        """
        challenges = 2 * LIVES - 1
        plantings = (BOARD_CELLS - 1) + 2 * challenges
        return 1 + 2 + challenges + challenges + plantings + 1

    def check_invariants(self, state: State) -> None:
        lives = state["lives"]
        if state["phase"] != "over":
            # A player may sit at 0 only while the challenge-challenge window is open (FF-7).
            assert all(value >= 0 for value in lives), f"lives below 0: {lives}"
            if state["phase"] != "doubt":
                assert all(value > 0 for value in lives), f"a player at 0 lives but the game goes on: {lives}"
        assert all(value >= 0 for value in lives), f"lives below 0: {lives}"
        assert sum(lives) <= 2 * LIVES, f"lives above the start: {lives}"
        # The board is exactly D4 plus the standing plantings (after every undo and restore).
        rebuilt = {CENTRE: "yellow"}
        for planting in state["plantings"]:
            if planting["standing"]:
                for flower in planting["flowers"]:
                    assert flower["cell"] not in rebuilt, f"two standing flowers on {flower['cell']}"
                    rebuilt[flower["cell"]] = flower["colour"]
        assert rebuilt == state["board"], "the board does not agree with the planting log"
        # A live hidden flower lies under no visible flower; explosions match the log.
        exploded_in_log = [cell for p in state["plantings"] for cell in p["exploded"]]
        assert exploded_in_log == state["explosions"], "explosions do not agree with the planting log"
        for hidden in state["hidden"]:
            for flower in hidden or []:
                if flower["status"] == "live":
                    assert flower["cell"] not in state["board"], f"a live hidden flower under {flower['cell']}"
                    assert flower["cell"] not in exploded_in_log
                if flower["status"] == "exploded":
                    assert flower["cell"] in exploded_in_log
        if state["phase"] == "doubt":
            challenge = state["challenges"][state["pending"]]
            assert challenge["empty"] and not state["plantings"][challenge["undone"]]["standing"]
        if state["phase"] == "final":
            assert len(state["board"]) == BOARD_CELLS
        if state["phase"] == "over":
            assert state["result"] is not None

    def check_vector(self, case: dict[str, Any]) -> None:
        if case.get("kind") != "flower_fields_equal":
            super().check_vector(case)
            return
        board = parse_rows(case["rows"])
        a = [CELL_INDEX[c] for c in case["a"]]
        b = [CELL_INDEX[c] for c in case["b"]]
        assert is_connected(a) and is_connected(b), f"not tetrominoes: {case['a']} {case['b']}"
        got = fields_equal(board, a, b)
        assert got == case["equal"], f"{case['a']} vs {case['b']}: expected equal={case['equal']}, got {got}"

    # --- phases ----------------------------------------------------------------------------
    def _apply_order(self, state: State, seat: int, move: Move) -> list[LogEntry]:
        go = move.get("go")
        if go not in ("first", "second"):
            raise IllegalMove(_('Choose "first" or "second".'))
        state["first"] = seat if go == "first" else other(seat)
        state["phase"] = "hide"
        if go == "first":
            template = gettext_noop("{player} chose to go first: {first} plants first.")
        else:
            template = gettext_noop("{player} chose to go second: {first} plants first.")
        return [logged(template, player=_seat_name(seat), first=_seat_name(state["first"]))]

    def _apply_hide(self, state: State, seat: int, move: Move) -> list[LogEntry]:
        flowers = move.get("flowers")
        if not isinstance(flowers, list) or len(flowers) != HIDDEN_PER_PLAYER:
            raise IllegalMove(_("Hide exactly two flowers."))
        chosen = []
        for flower in flowers:
            cell, colour = self._parse_flower(flower)
            if cell == CENTRE:
                raise IllegalMove(_("D4 already holds a flower: hide yours elsewhere."))  # ruling FF-2
            chosen.append({"cell": cell, "colour": colour, "status": "live"})
        if chosen[0]["cell"] == chosen[1]["cell"]:
            raise IllegalMove(_("Hide your two flowers on two different cells."))  # ruling FF-2
        state["hidden"][seat] = chosen
        entries = [
            logged(gettext_noop("{player} hid two flowers."), player=_seat_name(seat)),
            logged(gettext_noop("You hid {flowers}."), audience=[seat], flowers=flowers_words(chosen)),
        ]
        if all(h is not None for h in state["hidden"]):
            # ruling FF-2: a cell chosen by both holds no hidden flower; each is told privately.
            mine = {h["cell"]: h for h in state["hidden"][0]}
            for theirs in state["hidden"][1]:
                if theirs["cell"] in mine:
                    mine[theirs["cell"]]["status"] = "cancelled"
                    theirs["status"] = "cancelled"
                    text = gettext_noop("Your hidden flower on {cell} was cancelled: your opponent chose it.")
                    for owner in (0, 1):
                        entries.append(logged(text, audience=[owner], cell=theirs["cell"]))
            state["phase"] = "play"
            state["turn"] = state["first"]
            text = gettext_noop("Both flowers are hidden. {player} plants first.")
            entries.append(logged(text, player=_seat_name(state["first"])))
        return entries

    def _apply_plant(self, state: State, seat: int, move: Move) -> list[LogEntry]:
        flowers = move.get("flowers")
        if not isinstance(flowers, list) or not 1 <= len(flowers) <= 2:
            raise IllegalMove(_("Plant one or two flowers."))  # ruling FF-3
        planted = []
        for flower in flowers:
            cell, colour = self._parse_flower(flower)
            if cell in state["board"]:
                raise IllegalMove(_("{cell} already holds a flower.", cell=cell))
            # ruling FF-3: next to a flower visible before this turn; hidden flowers do not count.
            if not any(CELLS[n] in state["board"] for n in NEIGHBOURS[CELL_INDEX[cell]]):
                raise IllegalMove(
                    _("{cell} is not next to a flower that was on the board before this turn.", cell=cell)
                )
            planted.append({"cell": cell, "colour": colour})
        if len(planted) == 2 and planted[0]["cell"] == planted[1]["cell"]:
            raise IllegalMove(_("Plant your two flowers on two different cells."))
        entries = []
        exploded = []
        for flower in planted:
            for hidden in state["hidden"]:
                for h in hidden:
                    if h["cell"] == flower["cell"] and h["status"] == "live":
                        # ruling FF-4: the hidden flower is gone for good; the planter loses a life. All
                        # are told where, nobody is told whose or which colour.
                        h["status"] = "exploded"
                        exploded.append(flower["cell"])
                        state["explosions"].append(flower["cell"])
                        self._lose_life(state, seat)
        for flower in planted:
            state["board"][flower["cell"]] = flower["colour"]
        state["plantings"].append({"seat": seat, "flowers": planted, "exploded": exploded, "standing": True})
        state["last_planter"] = seat
        state["redo"] = False
        entries.append(
            logged(gettext_noop("{player} planted {flowers}."), player=_seat_name(seat), flowers=flowers_words(planted))
        )
        for cell in exploded:
            text = gettext_noop("A hidden flower exploded on {cell}: {player} loses a life.")
            entries.append(logged(text, cell=cell, player=_seat_name(seat)))
        if self._end_if_out_of_lives(state, entries):
            return entries
        if len(state["board"]) == BOARD_CELLS:
            # ruling FF-8: on a full board the other player may challenge or pass, then the game ends.
            state["phase"] = "final"
            state["turn"] = other(seat)
            text = gettext_noop("The field is full. {player} may challenge or pass.")
            entries.append(logged(text, player=_seat_name(other(seat))))
        else:
            state["turn"] = other(seat)
        return entries

    def _apply_challenge(self, state: State, seat: int, move: Move) -> list[LogEntry]:
        final = state["phase"] == "final"
        if not final and not self._may_challenge(state, seat):
            if state["redo"]:
                raise IllegalMove(_("You must plant again after a successful challenge."))  # ruling FF-6
            raise IllegalMove(_("There is nothing to challenge yet: your opponent has not planted."))  # FF-5
        a, b, empty = self._parse_challenge(state, move)
        target = self._last_standing(state)
        challenge = {
            "seat": seat,
            "a": [CELLS[i] for i in a],
            "b": [CELLS[i] for i in b],
            "empty": [CELLS[i] for i in empty],
            "announced": None,
            "truth": None,
            "doubt": None,
            "undone": None,
            "final": final,
            # The named cells' colours when the challenge was made (public: the board was visible).
            "seen": {CELLS[i]: state["board"].get(CELLS[i]) for i in sorted(set(a + b))},
        }
        state["challenges"].append(challenge)
        text = gettext_noop("{player} challenged: {a} and {b}.")
        entries = [logged(text, player=_seat_name(seat), a=", ".join(challenge["a"]), b=", ".join(challenge["b"]))]
        challenge["truth"] = self._claim_truth(state, challenge)
        # ruling FF-5: a challenge that names empty cells is always announced "successful"
        challenge["announced"] = "successful" if challenge["truth"] or empty else "failed"
        if final:
            self._judge_final_challenge(state, challenge, entries)
        elif challenge["announced"] == "failed":
            # ruling FF-6: the challenger loses a life and takes the turn again.
            self._lose_life(state, seat)
            text = gettext_noop("The challenge failed: {player} loses a life and plays again.")
            entries.append(logged(text, player=_seat_name(seat)))
            self._end_if_out_of_lives(state, entries)
        else:
            self._undo_challenged_planting(state, challenge, target, entries)
        return entries

    def _judge_final_challenge(self, state: State, challenge: dict[str, Any], entries: list[LogEntry]) -> None:
        """ruling FF-8: a challenge on a full field changes lives only; nothing is undone; then the game ends."""
        seat = challenge["seat"]
        loser = other(seat) if challenge["truth"] else seat
        if challenge["announced"] == "successful":
            text = gettext_noop("The challenge was successful: {player} loses a life.")
        else:
            text = gettext_noop("The challenge failed: {player} loses a life.")
        entries.append(logged(text, player=_seat_name(loser)))
        self._lose_life(state, loser)
        self._finish_full_board(state, entries)

    def _undo_challenged_planting(
        self, state: State, challenge: dict[str, Any], target: int, entries: list[LogEntry]
    ) -> None:
        """ruling FF-6: the opponent loses a life, their last planting is undone (explosions stay)."""
        opponent = other(challenge["seat"])
        self._lose_life(state, opponent)
        challenge["undone"] = target
        self._undo(state, target)
        text = gettext_noop("The challenge was successful: {player} loses a life.")
        entries.append(logged(text, player=_seat_name(opponent)))
        if challenge["empty"]:
            # ruling FF-7: the window opens; lives at 0 are judged when it closes.
            state["phase"] = "doubt"
            state["pending"] = len(state["challenges"]) - 1
            state["turn"] = opponent
            text = gettext_noop("{player} may challenge the challenge or accept it and plant again.")
            entries.append(logged(text, player=_seat_name(opponent)))
            return
        if self._end_if_out_of_lives(state, entries):
            return
        state["turn"] = opponent
        state["redo"] = True
        text = gettext_noop("{player}'s planting is undone: they plant again.")
        entries.append(logged(text, player=_seat_name(opponent)))

    def _apply_give_up(self, state: State, seat: int, move: Move) -> list[LogEntry]:
        if not self._may_challenge(state, seat):
            raise IllegalMove(_("You may not challenge now, so you cannot give up a challenge."))
        # ruling FF-5: giving up is an announced failure (FF-6: a life, and the turn again).
        state["give_ups"].append(seat)
        self._lose_life(state, seat)
        text = gettext_noop("{player} gave up a challenge, loses a life and plays again.")
        entries = [logged(text, player=_seat_name(seat))]
        self._end_if_out_of_lives(state, entries)
        return entries

    def _apply_challenge_challenge(self, state: State, seat: int, move: Move) -> list[LogEntry]:
        challenge = state["challenges"][state["pending"]]
        challenger = challenge["seat"]
        state["pending"] = None
        state["phase"] = "play"
        entries = []
        if not challenge["truth"]:
            # ruling FF-7: +1 to the doubter, -1 to the challenger, the planting comes back and the
            # challenger takes their turn again. Only "successful" is announced.
            challenge["doubt"] = "successful"
            state["lives"][seat] += 1
            self._lose_life(state, challenger)
            self._restore(state, challenge["undone"])
            state["turn"] = challenger
            state["redo"] = False
            text = gettext_noop(
                "{player} challenged the challenge: successful. {player} gains a life, {challenger} loses one; "
                "the planting is back and {challenger} plays again."
            )
            entries.append(logged(text, player=_seat_name(seat), challenger=_seat_name(challenger)))
        else:
            # ruling FF-7: -1 to the doubter, who then replants.
            challenge["doubt"] = "failed"
            self._lose_life(state, seat)
            state["turn"] = seat
            state["redo"] = True
            text = gettext_noop("{player} challenged the challenge: failed. {player} loses a life and plants again.")
            entries.append(logged(text, player=_seat_name(seat)))
        self._end_if_out_of_lives(state, entries)
        return entries

    def _apply_accept(self, state: State, seat: int, move: Move) -> list[LogEntry]:
        challenge = state["challenges"][state["pending"]]
        challenge["doubt"] = "accepted"
        state["pending"] = None
        state["phase"] = "play"
        state["turn"] = seat
        state["redo"] = True
        entries = [logged(gettext_noop("{player} accepted the challenge and plants again."), player=_seat_name(seat))]
        self._end_if_out_of_lives(state, entries)  # ruling FF-7: judged once the window closes
        return entries

    def _apply_pass(self, state: State, seat: int, move: Move) -> list[LogEntry]:
        entries = [logged(gettext_noop("{player} passed."), player=_seat_name(seat))]
        self._finish_full_board(state, entries)
        return entries

    # --- helpers ---------------------------------------------------------------------------
    def _parse_flower(self, flower: Any) -> tuple[str, str]:
        if not isinstance(flower, dict):
            raise IllegalMove(_('A flower is {"cell": "B2", "colour": "red"}.'))
        cell = flower.get("cell")
        colour = flower.get("colour")
        if not isinstance(cell, str) or cell.strip().upper() not in CELL_INDEX:
            raise IllegalMove(_("{cell} is not a cell of the field (A1 to G7).", cell=repr(cell)))
        if colour not in COLOURS:
            raise IllegalMove(_("{colour} is not a flower colour: red, blue or yellow.", colour=repr(colour)))
        return cell.strip().upper(), colour

    def _parse_challenge(self, state: State, move: Move) -> tuple[list[int], list[int], list[int]]:
        """The named fields and their empty cells, or IllegalMove saying what breaks the form (FF-5)."""
        fields = []
        for name in ("a", "b"):
            cells = move.get(name)
            if not isinstance(cells, list) or len(cells) != 4:
                raise IllegalMove(_("Name two flower fields of exactly four cells each."))
            indexes = []
            for cell in cells:
                if not isinstance(cell, str) or cell.strip().upper() not in CELL_INDEX:
                    raise IllegalMove(_("{cell} is not a cell of the field (A1 to G7).", cell=repr(cell)))
                indexes.append(CELL_INDEX[cell.strip().upper()])
            names = ", ".join(CELLS[i] for i in indexes)
            if len(set(indexes)) != 4:
                raise IllegalMove(_("{cells} names a cell twice: a field is four different cells.", cells=names))
            if not is_connected(indexes):
                raise IllegalMove(_("{cells} is not connected.", cells=names))
            fields.append(indexes)
        a, b = fields
        if set(a) == set(b):
            raise IllegalMove(_("The two fields are the same cells: name two different fields."))
        target = self._last_standing(state)
        last_cells = {CELL_INDEX[f["cell"]] for f in state["plantings"][target]["flowers"]}
        if not last_cells.intersection(a + b):
            raise IllegalMove(_("Neither field holds a flower planted in your opponent's last turn."))
        empty = sorted({i for i in a + b if CELLS[i] not in state["board"]})
        if len(empty) > MAX_EMPTY_NAMED:
            count = TOO_MANY_EMPTY[len(empty)]
            raise IllegalMove(_("{number} named cells are empty: at most two may be.", number=count))
        return a, b, empty

    def _claim_truth(self, state: State, challenge: dict[str, Any]) -> bool:
        """The truth of a challenge, judged on the cells' colours when it was made."""
        colours = {CELL_INDEX[cell]: colour for cell, colour in challenge["seen"].items() if colour}
        a = [CELL_INDEX[c] for c in challenge["a"]]
        b = [CELL_INDEX[c] for c in challenge["b"]]
        empty = [CELL_INDEX[c] for c in challenge["empty"]]
        if not empty:
            return fields_equal(colours, a, b)  # ruling FF-5: the truth
        # ruling FF-7: true when every empty named cell holds one of the challenger's live hidden flowers
        # and their colours make the two fields equal. It is announced "successful" either way.
        hidden = state["hidden"][challenge["seat"]]
        live = {CELL_INDEX[h["cell"]]: h["colour"] for h in hidden if h["status"] == "live"}
        return all(cell in live for cell in empty) and fields_equal({**colours, **live}, a, b)

    def _last_standing(self, state: State) -> int | None:
        for index in range(len(state["plantings"]) - 1, -1, -1):
            if state["plantings"][index]["standing"]:
                return index
        return None

    def _may_challenge(self, state: State, seat: int) -> bool:
        """FF-5: on a normal turn (not a redo), once the opponent has planted last."""
        if state["phase"] != "play" or state["turn"] != seat or state["redo"]:
            return False
        last = self._last_standing(state)
        return last is not None and state["plantings"][last]["seat"] == other(seat)

    def _open_cells(self, state: State) -> list[str]:
        """The cells a flower may be planted on this turn (ruling FF-3): empty, next to a flower."""
        board = state["board"]
        return [
            cell for cell in CELLS if cell not in board and any(CELLS[n] in board for n in NEIGHBOURS[CELL_INDEX[cell]])
        ]

    def _plantings(self, state: State) -> list[Move]:
        """Every legal planting (ruling FF-3): at most about 25 open cells, so a few thousand moves."""
        open_cells = self._open_cells(state)
        moves: list[Move] = [
            {"type": "plant", "flowers": [{"cell": cell, "colour": colour}]}
            for cell in open_cells
            for colour in COLOURS
        ]
        for c1, c2 in itertools.combinations(open_cells, 2):
            for k1 in COLOURS:
                for k2 in COLOURS:
                    moves.append({"type": "plant", "flowers": [{"cell": c1, "colour": k1}, {"cell": c2, "colour": k2}]})
        return moves

    def _listed_challenges(self, state: State, seat: int) -> list[Move]:
        """See legal_moves: challenges that could be true, judged from public knowledge only."""
        target = self._last_standing(state)
        if target is None or state["plantings"][target]["seat"] != other(seat):
            return []
        touch = {CELL_INDEX[f["cell"]] for f in state["plantings"][target]["flowers"]}
        ever_planted = {CELL_INDEX[f["cell"]] for p in state["plantings"] for f in p["flowers"]}
        claimable = {i for i, cell in enumerate(CELLS) if cell not in state["board"] and i not in ever_planted}
        codes = codes_of({CELL_INDEX[cell]: colour for cell, colour in state["board"].items()})
        pairs = completable_pairs(codes, touch, claimable)
        return [
            {
                "type": "challenge",
                "a": [CELLS[i] for i in PLACEMENTS[p]],
                "b": [CELLS[i] for i in PLACEMENTS[q]],
            }
            for p, q in pairs
        ]

    def _undo(self, state: State, index: int) -> None:
        planting = state["plantings"][index]
        planting["standing"] = False  # ruling FF-6: explosions (and their lost lives) stay
        for flower in planting["flowers"]:
            del state["board"][flower["cell"]]
        state["last_planter"] = self._planter_of_last(state)

    def _restore(self, state: State, index: int) -> None:
        planting = state["plantings"][index]
        planting["standing"] = True  # ruling FF-7: the undone planting is restored
        for flower in planting["flowers"]:
            state["board"][flower["cell"]] = flower["colour"]
        state["last_planter"] = self._planter_of_last(state)

    def _planter_of_last(self, state: State) -> int | None:
        last = self._last_standing(state)
        return state["plantings"][last]["seat"] if last is not None else None

    def _lose_life(self, state: State, seat: int) -> None:
        state["lives"][seat] = max(0, state["lives"][seat] - 1)

    def _end_if_out_of_lives(self, state: State, entries: list[LogEntry]) -> bool:
        """ruling FF-8: a player at 0 lives loses (never while the FF-7 window is open)."""
        for seat in (0, 1):
            if state["lives"][seat] == 0:
                self._finish(state, other(seat), OUT_OF_LIVES)
                text = gettext_noop("{loser} has no lives left. {winner} wins.")
                entries.append(logged(text, loser=_seat_name(seat), winner=_seat_name(other(seat))))
                return True
        return False

    def _finish_full_board(self, state: State, entries: list[LogEntry]) -> None:
        """ruling FF-8: more lives wins; equal lives go to the player who planted the last flower."""
        lives = state["lives"]
        if self._end_if_out_of_lives(state, entries):
            return
        if lives[0] != lives[1]:
            winner = 0 if lives[0] > lives[1] else 1
            reason = MORE_LIVES
        else:
            winner = state["last_planter"]
            reason = LAST_PLANTER
        self._finish(state, winner, reason)
        text = gettext_noop("The field is full: {winner} wins ({reason}).")
        entries.append(logged(text, winner=_seat_name(winner), reason=reason))

    def _finish(self, state: State, winner: int, reason: str) -> None:
        state["phase"] = "over"
        state["turn"] = None
        state["pending"] = None
        # As Result.as_dict() writes it: the English reason and its words ("reason_words").
        state["result"] = Result([winner], list(state["lives"]), reason).as_dict()

    def _challenge_view(self, challenge: dict[str, Any], reveal: bool) -> dict[str, Any]:
        shown = {key: challenge[key] for key in ("seat", "a", "b", "empty", "announced", "doubt", "final")}
        shown["seen"] = dict(challenge["seen"])
        # Announcements only: a challenge that named empty cells keeps its truth hidden until the end
        # (a challenge-challenge's outcome is announced, which is all the players learn; FF-7).
        if reveal:
            shown["truth"] = challenge["truth"]
        return shown


# The one engine of the game; the spec (__init__.py), the bots and the site use this instance.
ENGINE = FlowerFieldEngine()
