"""The Lizzy Ghosties engine: state, decisions, events, showdown, scoring (moves and table rules:
see __init__.py).

The state holds the whole pending decision in `state["step"]`, so a player away for days finds
the turn exactly where it stopped:

    {"seat": s, "kind": "lizzy" | "ghost" | "showdown_lizzies",
     "opponent": t,           # a Lizzy turn: the Lizzy being passed (LG-4)
     "event": None | {"kind": "steal" | "burn" | "ghost", "on": "own" | "burn" | "loaned",
                      "won": bool, "start": seat, "targets": [seats still to attempt]}}

Decisions whose only legal choice is to skip are taken by the engine at once (nobody waits days
to click "skip"), so a seat in to_act always has a real choice.

Words for people: log entries are `words.logged` ids with values, refusals, the pending
decision's prompt and the result's reason are `Msg`s (the reason's words are kept in the state as
"reason_words"), seats as {p0}.. values; cards and events are said by phrases.py. The English text is
what it always was; each reader sees their own language.
"""

from __future__ import annotations

import random
from typing import Any

from games.engines.base import (
    Engine,
    IllegalMove,
    LogEntry,
    Move,
    Option,
    Result,
    State,
    View,
    draw_rng,
    new_rng,
)
from games.engines.dizzy_cards import DECK, PARTS, part_of, throw_dice
from games.engines.lizzy_ghosties.phrases import (
    BURN_LIZZYS,
    EVENT_WORDS,
    a_card,
    face_words,
    listed,
    owned_card,
    owner,
    three,
)
from games.engines.lizzy_ghosties.rules import (
    BURN,
    GHOST_TURN,
    LIZZY_TURN,
    MAX_CYCLES,
    MOVE_FIELDS,
    OPENING,
    OVER,
    QUIET_CYCLES,
    SHOWDOWN,
    SHOWDOWN_LIZZIES,
    SHOWDOWN_TEAM_TURNS,
    SKIP,
    TRANSITION,
    Stacks,
    card_count,
    cards_of,
    cards_per_part,
    decision_moves,
    event_won_by_card,
    event_won_by_dice,
    info_of,
    info_of_cards,
    info_of_tops,
    living_from,
    living_seats,
    move_effect,
    parts_held,
    plain_ints,
    source_stacks,
    tops,
    why_illegal,
)
from games.engines.words import Msg, _, gettext_noop, logged, stored

# Why a game ended; each has its own words in the result.
END_BURN_EMPTY = "burn_empty"
END_SHOWDOWN_GHOST = "showdown_ghost"
END_TEAM_TURNS = "team_turns"
END_STUCK = "stuck"
END_CYCLES = "cycles"
END_LAST_LIZZY = "last_lizzy"


def _p(seat: int) -> str:
    return f"{{p{seat}}}"


def _copy_state(state: State) -> State:
    """A deep copy that knows the state's shape (much faster than copy.deepcopy)."""
    new = dict(state)
    new["rng"] = dict(state["rng"])
    new["lizzies"] = [None if stacks is None else _copy_stacks(stacks) for stacks in state["lizzies"]]
    new["piles"] = [list(pile) for pile in state["piles"]]
    new["burn"] = _copy_stacks(state["burn"])
    new["side"] = list(state["side"])
    new["loaned"] = None if state["loaned"] is None else _copy_stacks(state["loaned"])
    step = state["step"]
    if step is not None:
        new["step"] = dict(step)
        if step["event"] is not None:
            new["step"]["event"] = dict(step["event"], targets=list(step["event"]["targets"]))
    if state["showdown"] is not None:
        showdown = dict(state["showdown"])
        for key in ("lizzies", "ghosts"):
            showdown[key] = list(showdown[key])
        showdown["next"] = dict(showdown["next"])
        new["showdown"] = showdown
    for key in ("last_draw", "result"):
        if state[key] is not None:
            new[key] = _json_copy(state[key])
    return new


def _copy_stacks(stacks: Stacks) -> Stacks:
    return {part: list(cards) for part, cards in stacks.items()}


def _json_copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _json_copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_json_copy(item) for item in value]
    return value


class LizzyGhosties(Engine):
    slug = "lizzy-ghosties"
    name = "Lizzy Ghosties"
    min_players = 3
    max_players = 8
    options = (
        Option(
            name="dicey",
            kind="bool",
            default=False,
            label=gettext_noop("Dicey Lizzy Ghosties"),
            help=gettext_noop("Throw the three Dizzy Dice instead of drawing from the side stack to decide events."),
        ),
    )
    timeout_policy = "bot"  # ruling ALL-4
    move_fields = {kind: frozenset(fields) for kind, fields in MOVE_FIELDS.items()}

    # --- setup -----------------------------------------------------------------------------
    def new_state(self, players: int, options: dict[str, Any], seed: int) -> State:
        options = self.parse_options(options, players)
        state: State = {
            "players": players,
            "dicey": options["dicey"],
            "rng": new_rng(seed),
            "lizzies": [],
            "piles": [[] for _ in range(players)],
            "burn": {},
            "side": [],  # the side stack, top card first
            "loaned": None,  # a ghost's loaned Lizzy during its double and events (LG-7)
            "first": 0,
            "phase": OPENING,
            "turns_taken": 0,  # completed turns before the showdown, for LG-10's cycles
            "cycle_moved": False,  # did a card move in the current cycle (LG-10)
            "quiet_cycles": 0,
            "step": None,
            "showdown": None,
            "last_draw": None,
            "result": None,
        }
        rng = draw_rng(state)
        per_player = cards_per_part(players)  # ruling LG-1
        lizzies: list[Stacks] = [{part: [] for part in PARTS} for _ in range(players)]
        side: list[str] = []
        for part in PARTS:
            # Deal from each part's shuffled cards: the same as the seed's select-then-deal steps.
            cards = [card for card in DECK if part_of(card) == part]
            rng.shuffle(cards)
            for seat in range(players):
                lizzies[seat][part] = cards[seat * per_player : (seat + 1) * per_player]
            state["burn"][part] = [cards[players * per_player]]
            side.extend(cards[players * per_player + 1 :])
        rng.shuffle(side)
        state["lizzies"] = lizzies
        state["side"] = side
        state["first"] = rng.randrange(players)  # ruling LG-1
        logs: list[LogEntry] = []
        self._start_turn(state, state["first"], logs)
        self._settle(state, logs)
        return state

    # --- who acts, what they may do ----------------------------------------------------------
    def to_act(self, state: State) -> list[int]:
        if state["phase"] == OVER:
            return []
        return [state["step"]["seat"]]

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if state["phase"] == OVER or seat != state["step"]["seat"]:
            return []
        return decision_moves(state)

    def apply(self, state: State, seat: int, move: Move) -> tuple[State, list[LogEntry]]:
        if state["phase"] == OVER:
            raise IllegalMove(_("The game is over."))
        if seat != state["step"]["seat"]:
            raise IllegalMove(_("It is not your turn to decide."))
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            raise IllegalMove(_('A move is an object with a "type", such as {example}.', example='{"type": "skip"}'))
        legal = decision_moves(state)
        if move not in legal or not plain_ints(move):
            raise IllegalMove(why_illegal(state, move))
        move = legal[legal.index(move)]  # the engine's own copy: 2.0 from a form becomes 2
        new = _copy_state(state)
        logs: list[LogEntry] = []
        self._perform(new, move, logs)
        self._settle(new, logs)
        return new, logs

    # --- one decision ------------------------------------------------------------------------
    def _perform(self, state: State, move: Move, logs: list[LogEntry]) -> None:
        step = state["step"]
        kind = move["type"]
        if kind == "skip":
            self._skip(state, logs)
        elif step["kind"] == LIZZY_TURN and step["event"] is None:
            if kind == "steal":
                self._pass_steal(state, move["from"], move["part"], logs)
            else:
                self._pass_give(state, move["to"], move["part"], logs)
        elif step["kind"] == LIZZY_TURN:
            self._event_grab(state, move["from"], move["part"], logs)
        elif step["kind"] == GHOST_TURN and step["event"] is None:
            if kind == "ghost_steal":
                self._ghost_steal(state, move["from"], move["part"], logs)
            else:
                self._ghost_double(state, move, logs)
        elif step["kind"] == GHOST_TURN:
            self._event_grab(state, move["from"], move["part"], logs)
        else:
            source = move["from"] if kind == "move" else BURN
            self._showdown_move(state, source, move["to"], move["part"], logs)

    def _skip(self, state: State, logs: list[LogEntry]) -> None:
        step = state["step"]
        event = step["event"]
        if event is None:
            self._next_opponent(state, logs)
        elif event["won"]:
            event["targets"].pop(0)  # _settle ends the event once no target is left
        else:
            self._end_event(state, logs)

    def _pass_steal(self, state: State, victim: int, part: str, logs: list[LogEntry]) -> None:
        """LG-4: steal from the Lizzy being passed; a double on one's own Lizzy starts an event."""
        seat = state["step"]["seat"]
        card = _move_top(state, state["lizzies"][victim], state["lizzies"][seat], part)
        logs.append(logged(gettext_noop("{player} stole {card}."), player=_p(seat), card=_owned(card, victim)))
        if self._check_lizzies(state, logs):
            return
        if info_of(state["lizzies"][seat]).double:
            # ruling LG-5: attempts begin with the player after the last one grabbed from.
            self._start_event(state, "own", (victim + 1) % state["players"], logs)
        else:
            self._next_opponent(state, logs)

    def _pass_give(self, state: State, receiver: int, part: str, logs: list[LogEntry]) -> None:
        """LG-4: gives never start events; LG-6: a giver that turns ghost ends its turn at once."""
        seat = state["step"]["seat"]
        card = _move_top(state, state["lizzies"][seat], state["lizzies"][receiver], part)
        template = gettext_noop("{player} gave {other} {card}.")
        logs.append(logged(template, player=_p(seat), other=_p(receiver), card=a_card(card)))
        if self._check_lizzies(state, logs):
            return
        if state["lizzies"][seat] is None:
            self._end_turn(state, logs)
        else:
            self._next_opponent(state, logs)

    def _event_grab(self, state: State, victim: int, part: str, logs: list[LogEntry]) -> None:
        """One attempt of an event: a steal onto the own (or loaned) Lizzy, or a burn onto the
        Burn Lizzy. A new double there starts a new event at the old start (ruling LG-5)."""
        step = state["step"]
        seat = step["seat"]
        event = step["event"]
        template = gettext_noop("{player} stole {card}.")
        if event["kind"] == "burn":
            on, receiver, template = "burn", state["burn"], gettext_noop("{player} burned {card}.")
        elif event["kind"] == "ghost":
            on, receiver = "loaned", state["loaned"]
        else:
            on, receiver = "own", state["lizzies"][seat]
        card = _move_top(state, state["lizzies"][victim], receiver, part)
        logs.append(logged(template, player=_p(seat), card=_owned(card, victim)))
        if self._check_lizzies(state, logs):
            return
        if info_of(receiver).double:
            self._start_event(state, on, event["start"], logs)  # a chain (ruling LG-5)
        elif event["won"]:
            event["targets"].pop(0)
        else:
            self._end_event(state, logs)

    def _ghost_steal(self, state: State, victim: int, part: str, logs: list[LogEntry]) -> None:
        """LG-7: one top card into the ghost's face-down pile; the turn ends."""
        seat = state["step"]["seat"]
        card = state["lizzies"][victim][part].pop()
        state["piles"][seat].append(card)
        state["cycle_moved"] = True
        logs.append(logged(gettext_noop("Ghost {player} stole {card}."), player=_p(seat), card=_owned(card, victim)))
        if self._check_lizzies(state, logs):
            return
        self._end_turn(state, logs)

    def _ghost_double(self, state: State, move: Move, logs: list[LogEntry]) -> None:
        """LG-7 / LG-8: three top cards from three sources form a double on a loaned Lizzy."""
        seat = state["step"]["seat"]
        loaned: Stacks = {part: [] for part in PARTS}
        taken = []
        for part in PARTS:
            card = _move_top(state, source_stacks(state, move[part]), loaned, part)
            taken.append(_owned(card, move[part]))
        state["loaned"] = loaned
        cards = three(taken)
        logs.append(
            logged(gettext_noop("Ghost {player} took {cards} as a loaned Lizzy."), player=_p(seat), cards=cards)
        )
        if self._check_lizzies(state, logs):
            return
        # ruling LG-7: attempts go clockwise from the ghost's left.
        self._start_event(state, "loaned", (seat + 1) % state["players"], logs)

    def _showdown_move(self, state: State, source: Any, to: int, part: str, logs: list[LogEntry]) -> None:
        """LG-8: a top card from the other team Lizzy or from the Burn Lizzy; a double on the
        receiving Lizzy may earn an extra turn."""
        seat = state["step"]["seat"]
        card = _move_top(state, source_stacks(state, source), state["lizzies"][to], part)
        template = gettext_noop("{player} moved {card} onto {other}'s Lizzy.")
        if source == BURN:
            template = gettext_noop("{player} took {card} onto {other}'s Lizzy.")
        logs.append(logged(template, player=_p(seat), card=_owned(card, source), other=_p(to)))
        if self._check_lizzies(state, logs):
            return
        self._end_team_turn(state, info_of(state["lizzies"][to]).double, logs)

    # --- events ------------------------------------------------------------------------------
    def _start_event(self, state: State, on: str, start: int, logs: list[LogEntry]) -> None:
        """Rulings LG-5 / LG-7 / LG-11: the event's kind, its draw (or dice) and its attempts.
        Starting an event replaces any event in progress (a chain)."""
        step = state["step"]
        seat = step["seat"]
        stacks = {"own": state["lizzies"][seat], "burn": state["burn"], "loaned": state["loaned"]}[on]
        top_cards = tops(stacks)
        info = info_of_tops(top_cards)
        same = info.colours == "same"
        kind = "ghost" if on == "loaned" else ("steal" if same else "burn")
        where = {
            "own": _("{player}'s Lizzy", player=_p(seat)),
            "burn": _("The Burn Lizzy"),
            "loaned": _("The loaned Lizzy"),
        }
        card = None
        dice = None
        if info.golden:
            won = True  # ruling LG-5: a golden Lizzy wins without a draw
            draw = _("golden Lizzy, won without a draw")
        elif state["dicey"]:
            dice = throw_dice(draw_rng(state))
            won = event_won_by_dice(same, dice)  # ruling LG-11
            faces = three([face_words(die) for die in dice])
            draw = _("threw {dice}: won", dice=faces) if won else _("threw {dice}: lost", dice=faces)
        else:
            card = state["side"].pop(0)
            state["side"].append(card)  # ruling LG-5: the drawn card goes to the bottom
            won = event_won_by_card(top_cards, card)
            draw = _("drew {card}: won", card=a_card(card)) if won else _("drew {card}: lost", card=a_card(card))
        if won:
            targets = living_from(state, start, exclude=seat)
            then = _("one attempt on each Lizzy") if kind == "ghost" else _("one attempt on each other living Lizzy")
        else:
            targets = []
            then = _("one card of choice")
        template = gettext_noop("{where} is a double with different colours: {event}; {draw}; {then}.")
        if same:
            template = gettext_noop("{where} is a double with same colours: {event}; {draw}; {then}.")
        logs.append(logged(template, where=where[on], event=EVENT_WORDS[kind], draw=draw, then=then))
        state["last_draw"] = {
            "seat": seat,
            "event": kind,
            "on": on,
            "golden": info.golden,
            "card": card,
            "dice": dice,
            "won": won,
        }
        step["event"] = {"kind": kind, "on": on, "won": won, "start": start, "targets": targets}

    def _end_event(self, state: State, logs: list[LogEntry]) -> None:
        step = state["step"]
        step["event"] = None
        if step["kind"] == LIZZY_TURN:
            self._next_opponent(state, logs)  # ruling LG-5: the pass-around goes on
        else:
            self._end_turn(state, logs)  # a ghost's turn ends with its event chain (LG-7)

    # --- turns -------------------------------------------------------------------------------
    def _start_turn(self, state: State, seat: int, logs: list[LogEntry]) -> None:
        if state["lizzies"][seat] is None:
            state["step"] = {"seat": seat, "kind": GHOST_TURN, "opponent": None, "event": None}
            logs.append(logged(gettext_noop("Ghost {player}'s turn."), player=_p(seat)))
        else:
            state["step"] = {"seat": seat, "kind": LIZZY_TURN, "opponent": seat, "event": None}
            logs.append(logged(gettext_noop("{player}'s turn."), player=_p(seat)))
            self._next_opponent(state, logs)

    def _next_opponent(self, state: State, logs: list[LogEntry]) -> None:
        """LG-4: pass the next living Lizzy clockwise; back at oneself, the turn ends."""
        step = state["step"]
        seat = step["seat"]
        players = state["players"]
        for offset in range(1, players):
            other = (step["opponent"] + offset) % players
            if other == seat:
                break
            if state["lizzies"][other] is not None:
                step["opponent"] = other
                return
        self._end_turn(state, logs)

    def _end_turn(self, state: State, logs: list[LogEntry]) -> None:
        if state["loaned"] is not None:
            self._return_loaned(state)
        if state["phase"] == SHOWDOWN:
            self._end_team_turn(state, False, logs)
            return
        players = state["players"]
        state["turns_taken"] += 1
        if state["turns_taken"] % players == 0:  # a cycle: every player had a turn (LG-10)
            state["quiet_cycles"] = 0 if state["cycle_moved"] else state["quiet_cycles"] + 1
            state["cycle_moved"] = False
            if state["quiet_cycles"] >= QUIET_CYCLES:
                self._finish(state, END_STUCK, logs)
                return
            if state["turns_taken"] >= MAX_CYCLES * players:
                self._finish(state, END_CYCLES, logs)
                return
        self._start_turn(state, (state["step"]["seat"] + 1) % players, logs)

    def _return_loaned(self, state: State) -> None:
        """LG-7: every card a ghost took ends in its face-down pile."""
        ghost = state["step"]["seat"]
        for part in PARTS:
            state["piles"][ghost].extend(state["loaned"][part])
        state["loaned"] = None

    # --- ghosts, showdown, the end ----------------------------------------------------------
    def _check_lizzies(self, state: State, logs: list[LogEntry]) -> bool:
        """After a card moved: turn Lizzies with one body part left into ghosts (LG-6), then
        start the showdown or end the game where that follows. True when the turn is cut off."""
        turned = []
        for seat, stacks in enumerate(state["lizzies"]):
            if stacks is not None and parts_held(stacks) < 2:
                count = card_count(stacks)
                for part in PARTS:
                    state["piles"][seat].extend(stacks[part])
                state["lizzies"][seat] = None
                turned.append(seat)
                text = gettext_noop("{player} has one body part left and turns into a ghost ({count} cards face down).")
                logs.append(logged(text, player=_p(seat), count=count))
        if state["phase"] == SHOWDOWN:
            # ruling LG-8: only the two team Lizzies live now, so any new ghost is one of them.
            if turned:
                self._finish(state, END_SHOWDOWN_GHOST, logs)
                return True
            if not card_count(state["burn"]):
                self._finish(state, END_BURN_EMPTY, logs)
                return True
            return False
        if not turned:
            return False
        state["phase"] = TRANSITION
        living = len(living_seats(state))
        if living <= 1:
            # ruling LG-9; with four or more players only a ghost double can ghost two Lizzies
            # at once, and then (table rule) the game ends the same way, with no showdown.
            self._finish(state, END_LAST_LIZZY, logs)
            return True
        if living == 2 and state["players"] > 3:
            self._start_showdown(state, logs)  # ruling LG-8: at once, the rest is dropped
            return True
        return False

    def _start_showdown(self, state: State, logs: list[LogEntry]) -> None:
        """LG-8: teams, Lizzies first; within a team, seat order clockwise from the player whose
        turn was cut off."""
        if state["loaned"] is not None:
            self._return_loaned(state)
        players = state["players"]
        acting = state["step"]["seat"]

        def clockwise(seats: list[int]) -> list[int]:
            return sorted(seats, key=lambda seat: (seat - acting - 1) % players)

        living = living_seats(state)
        ghosts = [seat for seat in range(players) if seat not in living]
        state["phase"] = SHOWDOWN
        state["showdown"] = {
            "lizzies": clockwise(living),
            "ghosts": clockwise(ghosts),
            "team": "lizzies",
            "team_turns": 0,
            "next": {"lizzies": 0, "ghosts": 0},
            "extra_turn": False,  # is the current team turn an extra one (never two in a row)
        }
        names = listed([_p(seat) for seat in state["showdown"]["lizzies"]])
        logs.append(logged(gettext_noop("Showdown! Team Lizzies ({names}) against team Ghosties."), names=names))
        self._start_team_turn(state, logs)

    def _start_team_turn(self, state: State, logs: list[LogEntry]) -> None:
        showdown = state["showdown"]
        team = showdown["team"]
        members = showdown[team]
        seat = members[showdown["next"][team] % len(members)]
        showdown["next"][team] += 1
        kind = SHOWDOWN_LIZZIES if team == "lizzies" else GHOST_TURN
        state["step"] = {"seat": seat, "kind": kind, "opponent": None, "event": None}
        template = gettext_noop("Team Lizzies: {player} plays.")
        if team != "lizzies":
            template = gettext_noop("Team Ghosties: {player} plays.")
        logs.append(logged(template, player=_p(seat)))

    def _end_team_turn(self, state: State, double: bool, logs: list[LogEntry]) -> None:
        showdown = state["showdown"]
        showdown["team_turns"] += 1  # extra turns and passes count (LG-8)
        if showdown["team_turns"] >= SHOWDOWN_TEAM_TURNS:
            self._finish(state, END_TEAM_TURNS, logs)
            return
        if showdown["team"] == "lizzies" and double and not showdown["extra_turn"]:
            showdown["extra_turn"] = True
            logs.append(logged(gettext_noop("A double: team Lizzies plays an extra turn.")))
        else:
            showdown["extra_turn"] = False
            showdown["team"] = "ghosts" if showdown["team"] == "lizzies" else "lizzies"
        self._start_team_turn(state, logs)

    def _finish(self, state: State, why: str, logs: list[LogEntry]) -> None:
        players = state["players"]
        if state["loaned"] is not None:
            self._return_loaned(state)
        # Table rule: a player's team is what they are when the game ends (LG-8: "Lizzy stacks
        # vs ghost piles"), so a showdown Lizzy that turns ghost counts with the ghosts.
        lizzy_team = living_seats(state)
        ghost_team = [seat for seat in range(players) if seat not in lizzy_team]
        if why == END_LAST_LIZZY and len(lizzy_team) == 1:
            last = lizzy_team[0]
            taken = card_count(state["burn"])
            for part in PARTS:  # ruling LG-9: the last Lizzy takes every Burn Lizzy card
                state["lizzies"][last][part].extend(state["burn"][part])
                state["burn"][part] = []
            template = gettext_noop("{player} is the last Lizzy standing and takes the {count} Burn Lizzy cards.")
            logs.append(logged(template, player=_p(last), count=taken))
        cards = [cards_of(state, seat) for seat in range(players)]
        lizzy_cards = sum(cards[seat] for seat in lizzy_team)
        ghost_cards = sum(cards[seat] for seat in ghost_team)
        # ruling LG-9: the last Lizzy wins only with more cards than all ghosts together, so
        # equal counts go to the ghosts there; elsewhere equal is a draw (LG-8). LG-10: no
        # ghosts yet is a draw (and so, by our table rule, is no Lizzy left).
        tie_to_ghosts = why == END_LAST_LIZZY
        if not lizzy_team or not ghost_team or (lizzy_cards == ghost_cards and not tie_to_ghosts):
            winners: list[int] = []
            verdict = _("a draw")
        elif lizzy_cards > ghost_cards:
            winners, verdict = lizzy_team, _("team Lizzies wins")
        else:
            winners, verdict = ghost_team, _("team Ghosties wins")
        reason = _(
            "{cause}: team Lizzies {lizzy_cards} cards, team Ghosties {ghost_cards}; {verdict}.",
            cause=_end_cause(why, bool(lizzy_team)),
            lizzy_cards=lizzy_cards,
            ghost_cards=ghost_cards,
            verdict=verdict,
        )
        state["result"] = {
            "winners": sorted(winners),
            "scores": [lizzy_cards if seat in lizzy_team else ghost_cards for seat in range(players)],
            "reason": str(reason),
            "reason_words": stored(reason),  # the reason's words for other languages
            "draw": not winners,
            "lizzies": sorted(lizzy_team),
            "ghosts": sorted(ghost_team),
            "cards": cards,
        }
        state["phase"] = OVER
        state["step"] = None
        logs.append(logged(gettext_noop("Game over. {reason}"), reason=reason))

    # --- settling: take forced skips and passes ---------------------------------------------
    def _settle(self, state: State, logs: list[LogEntry]) -> None:
        """Advance until a seat has a real choice or the game is over. Every loop takes a skip,
        a pass or ends an event, so it ends (see max_moves for the bound on turns)."""
        while state["phase"] != OVER:
            step = state["step"]
            event = step["event"]
            if event is not None and event["won"] and not event["targets"]:
                self._end_event(state, logs)  # every attempt was made
                continue
            moves = decision_moves(state)
            if any(move["type"] != "skip" for move in moves):
                return
            if moves:
                self._skip(state, logs)
            elif step["kind"] == SHOWDOWN_LIZZIES:
                logs.append(logged(gettext_noop("Team Lizzies cannot move a card and passes.")))  # ruling LG-8
                self._end_team_turn(state, False, logs)
            else:
                raise AssertionError(f"a decision without moves: {step}")

    # --- timeouts, views, results ------------------------------------------------------------
    def apply_timeout(self, state: State, seat: int) -> tuple[State, list[LogEntry]]:
        raise NotImplementedError("Lizzy Ghosties lets a bot play a late decision (ruling ALL-4).")

    def view(self, state: State, seat: int | None, ended: bool = False) -> View:
        over = state["phase"] == OVER
        showdown = state["showdown"]
        step = state["step"]
        teams = _teams(state)
        seats = [
            {
                "seat": other,
                "ghost": stacks is None,
                "stacks": None if stacks is None else _stacks_view(stacks),
                "lizzy": None if stacks is None else _lizzy_view(stacks),
                "pile_size": len(state["piles"][other]),
                "cards": cards_of(state, other),
                "team": None if teams is None else ("lizzies" if other in teams["lizzies"] else "ghosts"),
            }
            for other, stacks in enumerate(state["lizzies"])
        ]
        legal = [] if seat is None else self.legal_moves(state, seat)
        effects = [{"move": move, "effect": effect} for move in legal if (effect := move_effect(state, move))]
        view: View = {
            "game": self.slug,
            "seat": seat,
            "players": state["players"],
            "dicey": state["dicey"],
            "phase": state["phase"],
            "first_player": state["first"],
            "turn": None if step is None else step["seat"],
            "to_act": self.to_act(state),
            "cycle": state["turns_taken"] // state["players"] + 1,
            "max_cycles": MAX_CYCLES,
            "seats": seats,
            "burn": {"stacks": _stacks_view(state["burn"]), "lizzy": _lizzy_view(state["burn"])},
            "burn_size": card_count(state["burn"]),
            "loaned": None,
            "side_stack_size": len(state["side"]),
            "teams": teams,
            "showdown": None,
            "pending": None if step is None else _pending_view(state),
            "legal_moves": legal,
            "move_effects": effects,  # what the viewer's legal moves set off: see move_effect
            "last_draw": None if state["last_draw"] is None else dict(state["last_draw"]),
            "result": None if state["result"] is None else _json_copy(state["result"]),
            "revealed": None,
        }
        if state["loaned"] is not None:
            view["loaned"] = {
                "seat": step["seat"],
                "stacks": _stacks_view(state["loaned"]),
                "lizzy": _lizzy_view(state["loaned"]),
            }
        if showdown is not None:
            view["showdown"] = {
                "team": showdown["team"],
                "team_turns": showdown["team_turns"],
                "max_team_turns": SHOWDOWN_TEAM_TURNS,
                "extra_turn": showdown["extra_turn"],
            }
        if over or ended:
            view["revealed"] = _revealed(state)
        return view

    def result(self, state: State) -> Result | None:
        if state["result"] is None:
            return None
        found = state["result"]
        return Result(
            winners=list(found["winners"]),
            scores=list(found["scores"]),
            reason=found["reason"],
            draw=found["draw"],
            reason_words=found.get("reason_words", {}),  # none in games that ended before the words were kept
        )

    def turn_key(self, state: State) -> Any:
        """Ruling ALL-1: one clock covers a whole turn, so a Lizzy's pass-around and all its
        events share one key. Before the showdown a turn is numbered by the turns completed; in
        the showdown every team turn (extra turns too) is a turn of its own."""
        if state["phase"] == OVER:
            return "over"
        if state["showdown"] is not None:
            return f"showdown:{state['showdown']['team_turns']}"
        return f"turn:{state['turns_taken']}"

    def hidden_twin(self, state: State, seat: int | None, rng: random.Random) -> State:
        """LG-2 hides the same from everyone, owners included: every card below a top (of the
        Lizzies, the Burn Lizzy and a loaned Lizzy, each stack keeping its part), every ghost
        pile's inside and the side stack. All of these are dealt anew; sizes and tops stay."""
        twin = super().hidden_twin(state, seat, rng)
        if twin["phase"] == OVER:
            return twin  # ALL-3: everything is public after the end
        all_stacks = [stacks for stacks in twin["lizzies"] if stacks is not None] + [twin["burn"]]
        if twin["loaned"] is not None:
            all_stacks.append(twin["loaned"])
        pool = [card for stacks in all_stacks for part in PARTS for card in stacks[part][:-1]]
        pool += [card for pile in twin["piles"] for card in pile] + twin["side"]
        rng.shuffle(pool)
        for stacks in all_stacks:
            for part in PARTS:
                if len(stacks[part]) > 1:
                    # The pool always holds enough cards of this part: the real deal is one way.
                    below = [card for card in pool if part_of(card) == part][: len(stacks[part]) - 1]
                    for card in below:
                        pool.remove(card)
                    stacks[part] = below + stacks[part][-1:]
        for pile in twin["piles"]:
            pile[:], pool = pool[: len(pile)], pool[len(pile) :]
        twin["side"] = pool
        return twin

    def max_moves(self, players: int, options: dict[str, Any]) -> int:
        """A true bound on apply() calls (forced skips and passes are not apply calls).

        Before the showdown there are at most MAX_CYCLES * players turns (LG-10). In a Lizzy's
        turn: one decision per opponent passed (players - 1), plus one decision per attempt of
        each event, at most players - 1 per event. Every event starts with a grab (a steal or a
        burn) that takes a card from another Lizzy; the others together hold at most 54 cards at
        the start of the turn and gain at most players - 1 by gives, so a turn holds at most
        54 + players - 1 events. A ghost's turn: one decision plus at most 54 events (each takes a
        Lizzy's card) of at most players - 1 decisions. The showdown has at most 200 team turns
        (LG-8), the worst being a ghost's turn as above.
        """
        others = players - 1
        lizzy_turn = others + (len(DECK) + others) * others
        ghost_turn = 1 + len(DECK) * others
        before = MAX_CYCLES * players * max(lizzy_turn, ghost_turn)
        showdown = 0 if players == 3 else SHOWDOWN_TEAM_TURNS * ghost_turn
        return before + showdown

    def check_invariants(self, state: State) -> None:
        players = state["players"]
        found: list[str] = list(state["side"])
        for part in PARTS:
            found.extend(state["burn"][part])
            assert all(part_of(card) == part for card in state["burn"][part]), "a wrong card in the Burn"
            if state["loaned"] is not None:
                found.extend(state["loaned"][part])
        for seat in range(players):
            found.extend(state["piles"][seat])
            stacks = state["lizzies"][seat]
            if stacks is None:
                continue
            assert not state["piles"][seat], f"Lizzy {seat} has a ghost pile"
            assert parts_held(stacks) >= 2, f"Lizzy {seat} with one body part left is not a ghost (LG-6)"
            for part in PARTS:
                found.extend(stacks[part])
                assert all(part_of(card) == part for card in stacks[part]), f"a card in Lizzy {seat}'s {part}"
        assert sorted(found) == sorted(DECK), "every card must be somewhere exactly once"
        side_size = len(DECK) - 3 * (players * cards_per_part(players) + 1)
        assert len(state["side"]) == side_size, "the side stack never changes size (LG-5)"
        living = living_seats(state)
        phase = state["phase"]
        if phase == OVER:
            assert state["step"] is None and state["result"] is not None
            assert state["loaned"] is None, "loaned cards must be returned to the ghost's pile"
            return
        assert state["result"] is None
        assert (phase == OPENING) == (len(living) == players), "opening means no ghost yet"
        assert state["turns_taken"] < MAX_CYCLES * players or phase == SHOWDOWN
        step = state["step"]
        seat = step["seat"]
        assert any(move != SKIP for move in decision_moves(state)), "the seat to act has a real choice"
        if phase == SHOWDOWN:
            showdown = state["showdown"]
            assert sorted(showdown["lizzies"]) == living and len(living) == 2, "two Lizzies in the showdown"
            assert any(state["burn"][part] for part in PARTS), "an empty Burn Lizzy ends the showdown"
            assert showdown["team_turns"] < SHOWDOWN_TEAM_TURNS
            in_team = showdown["lizzies"] if step["kind"] == SHOWDOWN_LIZZIES else showdown["ghosts"]
            assert seat in in_team
        else:
            assert state["showdown"] is None
            assert len(living) >= (2 if players == 3 else 3), "too few Lizzies without a showdown"
        if step["kind"] == GHOST_TURN:
            assert state["lizzies"][seat] is None, "a ghost's turn for a Lizzy"
            assert (state["loaned"] is None) == (step["event"] is None), "a loaned Lizzy outside events"
        else:
            assert state["lizzies"][seat] is not None, "a Lizzy's turn for a ghost"
            assert state["loaned"] is None
        if step["kind"] == LIZZY_TURN and step["event"] is None:
            opponent = step["opponent"]
            assert opponent != seat and state["lizzies"][opponent] is not None, "passing a living Lizzy"
        if step["event"] is not None:
            # Only the Lizzy attempted loses a card, and a chain recounts its targets: every
            # target still waiting is a living Lizzy.
            targets = step["event"]["targets"]
            assert targets or not step["event"]["won"], "a won event with no attempt left"
            assert all(target != seat and state["lizzies"][target] is not None for target in targets)

    def check_vector(self, case: dict[str, Any]) -> None:
        if case.get("kind") != "lizzy":
            super().check_vector(case)
            return
        # The classification part of a "lizzy" case (LZ-2); "power" is Dizzy Duo Battle's.
        info = info_of_cards(*case["lizzy"])
        for key in ("colours", "patterns", "valid", "double", "golden"):
            assert getattr(info, key) == case[key], f"{case['lizzy']}: {key} {getattr(info, key)!r}"


def _end_cause(why: str, lizzy_left: bool) -> Msg:
    """Why the game ended, in words for the result's reason."""
    if why == END_BURN_EMPTY:
        return _("The Burn Lizzy is empty")
    if why == END_SHOWDOWN_GHOST:
        return _("A Lizzy of the showdown turned ghost")
    if why == END_TEAM_TURNS:
        return _("{number} team turns were played", number=SHOWDOWN_TEAM_TURNS)
    if why == END_STUCK:
        return _("{number} cycles passed with no card moved", number=QUIET_CYCLES)
    if why == END_CYCLES:
        return _("{number} cycles passed before the showdown", number=MAX_CYCLES)
    return _("One Lizzy is left") if lizzy_left else _("No Lizzy is left")


# --- moving cards ---------------------------------------------------------------------------------
def _owned(card: str, source: int | str) -> Msg:
    """A card with whose it was: "{p2}'s red dots head", "the Burn Lizzy's red dots head"."""
    return owned_card(card, BURN_LIZZYS if source == BURN else owner(_p(source)))


def _move_top(state: State, source: Stacks, target: Stacks, part: str) -> str:
    card = source[part].pop()
    target[part].append(card)
    state["cycle_moved"] = True
    return card


# --- views ---------------------------------------------------------------------------------------


def _revealed(state: State) -> dict[str, Any]:
    """ALL-3: after the end (however the match ended) everything is public, the cards below the tops too."""
    return {
        "lizzies": [None if stacks is None else _copy_stacks(stacks) for stacks in state["lizzies"]],
        "piles": [list(pile) for pile in state["piles"]],
        "burn": _copy_stacks(state["burn"]),
        "side_stack": list(state["side"]),
    }


def _teams(state: State) -> dict[str, list[int]] | None:
    """The sides, once there are any: at the end, in the showdown, or just before it."""
    if state["phase"] == OVER:
        return {"lizzies": list(state["result"]["lizzies"]), "ghosts": list(state["result"]["ghosts"])}
    if state["showdown"] is not None:
        return {"lizzies": list(state["showdown"]["lizzies"]), "ghosts": list(state["showdown"]["ghosts"])}
    if state["phase"] == TRANSITION:
        # Before the showdown the sides are simply the living Lizzies and the ghosts.
        living = living_seats(state)
        return {"lizzies": living, "ghosts": [other for other in range(state["players"]) if other not in living]}
    return None


def _stacks_view(stacks: Stacks) -> dict[str, dict[str, Any]]:
    """LG-2: only the top card and the size of each stack."""
    return {part: {"top": cards[-1] if cards else None, "size": len(cards)} for part, cards in stacks.items()}


def _lizzy_view(stacks: Stacks) -> dict[str, Any]:
    """What the tops make of a Lizzy (LZ-2), for templates and bots."""
    info = info_of(stacks)
    if info is None:
        return {
            "complete": False,
            "valid": False,
            "double": False,
            "golden": False,
            "colours": None,
            "patterns": None,
        }
    return {
        "complete": True,
        "valid": info.valid,
        "double": info.double,
        "golden": info.golden,
        "colours": info.colours,
        "patterns": info.patterns,
    }


def _pending_view(state: State) -> dict[str, Any]:
    step = state["step"]
    seat = step["seat"]
    event = step["event"]
    pending: dict[str, Any] = {"seat": seat, "opponent": None, "event": None}
    if event is not None:
        pending["kind"] = "ghost_event" if step["kind"] == GHOST_TURN else "event"
        pending["event"] = {
            "kind": event["kind"],
            "on": event["on"],
            "won": event["won"],
            "start": event["start"],
            "targets": list(event["targets"]),
        }
        pending["prompt"] = _event_prompt(seat, event)
    elif step["kind"] == LIZZY_TURN:
        pending["kind"] = "pass"
        pending["opponent"] = step["opponent"]
        pending["prompt"] = _(
            "{player} passes {other}: steal, give or skip.", player=_p(seat), other=_p(step["opponent"])
        )
    elif step["kind"] == GHOST_TURN:
        pending["kind"] = "showdown_ghosts" if state["phase"] == SHOWDOWN else "ghost_turn"
        pending["prompt"] = _("Ghost {player} steals one card or grabs a double.", player=_p(seat))
    else:
        pending["kind"] = "showdown_lizzies"
        template = gettext_noop("{player} moves a card between the two Lizzies or takes a Burn Lizzy card.")
        pending["prompt"] = _(template, player=_p(seat))
    return pending


def _event_prompt(seat: int, event: dict[str, Any]) -> Msg:
    """The decision of an event, seats as placeholders ("{p0} may steal one of {p2}'s top cards, or skip.")."""
    burn = event["kind"] == "burn"
    if not event["won"]:
        if burn:
            return _("{player} lost the draw: choose one card to burn, or skip.", player=_p(seat))
        return _("{player} lost the draw: choose one card to steal, or skip.", player=_p(seat))
    target = _p(event["targets"][0])
    if burn:
        return _("{player} may burn one of {other}'s top cards, or skip.", player=_p(seat), other=target)
    return _("{player} may steal one of {other}'s top cards, or skip.", player=_p(seat), other=target)


# The one engine of the game; the spec (__init__.py), the bots and the site use this instance.
ENGINE = LizzyGhosties()
