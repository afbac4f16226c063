"""The Solitaire Chess engine: state, turns, scoring (rules and table rules: see __init__.py)."""

from __future__ import annotations

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
from games.engines.solitaire_chess import rules
from games.engines.solitaire_chess.phrases import the_card
from games.engines.solitaire_chess.rules import GREY, KIND, PLAY
from games.engines.words import _, gettext_noop, logged

DEATH = "death"
FINAL = "final"
RULESET_NAMES = {DEATH: "Death Match", FINAL: "Final Match"}

ORDER = "order"  # the advantage player chooses to go first or second
SETUP = "setup"  # five pieces each onto grey squares, alternately
PLAYING = "play"
OVER = "over"

NO_MOVES = "no_moves"
TIMEOUT = "timeout"


# The words of a card in a log text, marked for translation (the rank and suit names of rules.py).


def _p(seat: int) -> str:
    return f"{{p{seat}}}"  # "{p0}": the site puts the player's name there


def _copy_state(state: State) -> State:
    """A deep copy that knows the state's shape (much faster than copy.deepcopy)."""
    new = dict(state)
    new["cards"] = dict(state["cards"])
    new["pieces"] = {sq: dict(piece) for sq, piece in state["pieces"].items()}
    new["stacks"] = [{suit: list(cards) for suit, cards in stacks.items()} for stacks in state["stacks"]]
    for key in ("in_hand", "captures", "pieces_lost", "out", "out_reason", "out_order"):
        new[key] = list(state[key])
    new["rng"] = dict(state["rng"])
    new["last_move"] = dict(state["last_move"]) if state["last_move"] is not None else None
    return new


class SolitaireChess(Engine):
    slug = "solitaire-chess"
    name = "Solitaire Chess"
    min_players = 2
    max_players = 2
    options = (
        Option(
            "ruleset",
            "choice",
            DEATH,
            gettext_noop("Rule set"),
            choices=((DEATH, gettext_noop("Death Match")), (FINAL, gettext_noop("Final Match"))),
            help=gettext_noop(
                "Death Match: captures give the capturer pieces; running out of time loses. Final Match: "
                "at most 3 pieces in the play area, captures give both players pieces."
            ),
        ),
        Option(
            "advantage",
            "choice",
            "random",
            gettext_noop("Advantage player"),
            choices=(
                ("random", gettext_noop("Drawn at random")),
                ("0", gettext_noop("First seat")),
                ("1", gettext_noop("Second seat")),
            ),
            help=gettext_noop(
                "The advantage player chooses to go first or second. In a Death Match they also win a tie."
            ),
        ),
    )
    timeout_policy = "engine"
    move_fields = {
        "order": frozenset({"type", "first"}),
        "place": frozenset({"type", "to"}),
        "move": frozenset({"type", "from", "to"}),
        "swap": frozenset({"type", "from", "to", "remove"}),
    }

    # --- the game ------------------------------------------------------------------------

    def new_state(self, players: int, options: dict[str, Any], seed: int) -> State:
        options = self.parse_options(options, players)
        state: State = {
            "ruleset": options["ruleset"],
            "advantage": None,
            "first": None,
            "phase": ORDER,
            "turn": None,
            "turn_number": 0,  # turns taken so far (moves and timeouts)
            "cards": {},
            "pieces": {},  # square -> {"owner": seat, "entered": turn it entered the play area or None}
            "in_hand": [rules.SETUP_PIECES, rules.SETUP_PIECES],  # pieces still to place
            "stacks": [rules.empty_stacks(), rules.empty_stacks()],
            "captures": [0, 0],  # captures made by each player
            "pieces_lost": [0, 0],  # pieces of each player captured
            "out": [False, False],
            "out_reason": [None, None],
            "out_order": [],  # seats in the order they went out
            "lost_on_time": None,  # Death Match: the seat that lost on time (ruling SC-7)
            "last_move": None,
            "rng": new_rng(seed),
        }
        deck = list(rules.DECK)
        draw_rng(state).shuffle(deck)  # ruling SC-1: every play square a different card
        state["cards"] = dict(zip(rules.PLAY_SQUARES, deck))
        if options["advantage"] == "random":
            state["advantage"] = draw_rng(state).randrange(2)  # ruling SC-2
        else:
            state["advantage"] = int(options["advantage"])
        state["turn"] = state["advantage"]
        return state

    def to_act(self, state: State) -> list[int]:
        return [] if state["turn"] is None else [state["turn"]]

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if state["turn"] != seat:
            return []
        if state["phase"] == ORDER:
            return [{"type": "order", "first": True}, {"type": "order", "first": False}]
        if state["phase"] == SETUP:
            return [{"type": "place", "to": sq} for sq in rules.place_squares(state["pieces"])]
        return rules.play_moves(
            state["cards"],
            state["pieces"],
            state["stacks"][seat],
            seat,
            state["in_hand"][seat],
            state["ruleset"] == FINAL,
        )

    def apply(self, state: State, seat: int, move: Move) -> tuple[State, list[LogEntry]]:
        if state["turn"] is None:
            raise IllegalMove(_("The game is over."))
        if state["turn"] != seat:
            raise IllegalMove(_("It is not your turn."))
        if not isinstance(move, dict):
            raise IllegalMove(_("A move must be an object with a type."))
        new = _copy_state(state)
        entries: list[LogEntry] = []
        kind = move.get("type")
        if kind == "order":
            self._choose_order(new, seat, move, entries)
        elif kind == "place":
            self._place(new, seat, move, entries)
        elif kind == "move":
            self._move(new, seat, move, entries)
        elif kind == "swap":
            self._swap(new, seat, move, entries)
        else:
            raise IllegalMove(_("Unknown kind of move: {kind}.", kind=repr(kind)))
        new["last_move"] = {"seat": seat, **move}
        new["turn_number"] += 1
        if kind == "order":
            new["turn"] = new["first"]  # the chooser may go first: no alternation here
        else:
            self._pass_turn(new, seat, entries)
        return new, entries

    def apply_timeout(self, state: State, seat: int) -> tuple[State, list[LogEntry]]:
        """Ruling SC-7: Death Match -> the late player loses; Final Match -> their pieces are removed
        and they take no more turns, while the other player plays on."""
        if state["turn"] != seat:
            raise IllegalMove(_("Only the player whose turn it is can run out of time."))
        new = _copy_state(state)
        entries: list[LogEntry] = []
        new["turn_number"] += 1
        new["last_move"] = {"seat": seat, "type": "timeout"}
        if new["ruleset"] == DEATH:
            new["lost_on_time"] = seat
            entries.append(logged(gettext_noop("{player} ran out of time and loses the Death Match."), player=_p(seat)))
            self._finish(new, entries)
            return new, entries
        entries.append(
            logged(
                gettext_noop("{player} ran out of time: their pieces are removed and they take no more turns."),
                player=_p(seat),
            )
        )
        self._remove_player(new, seat, TIMEOUT)
        if new["phase"] == ORDER:
            # A table rule: the advantage player's choice lapses and the other player goes first.
            new["first"] = 1 - seat
            new["phase"] = SETUP
        self._pass_turn(new, seat, entries)
        return new, entries

    # --- moves -----------------------------------------------------------------------------

    def _choose_order(self, state: State, seat: int, move: Move, entries: list[LogEntry]) -> None:
        if state["phase"] != ORDER:
            raise IllegalMove(_("The order of play has already been chosen."))
        first = move.get("first")
        if not isinstance(first, bool):
            raise IllegalMove(_("Choose to go first or second."))
        state["first"] = seat if first else 1 - seat
        state["phase"] = SETUP
        template = (
            gettext_noop("{player} chose to go first.") if first else gettext_noop("{player} chose to go second.")
        )
        entries.append(logged(template, player=_p(seat)))

    def _place(self, state: State, seat: int, move: Move, entries: list[LogEntry]) -> None:
        if state["phase"] not in (SETUP, PLAYING):
            raise IllegalMove(_("You cannot place a piece now: first choose the order of play."))
        if state["in_hand"][seat] <= 0:
            raise IllegalMove(_("You have no pieces left to place."))
        target = move.get("to")
        if not isinstance(target, str) or KIND.get(target) != GREY:
            raise IllegalMove(_("Pieces are placed on the grey squares around the play area."))
        if target in state["pieces"]:
            raise IllegalMove(_("{square} is already taken.", square=target))
        state["pieces"][target] = {"owner": seat, "entered": None}
        state["in_hand"][seat] -= 1
        entries.append(logged(gettext_noop("{player} placed a piece on {square}."), player=_p(seat), square=target))

    def _check_origin(self, state: State, seat: int, move: Move) -> tuple[str, str]:
        if state["phase"] != PLAYING:
            raise IllegalMove(_("Pieces move only once both players have placed their five pieces."))
        origin, target = move.get("from"), move.get("to")
        if not isinstance(origin, str) or not isinstance(target, str):
            raise IllegalMove(_("Say which piece moves (from) and where to (to)."))
        piece = state["pieces"].get(origin)
        if piece is None or piece["owner"] != seat:
            raise IllegalMove(_("You have no piece on {square}.", square=origin))
        return origin, target

    def _move(self, state: State, seat: int, move: Move, entries: list[LogEntry]) -> None:
        origin, target = self._check_origin(state, seat, move)
        problem = rules.why_not(state["cards"], state["pieces"], state["stacks"][seat], origin, target)
        if problem:
            raise IllegalMove(problem)
        limit = rules.FINAL_MATCH_PLAY_LIMIT
        if state["ruleset"] == FINAL and KIND[origin] == GREY and rules.in_play_count(state["pieces"], seat) >= limit:
            # ruling SC-5
            raise IllegalMove(
                _(
                    "You already have {limit} pieces in the play area. To bring another in, remove one of "
                    "them in the same turn (a swap).",
                    limit=limit,
                )
            )
        self._land(state, seat, origin, target, entries, removed="")

    def _swap(self, state: State, seat: int, move: Move, entries: list[LogEntry]) -> None:
        """Ruling SC-5 (Final Match): remove one of your 3 play-area pieces, then bring a grey piece in."""
        if state["ruleset"] != FINAL:
            raise IllegalMove(_("Swapping a piece in is a Final Match rule."))
        origin, target = self._check_origin(state, seat, move)
        removed = move.get("remove")
        pieces = state["pieces"]
        limit = rules.FINAL_MATCH_PLAY_LIMIT
        if rules.in_play_count(pieces, seat) < limit:
            raise IllegalMove(_("A swap is only for a player with {limit} pieces in the play area.", limit=limit))
        removed_piece = pieces.get(removed) if isinstance(removed, str) else None
        if removed_piece is None or removed_piece["owner"] != seat or KIND[removed] != PLAY:
            raise IllegalMove(_("Choose one of your pieces in the play area to remove."))
        if KIND[origin] != GREY:
            raise IllegalMove(_("A swap brings in a piece from a grey square."))
        del pieces[removed]  # it leaves first (a table rule): its square is free for the newcomer
        problem = rules.why_not(state["cards"], pieces, state["stacks"][seat], origin, target)
        if problem:
            raise IllegalMove(problem)
        self._land(state, seat, origin, target, entries, removed=removed)

    def _land(self, state: State, seat: int, origin: str, target: str, entries: list[LogEntry], removed: str) -> None:
        """Carry out a move already found legal: a capture or a card gained."""
        pieces = state["pieces"]
        piece = pieces.pop(origin)
        if KIND[origin] == GREY:
            piece["entered"] = state["turn_number"]
        victim = pieces.get(target)
        pieces[target] = piece
        if victim is None:
            card = state["cards"][target]
            state["stacks"][seat][rules.suit_of(card)].append(card)
            took = the_card(card)
            template = gettext_noop("{player} moved from {origin} to {target} and took {card}.")
            if removed:
                template = gettext_noop(
                    "{player} removed their piece on {removed}, then moved from {origin} to {target} and took {card}."
                )
            words = {"player": _p(seat), "origin": origin, "target": target, "card": took}
            entries.append(logged(template, **words, **({"removed": removed} if removed else {})))
            return
        other = victim["owner"]
        template = gettext_noop("{player} moved from {origin} to {target} and captured a piece of {other}.")
        if removed:
            template = gettext_noop(
                "{player} removed their piece on {removed}, then moved from {origin} to {target}"
                " and captured a piece of {other}."
            )
        words = {"player": _p(seat), "origin": origin, "target": target, "other": _p(other)}
        entries.append(logged(template, **words, **({"removed": removed} if removed else {})))
        state["captures"][seat] += 1
        state["pieces_lost"][other] += 1
        if state["ruleset"] == DEATH:
            if state["captures"][seat] <= rules.DEATH_MATCH_BONUS_CAPTURES:  # ruling SC-5
                state["in_hand"][seat] += 1
                entries.append(logged(gettext_noop("{player} gains a piece to place."), player=_p(seat)))
            return
        # Final Match, ruling SC-5: the game's first 6 captures give both players a piece, and a piece
        # captured on the turn right after it entered gives its owner one more (they stack).
        if sum(state["captures"]) <= rules.FINAL_MATCH_BONUS_CAPTURES:
            for gainer in (0, 1):
                if not state["out"][gainer]:
                    state["in_hand"][gainer] += 1
            entries.append(logged(gettext_noop("Both players gain a piece to place.")))
        if victim["entered"] == state["turn_number"] - 1:
            state["in_hand"][other] += 1
            entries.append(
                logged(
                    gettext_noop("{player} gains a piece to place: theirs was captured the turn after it entered."),
                    player=_p(other),
                )
            )

    # --- turns and the end -------------------------------------------------------------------

    def _pass_turn(self, state: State, mover: int, entries: list[LogEntry]) -> None:
        """Give the turn to the next player who can act; rule out those who cannot (ruling SC-6)."""
        if state["phase"] == SETUP and all(state["in_hand"][seat] == 0 for seat in (0, 1) if not state["out"][seat]):
            state["phase"] = PLAYING
        seat = 1 - mover if not state["out"][1 - mover] else mover
        while not state["out"][seat]:
            if state["phase"] != PLAYING or self._can_play(state, seat):
                state["turn"] = seat
                return
            on_board = any(p["owner"] == seat for p in state["pieces"].values())
            if not on_board and state["in_hand"][seat] == 0:
                template = gettext_noop("{player} has no pieces left and none to place: they take no more turns.")
            else:
                template = gettext_noop(
                    "{player} has no legal move: their pieces are removed and they take no more turns."
                )
            entries.append(logged(template, player=_p(seat)))
            self._remove_player(state, seat, NO_MOVES)
            seat = 1 - seat
        self._finish(state, entries)

    def _can_play(self, state: State, seat: int) -> bool:
        return rules.has_play_move(
            state["cards"],
            state["pieces"],
            state["stacks"][seat],
            seat,
            state["in_hand"][seat],
            state["ruleset"] == FINAL,
        )

    def _remove_player(self, state: State, seat: int, reason: str) -> None:
        """Take a player out: pieces off the board, none left to place, no more turns (SC-6, SC-7)."""
        state["pieces"] = {sq: p for sq, p in state["pieces"].items() if p["owner"] != seat}
        state["in_hand"][seat] = 0
        state["out"][seat] = True
        state["out_reason"][seat] = reason
        state["out_order"].append(seat)

    def _finish(self, state: State, entries: list[LogEntry]) -> None:
        state["phase"] = OVER
        state["turn"] = None
        outcome = self.result(state)
        assert outcome is not None
        entries.append(logged(gettext_noop("The game is over. {reason}"), reason=outcome.reason))

    def result(self, state: State) -> Result | None:
        if state["phase"] != OVER:
            return None
        scores = [self._score(state, seat) for seat in (0, 1)]
        if state["lost_on_time"] is not None:
            loser = state["lost_on_time"]
            return Result(
                [1 - loser], scores, _("{player} ran out of time and lost the Death Match.", player=_p(loser))
            )
        counts = {"first": _p(0), "first_cards": scores[0], "second": _p(1), "second_cards": scores[1]}
        if scores[0] != scores[1]:
            winner = 0 if scores[0] > scores[1] else 1
            template = gettext_noop(
                "{first} has {first_cards} cards in their stacks, {second} has {second_cards}. {winner} wins."
            )
            return Result([winner], scores, _(template, winner=_p(winner), **counts))
        if state["ruleset"] == DEATH:
            winner = state["advantage"]  # ruling SC-6
            template = gettext_noop(
                "{first} has {first_cards} cards in their stacks, {second} has {second_cards}."
                " A tie goes to the advantage player: {winner} wins."
            )
            return Result([winner], scores, _(template, winner=_p(winner), **counts))
        winner = state["out_order"][-1]  # ruling SC-6: whose pieces were removed last
        template = gettext_noop(
            "{first} has {first_cards} cards in their stacks, {second} has {second_cards}."
            " A tie goes to the player who kept pieces on the board longer: {winner} wins."
        )
        return Result([winner], scores, _(template, winner=_p(winner), **counts))

    @staticmethod
    def _score(state: State, seat: int) -> int:
        return sum(len(cards) for cards in state["stacks"][seat].values())

    def max_moves(self, players: int, options: dict[str, Any]) -> int:
        """A true upper bound on apply() calls.

        1 order choice + 10 setup placements, then every turn of play is one of:
        - a non-capturing move or a swap: it adds a card to a stack. Stacks rise strictly per suit,
          so each player gains at most 52 cards: at most 104 such turns;
        - a capture: it removes a piece, and a piece is removed at most once: at most P turns, where
          P is the number of pieces that ever exist;
        - a placement: it uses a piece won from a capture: at most P - 10 turns.
        Death Match: P <= 10 + 2 * 5 = 20. Final Match: P <= 10 + 2 * 6 + (entry bonuses); an entry
        bonus needs a piece that entered the play area, and each entry gains a card, so at most 104.
        """
        options = self.parse_options(options, players)
        setup = 1 + 2 * rules.SETUP_PIECES
        card_turns = 2 * len(rules.DECK)
        if options["ruleset"] == DEATH:
            bonuses = 2 * rules.DEATH_MATCH_BONUS_CAPTURES
        else:
            bonuses = 2 * rules.FINAL_MATCH_BONUS_CAPTURES + card_turns
        pieces = 2 * rules.SETUP_PIECES + bonuses
        return setup + card_turns + pieces + bonuses

    # --- what players see -------------------------------------------------------------------

    def view(self, state: State, seat: int | None, ended: bool = False) -> View:
        """Everything is public (no hidden information, so `ended` changes nothing), but never the
        generator (ruling ALL-2)."""
        final_match = state["ruleset"] == FINAL
        pieces_view = self._pieces_view(state, final_match)
        players = [self._player_view(state, player, final_match) for player in (0, 1)]
        destinations, swaps, place = self._seat_moves(state, seat, final_match)
        outcome = self.result(state)
        return {
            "game": self.slug,
            "ruleset": state["ruleset"],
            "ruleset_name": RULESET_NAMES[state["ruleset"]],
            "viewer": seat,
            "phase": state["phase"],
            "turn": state["turn"],
            "to_act": self.to_act(state),
            "turn_number": state["turn_number"],
            "advantage": state["advantage"],
            "first": state["first"],
            "columns": list(rules.COLUMNS),
            "rows": list(reversed(rules.ROWS)),
            "grid": self._grid(state, pieces_view),
            "cards": dict(state["cards"]),
            "play_squares": list(rules.PLAY_SQUARES),
            "grey_squares": list(rules.GREY_SQUARES),
            "holes": list(rules.HOLES),
            "pieces": pieces_view,
            "players": players,
            "scores": [p["cards"] for p in players],
            "play_area_limit": rules.FINAL_MATCH_PLAY_LIMIT if final_match else None,
            "may_choose_order": seat is not None and state["turn"] == seat and state["phase"] == ORDER,
            "destinations": destinations,
            "swaps": swaps,
            "place_squares": place,
            "last_move": dict(state["last_move"]) if state["last_move"] else None,
            "lost_on_time": state["lost_on_time"],
            "out_order": list(state["out_order"]),
            "result": outcome.as_dict() if outcome else None,
        }

    @staticmethod
    def _pieces_view(state: State, final_match: bool) -> dict[str, dict[str, Any]]:
        return {
            sq: {
                "owner": piece["owner"],
                "area": KIND[sq],
                # A Final Match capture of this piece now would give its owner a piece (SC-5).
                "just_entered": final_match
                and piece["entered"] is not None
                and piece["entered"] == state["turn_number"] - 1,
            }
            for sq, piece in state["pieces"].items()
        }

    @staticmethod
    def _grid(state: State, pieces_view: dict[str, dict[str, Any]]) -> list[list[dict[str, Any]]]:
        """The board row by row, top row first: each square's kind, card and piece."""
        return [
            [
                {
                    "square": sq,
                    "kind": KIND.get(sq, "none"),
                    "card": state["cards"].get(sq),
                    "piece": pieces_view.get(sq),
                }
                for sq in (rules.square_name(column, row) for column in range(len(rules.COLUMNS)))
            ]
            for row in reversed(rules.ROWS)
        ]

    def _player_view(self, state: State, player: int, final_match: bool) -> dict[str, Any]:
        stacks = state["stacks"][player]
        in_play = rules.in_play_count(state["pieces"], player)
        on_board = sum(1 for p in state["pieces"].values() if p["owner"] == player)
        if final_match:
            bonus_left = max(0, rules.FINAL_MATCH_BONUS_CAPTURES - sum(state["captures"]))
        else:
            bonus_left = max(0, rules.DEATH_MATCH_BONUS_CAPTURES - state["captures"][player])
        return {
            "seat": player,
            "stacks": {suit: list(cards) for suit, cards in stacks.items()},
            "tops": {suit: (cards[-1] if cards else None) for suit, cards in stacks.items()},
            "cards": self._score(state, player),
            "pieces_in_play_area": in_play,
            "pieces_on_grey": on_board - in_play,
            "pieces_to_place": state["in_hand"][player],
            "captures": state["captures"][player],
            "pieces_lost": state["pieces_lost"][player],
            "capture_bonuses_left": bonus_left,
            "out": state["out"][player],
            "out_reason": state["out_reason"][player],
            "is_advantage": state["advantage"] == player,
            "is_first": state["first"] == player,
        }

    @staticmethod
    def _seat_moves(state: State, seat: int | None, final_match: bool) -> tuple[dict, dict, list[str]]:
        """Where the viewer's queens may go, its swaps and where it may place: only on its own turn."""
        if seat is None or state["turn"] != seat or state["phase"] == ORDER:
            return {}, {}, []
        if state["phase"] == SETUP:
            return {}, {}, rules.place_squares(state["pieces"])
        my_stacks = state["stacks"][seat]
        destinations = rules.move_destinations(state["cards"], state["pieces"], my_stacks, seat, final_match)
        swaps = rules.swap_destinations(state["cards"], state["pieces"], my_stacks, seat, final_match)
        place = rules.place_squares(state["pieces"]) if state["in_hand"][seat] > 0 else []
        return destinations, swaps, place

    # --- checks ---------------------------------------------------------------------------------

    def check_invariants(self, state: State) -> None:
        cards = state["cards"]
        assert sorted(cards) == sorted(rules.PLAY_SQUARES), "every play square holds a card (SC-1)"
        assert sorted(cards.values()) == sorted(rules.DECK), "the 52 cards are one standard deck (SC-1)"
        final_match = state["ruleset"] == FINAL
        for sq, piece in state["pieces"].items():
            assert KIND.get(sq) in (PLAY, GREY), f"a piece stands on {sq}, not a square for pieces"
            assert piece["owner"] in (0, 1), f"bad owner on {sq}"
            assert not state["out"][piece["owner"]], f"a piece of a player who is out stands on {sq}"
            assert (piece["entered"] is None) == (KIND[sq] == GREY), f"entry turn wrong for {sq}"
        for seat in (0, 1):
            for suit, stack in state["stacks"][seat].items():
                assert all(rules.suit_of(card) == suit for card in stack), f"wrong suit in {suit} stack"
                ranks = [rules.rank_of(card) for card in stack]
                assert ranks == sorted(set(ranks)), f"{suit} stack of seat {seat} does not rise strictly"
            assert state["in_hand"][seat] >= 0
            if final_match:
                count = rules.in_play_count(state["pieces"], seat)
                assert count <= rules.FINAL_MATCH_PLAY_LIMIT, f"seat {seat} has {count} pieces in the play area"
            if state["out"][seat]:
                assert state["in_hand"][seat] == 0 and seat in state["out_order"]
        assert sorted(state["out_order"]) == [s for s in (0, 1) if state["out"][s]]
        if state["phase"] == OVER:
            assert state["turn"] is None
        else:
            assert state["turn"] in (0, 1) and not state["out"][state["turn"]]
            if state["phase"] == PLAYING:
                assert self.legal_moves(state, state["turn"]), "the player to act has a legal move"
        if state["phase"] in (SETUP, PLAYING):
            assert state["first"] in (0, 1)


# The one engine of the game; the spec (__init__.py), the bots and the site use this instance.
ENGINE = SolitaireChess()
