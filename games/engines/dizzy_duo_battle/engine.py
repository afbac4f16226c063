"""Dizzy Duo Battle: the rules of seed 000 with rulings DD-1 to DD-9 as an engine (see base.py).

A round: everyone still in holds 6 cards; in turn each takes the top open or the top blind card and
discards one card on the open pile (DD-6). Once every player has had 3 turns, a player holding two
valid Lizzies may attack instead of a turn; a player's 10th turn must be an attack (DD-7). The
attacker fights every other player; lives change, the cards are dealt again (DD-8).

Moves (JSON):
    {"type": "take", "from": "open"}         take the top card of the open pile
    {"type": "take", "from": "blind"}        take the top card of the blind pile
    {"type": "discard", "card": "head-red-dots"}   put a hand card on the open pile (ends the turn)
    {"type": "attack"}                       attack instead of a turn (turns the top blind card)
    {"type": "attack", "card": "head-..."}   main-attack rule (DD-9): after taking, attack by
                                             discarding this head card

A turn is two decisions (take, then discard): `to_act` stays on the same seat between them.

State (JSON): piles are lists whose LAST element is the top card; hands are kept sorted.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.engines import dizzy_cards as cards
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
    json_copy,
    new_rng,
)
from games.engines.dizzy_duo_battle.phrases import breakdown, joined, lizzy_summary
from games.engines.dizzy_duo_battle.rules import (
    FORCED_ATTACK_TURN,
    HAND_SIZE,
    MAX_ROUNDS,
    TURNS_BEFORE_ATTACK,
    attack_block,
    attack_forced,
    fewest_turns,
    fight_outcome,
    forced_main_attack_cards,
    legal_moves,
    main_attack_heads,
    next_in,
    players_in,
    seats_from,
    turns_block,
)
from games.engines.dizzy_phrases import card_name, the_card
from games.engines.words import Msg, _, gettext_noop, logged


def _seat(seat: int) -> str:
    return f"{{p{seat}}}"  # the site puts the seat's display name here


def _copy(state: State) -> State:
    """A copy for apply() to change. Finished battle records are never changed once written, so
    the copy shares them (copying up to 50 battles every move was the slowest part of a game)."""
    new = json_copy({key: value for key, value in state.items() if key != "battles"})
    new["battles"] = list(state["battles"])
    return new


def _fight_words(fight: dict[str, Any], attacker: int, points: bool) -> Msg:
    winner, defender = fight["winner"], fight["defender"]
    if winner is None:
        return _("a draw: nobody gains or loses")
    loser = defender if winner == attacker else attacker
    won = fight["attacker_change"] if winner == attacker else fight["defender_change"]
    lost = -(fight["defender_change"] if winner == attacker else fight["attacker_change"])
    if points:
        return _("{winner} wins and gains {won} points", winner=_seat(winner), won=won)
    return _(
        "{winner} wins and gains {won} lives, {loser} loses {lost}",
        winner=_seat(winner),
        won=won,
        loser=_seat(loser),
        lost=lost,
    )


def _duo_words(arrangement: dict[str, Any]) -> Msg:
    if not arrangement["lizzies"]:
        return _("no Lizzy (power 0)")
    lizzies = [
        _(
            "{head} / {body} / {tail} ({summary}: {power})",
            head=card_name(lizzy["cards"][0]),
            body=card_name(lizzy["cards"][1]),
            tail=card_name(lizzy["cards"][2]),
            summary=lizzy_summary(lizzy["cards"]),
            power=lizzy["power"],
        )
        for lizzy in arrangement["lizzies"]
    ]
    return _("{lizzies}; power {breakdown}", lizzies=joined(lizzies, "; "), breakdown=breakdown(arrangement))


def _fight_log(
    fight: dict[str, Any], attacker: int, duo_words: dict[int, Msg], audience: str | list[int], points: bool
) -> list[LogEntry]:
    """A fight in the log: the two fighters' Dizzy Duos for `audience`, then the outcome for everyone."""
    defender = fight["defender"]
    entries = [
        logged(gettext_noop("{player}'s Dizzy Duo: {duo}."), audience, player=_seat(seat), duo=duo_words[seat])
        for seat in (attacker, defender)
    ]
    entries.append(
        logged(
            gettext_noop("Fight {attacker} ({attacker_power}) against {defender} ({defender_power}): {outcome}."),
            attacker=_seat(attacker),
            attacker_power=fight["attacker_power"],
            defender=_seat(defender),
            defender_power=fight["defender_power"],
            outcome=_fight_words(fight, attacker, points),
        )
    )
    return entries


class DizzyDuoBattle(Engine):
    slug = "dizzy-duo-battle"
    name = "Dizzy Duo Battle"
    min_players = 2  # ruling DD-1
    max_players = 6
    options = (
        Option(
            "lives",
            "int",
            20,
            gettext_noop("Lives"),
            min_value=1,
            max_value=500,
            help=gettext_noop("Lives each player starts with."),
        ),
        Option(
            "lifeline",
            "bool",
            False,
            gettext_noop("Lifeline"),
            help=gettext_noop("A player who falls to 0 returns once, with the fewest lives of the players still in."),
        ),
        Option(
            "points_target",
            "int",
            0,
            gettext_noop("Points target"),
            min_value=0,
            max_value=1000,
            help=gettext_noop(
                "0: play for lives. Above 0: play for points from 0; only the winner of a fight scores "
                "and the first to reach the target wins (lives and lifeline then do not apply)."
            ),
        ),
        Option(
            "open_battles",
            "bool",
            False,
            gettext_noop("Open battles"),
            help=gettext_noop("Every Dizzy Duo of an attack is shown to everyone."),
        ),
        Option(
            "main_attack",
            "bool",
            False,
            gettext_noop("Main attack"),
            help=gettext_noop("Attack by taking a card and discarding a head card instead of turning a blind card."),
        ),
    )
    timeout_policy = "bot"  # ruling ALL-4: a bot plays the late turn
    move_fields = {
        "take": frozenset({"type", "from"}),
        "discard": frozenset({"type", "card"}),
        "attack": frozenset({"type", "card"}),  # a card: the main attack by a head card; none: by the blind
    }

    # --- setup ---------------------------------------------------------------------------
    def new_state(self, players: int, options: dict[str, Any], seed: int) -> State:
        options = self.parse_options(options, players)
        points = options["points_target"] > 0
        start = 0 if points else options["lives"]
        state: State = {
            "players": players,
            "options": options,
            "rng": new_rng(seed),
            "scoring": "points" if points else "lives",
            "start_lives": start,
            "lives": [start] * players,
            "out": [False] * players,
            "lifeline_used": [False] * players,
            "round": 0,
            "round_starter": 0,
            "current": 0,
            "phase": "take",
            "hands": [[] for _ in range(players)],
            "blind": [],
            "open": [],
            "turns": [0] * players,
            "taken": None,
            "history": [],
            "battles": [],
            "result": None,
        }
        # ruling DD-1: the first player of round 1 is drawn at random.
        first = draw_rng(state).randrange(players)
        self._start_round(state, first)
        return state

    def _start_round(self, state: State, starter: int) -> None:
        """Gather and shuffle all 54 cards, deal 6 to each player still in, turn one open (DD-8)."""
        deck = list(cards.DECK)
        draw_rng(state).shuffle(deck)
        players = state["players"]
        state["round"] += 1
        state["round_starter"] = starter
        state["current"] = starter
        state["phase"] = "take"
        state["taken"] = None
        state["history"] = []
        state["turns"] = [0] * players
        state["hands"] = [[] for _ in range(players)]
        for seat in seats_from(state, starter):
            state["hands"][seat] = cards.sort_cards(deck.pop() for _ in range(HAND_SIZE))
        state["blind"] = deck
        state["open"] = [state["blind"].pop()]

    # --- the contract --------------------------------------------------------------------
    def to_act(self, state: State) -> list[int]:
        return [] if state["phase"] == "over" else [state["current"]]

    def turn_key(self, state: State) -> Any:
        # ruling ALL-1: one clock covers a whole turn. A turn is a take and a discard (or one
        # attack); it ends when a discard is recorded in the round's history or a new round starts.
        return f"{state['round']}:{len(state['history'])}"

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        return legal_moves(state, seat)

    def apply(self, state: State, seat: int, move: Move) -> tuple[State, list[LogEntry]]:
        if state["phase"] == "over":
            raise IllegalMove(_("The game is over."))
        if seat != state["current"]:
            raise IllegalMove(_("It is not your turn."))
        if not isinstance(move, dict):
            raise IllegalMove(_('A move is a JSON object such as {"type": "take", "from": "open"}.'))
        kind = move.get("type")
        if kind not in ("take", "discard", "attack"):
            raise IllegalMove(_("Unknown move {kind}: take, discard or attack.", kind=repr(kind)))
        new = _copy(state)
        logs: list[LogEntry] = []
        if state["phase"] == "take":
            if kind == "take":
                self._take(new, seat, move, logs)
            elif kind == "attack":
                self._attack_by_blind(new, seat, move, logs)
            else:
                raise IllegalMove(_("Take a card first, from the open or the blind pile."))
        else:
            if kind == "discard":
                self._discard(new, seat, move, logs)
            elif kind == "attack":
                self._attack_by_head(new, seat, move, logs)
            else:
                raise IllegalMove(_("You already took a card this turn: now discard one."))
        return new, logs

    # --- moves ---------------------------------------------------------------------------
    def _ensure_blind(self, state: State, logs: list[LogEntry]) -> None:
        # ruling DD-6: when a blind card is needed and none is left, the open pile but its top card
        # is shuffled into a new blind pile.
        if state["blind"]:
            return
        top = state["open"].pop()
        pile = state["open"]
        draw_rng(state).shuffle(pile)
        state["blind"], state["open"] = pile, [top]
        logs.append(
            logged(gettext_noop("The blind pile ran out: the open pile but its top card was shuffled into a new one."))
        )

    def _take(self, state: State, seat: int, move: Move, logs: list[LogEntry]) -> None:
        source = move.get("from")
        if attack_forced(state, seat) and not state["options"]["main_attack"]:
            raise IllegalMove(_("This is your {turn}th turn this round: you must attack.", turn=FORCED_ATTACK_TURN))
        if source == "open":
            if not state["open"]:
                raise IllegalMove(_("The open pile is empty: take the blind card."))
            card = state["open"].pop()
            logs.append(
                logged(
                    gettext_noop("{player} took {card} from the open pile."), player=_seat(seat), card=the_card(card)
                )
            )
        elif source == "blind":
            self._ensure_blind(state, logs)
            card = state["blind"].pop()
            logs.append(logged(gettext_noop("{player} took a card from the blind pile."), player=_seat(seat)))
            logs.append(logged(gettext_noop("You drew {card}."), [seat], card=the_card(card)))
        else:
            raise IllegalMove(_('Take from "open" or "blind".'))
        state["hands"][seat] = cards.sort_cards(state["hands"][seat] + [card])
        state["taken"] = {"card": card, "from": source}
        state["phase"] = "discard"

    def _discard(self, state: State, seat: int, move: Move, logs: list[LogEntry]) -> None:
        card = move.get("card")
        hand = state["hands"][seat]
        if attack_forced(state, seat) and state["options"]["main_attack"]:
            raise IllegalMove(
                _(
                    "This is your {turn}th turn this round: you must attack by discarding a head card.",
                    turn=FORCED_ATTACK_TURN,
                )
            )
        if not isinstance(card, str) or card not in hand:
            raise IllegalMove(_("You do not hold that card."))
        hand.remove(card)
        state["open"].append(card)
        taken = state["taken"]
        state["history"].append({"seat": seat, "from": taken["from"], "took": taken["card"], "discarded": card})
        state["turns"][seat] += 1
        state["taken"] = None
        state["phase"] = "take"
        state["current"] = next_in(state, seat)
        logs.append(logged(gettext_noop("{player} discarded {card}."), player=_seat(seat), card=the_card(card)))

    def _attack_by_blind(self, state: State, seat: int, move: Move, logs: list[LogEntry]) -> None:
        blocked = attack_block(state, seat)
        if blocked:
            raise IllegalMove(blocked)
        if "card" in move:
            raise IllegalMove(_("Attack by turning the blind card: the move names no card."))
        # ruling DD-7: the top blind card goes face up on the open pile (DD-6 if the blind is empty).
        self._ensure_blind(state, logs)
        card = state["blind"].pop()
        state["open"].append(card)
        logs.append(
            logged(
                gettext_noop("{player} attacks! The blind card, {card}, goes on the open pile."),
                player=_seat(seat),
                card=the_card(card),
            )
        )
        self._battle(state, seat, card, "blind", logs)

    def _attack_by_head(self, state: State, seat: int, move: Move, logs: list[LogEntry]) -> None:
        blocked = attack_block(state, seat)
        if blocked:
            raise IllegalMove(blocked)
        card = move.get("card")
        hand = state["hands"][seat]
        if not isinstance(card, str) or card not in hand:
            raise IllegalMove(_("You do not hold that card."))
        if attack_forced(state, seat):
            if card not in forced_main_attack_cards(hand):
                raise IllegalMove(_("Main attack rule: attack by discarding a head card."))
        elif cards.part_of(card) != "head":
            raise IllegalMove(_("Main attack rule: attack by discarding a head card."))
        elif card not in main_attack_heads(hand):
            raise IllegalMove(_("You cannot attack: the six cards you keep need two Lizzies."))
        # ruling DD-9 main attack: the head card is the attack card, discarded face up.
        hand.remove(card)
        state["open"].append(card)
        state["taken"] = None
        logs.append(
            logged(gettext_noop("{player} attacks, discarding {card}!"), player=_seat(seat), card=the_card(card))
        )
        self._battle(state, seat, card, "head", logs)

    # --- battle and round end ------------------------------------------------------------
    def _battle(self, state: State, attacker: int, attack_card: str, attack_kind: str, logs: list[LogEntry]) -> None:
        players = state["players"]
        points = state["scoring"] == "points"
        fighters = seats_from(state, attacker)
        # ruling DD-7: the order of fights does not change the result, so they go in seat order.
        defenders = fighters[1:]
        arrangements: list[dict[str, Any] | None] = [None] * players
        duos: list[list[list[str]] | None] = [None] * players  # the Lizzies each fighter shows
        powers: list[int | None] = [None] * players
        for seat in fighters:
            best = cards.best_arrangement(state["hands"][seat])  # ruling DD-2
            arrangements[seat] = best.as_dict()
            duos[seat] = [list(lizzy) for lizzy in best.lizzies]
            powers[seat] = best.power
        everyone_sees = "all" if state["options"]["open_battles"] else None
        duo_words = {seat: _duo_words(arrangements[seat]) for seat in fighters}  # the attacker's shows in each fight
        logs.append(
            logged(
                gettext_noop(
                    "{player} attacks with power {power}. The order of fights does not change the result, so they "
                    "go in seat order: {order}."
                ),
                player=_seat(attacker),
                power=powers[attacker],
                order=", ".join(_seat(d) for d in defenders),
            )
        )
        changes = [0] * players
        fights = []
        for defender in defenders:
            fight = fight_outcome(powers[attacker], powers[defender], attacker, defender, points)
            changes[attacker] += fight["attacker_change"]
            changes[defender] += fight["defender_change"]
            fights.append(fight)
            # ruling DD-7: the two fighters see each other's Dizzy Duo (everyone, with open battles).
            logs += _fight_log(fight, attacker, duo_words, everyone_sees or [attacker, defender], points)
        # ruling DD-8: lives change after all fights.
        for seat in range(players):
            state["lives"][seat] += changes[seat]
        battle = {
            "round": state["round"],
            "attacker": attacker,
            "attack_card": attack_card,
            "attack_kind": attack_kind,
            "defenders": defenders,
            "duos": duos,
            "powers": powers,
            "fights": fights,
            "changes": changes,
            "fallen": [],
            "lifelines": [],
            "lives_after": [],
        }
        state["battles"].append(battle)
        self._end_round(state, attacker, battle, logs)

    def _end_round(self, state: State, attacker: int, battle: dict[str, Any], logs: list[LogEntry]) -> None:
        lives = state["lives"]
        if state["scoring"] == "lives":
            # ruling DD-8: a player at 0 or below is out.
            fallen = [s for s in players_in(state) if lives[s] <= 0]
            for seat in fallen:
                state["out"][seat] = True
            battle["fallen"] = fallen
            if state["options"]["lifeline"] and fallen:
                # ruling DD-9 lifeline: they return once, with the lowest lives among those still in.
                still_in = players_in(state)
                lowest = min(lives[s] for s in still_in)
                for seat in fallen:
                    if not state["lifeline_used"][seat]:
                        battle["lifelines"].append({"seat": seat, "from": lives[seat], "to": lowest})
                        lives[seat] = lowest
                        state["out"][seat] = False
                        state["lifeline_used"][seat] = True
        battle["lives_after"] = list(lives)
        self._log_round_end(state, battle, logs)
        result = self._final_result(state)
        if result is not None:
            state["result"] = result.as_dict()
            state["phase"] = "over"
            state["current"] = None
            state["taken"] = None
            logs.append(_logged_words(result.reason))
            return
        self._start_round(state, next_in(state, attacker))
        logs.append(
            logged(
                gettext_noop("Round {round} begins: {player} starts."),
                round=state["round"],
                player=_seat(state["round_starter"]),
            )
        )

    def _log_round_end(self, state: State, battle: dict[str, Any], logs: list[LogEntry]) -> None:
        returned = {entry["seat"]: entry for entry in battle["lifelines"]}
        for seat in battle["fallen"]:
            if seat in returned:
                entry = returned[seat]
                logs.append(
                    logged(
                        gettext_noop("{player} fell to {fell} lives and returns once with {back} (lifeline)."),
                        player=_seat(seat),
                        fell=entry["from"],
                        back=entry["to"],
                    )
                )
            else:
                logs.append(logged(gettext_noop("{player} has no lives left and is out."), player=_seat(seat)))
        if state["scoring"] == "points":
            template = gettext_noop("Points after round {round}: {table}.")
        else:
            template = gettext_noop("Lives after round {round}: {table}.")
        table = ", ".join(f"{_seat(s)} {state['lives'][s]}" for s in range(state["players"]))
        logs.append(logged(template, round=state["round"], table=table))

    def _final_result(self, state: State) -> Result | None:
        lives = list(state["lives"])
        if state["scoring"] == "points":
            # ruling DD-9 points: the first to reach the target wins; several in one round: the
            # highest, and equal highest is a draw.
            target = state["options"]["points_target"]
            reached = [s for s in range(state["players"]) if lives[s] >= target]
            if reached:
                return self._most(
                    lives, reached, gettext_noop("{player} reached {target} points and wins."), target=target
                )
            most = gettext_noop("{player} has the most points after {rounds} rounds and wins.")
        else:
            still_in = players_in(state)
            if len(still_in) == 1:
                winner = still_in[0]
                return Result([winner], lives, _("{player} is the last player with lives left.", player=_seat(winner)))
            if not still_in:  # cannot happen: a fight's winner never loses lives; kept as a guard
                return Result([], lives, _("Nobody has lives left: a draw."), draw=True)
            most = gettext_noop("{player} has the most lives after {rounds} rounds and wins.")
        if state["round"] >= MAX_ROUNDS:
            # ruling DD-8: after 50 rounds the most lives (points) wins; equal: a draw.
            return self._most(lives, list(range(state["players"])), most, rounds=MAX_ROUNDS)
        return None

    @staticmethod
    def _most(lives: list[int], seats: list[int], winner_words: str, **values: int) -> Result:
        """The one with the most lives (points) among `seats` wins, said by `winner_words` ({player} and
        `values`); equal most: a draw."""
        best = max(lives[s] for s in seats)
        top = [s for s in seats if lives[s] == best]
        if len(top) == 1:
            return Result(top, lives, _(winner_words, player=_seat(top[0]), **values))
        names = ", ".join(_seat(s) for s in top)
        return Result([], lives, _("A draw: {names} share the lead with {best}.", names=names, best=best), draw=True)

    # --- what a seat may know ------------------------------------------------------------
    def view(self, state: State, seat: int | None, ended: bool = False) -> View:
        over = ended or state["phase"] == "over"  # ALL-3: however the match ended
        players = state["players"]
        playing = seat is not None and 0 <= seat < players
        mine = playing and not over and state["current"] == seat
        taken = state["taken"]
        # Taking the open card is seen by all; a blind card only by its taker (ALL-3).
        visible = taken is not None and (taken["from"] == "open" or mine or over)
        current_take = None if taken is None else {"from": taken["from"], "card": taken["card"] if visible else None}
        view: View = {
            "game": self.slug,
            "players": players,
            "seat": seat,
            "options": dict(state["options"]),
            "scoring": state["scoring"],
            "start_lives": state["start_lives"],
            "lives": list(state["lives"]),
            "out": list(state["out"]),
            "lifeline_used": list(state["lifeline_used"]),
            "round": state["round"],
            "max_rounds": MAX_ROUNDS,
            "round_starter": state["round_starter"],
            "phase": state["phase"],
            "current": state["current"],
            "current_take": current_take,
            "turns": list(state["turns"]),
            "turns_before_attack": TURNS_BEFORE_ATTACK,
            "forced_attack_turn": FORCED_ATTACK_TURN,
            # ruling DD-7's gate for the round: the fewest turns of a player still in, and whether
            # every player still in has had their 3 turns (attacks are then open to a duo).
            "fewest_turns": fewest_turns(state),
            "attacks_open": turns_block(state) is None,
            "hand_sizes": [len(hand) for hand in state["hands"]],
            "open_top": state["open"][-1] if state["open"] else None,
            "open_pile": list(state["open"]),  # every card in it was put there face up
            "blind_size": len(state["blind"]),  # never its order or content
            "history": [self._history_entry(entry, seat, over) for entry in state["history"]],
            "last_battle": self._battle_for(state["battles"][-1], state, seat, over) if state["battles"] else None,
            "battle_log": [
                {key: json_copy(b[key]) for key in ("round", "attacker", "powers", "changes", "lives_after")}
                for b in state["battles"]
            ],
            "result": json_copy(state["result"]),
            "hand": None,
            "best": None,
            "discard_choices": [],
            "can_attack": False,
            "attack_blocked": None if over else _("Spectators do not play."),
            "must_attack": False,
            "attack_cards": [],
            "two_lizzies": None,  # the viewer's hand holds two valid Lizzies at once (DD-7)
        }
        if playing:
            view.update(self._hand_view(state, seat, mine))
        if over:
            # ruling ALL-3: after the end everything is public (but never the seed, ALL-2).
            view["hands"] = [list(hand) for hand in state["hands"]]
            view["blind"] = list(state["blind"])
        return view

    def _hand_view(self, state: State, seat: int, mine: bool) -> dict[str, Any]:
        """A player's own hand, its best arrangement, and what it may do with it now (DD-2, DD-7)."""
        hand = state["hands"][seat]
        blocked = attack_block(state, seat) if not state["out"][seat] else _("You are out of the game.")
        part: dict[str, Any] = {
            "hand": list(hand),
            "best": cards.best_arrangement(hand).as_dict() if hand else None,
            "two_lizzies": cards.has_two_lizzies(hand),
            "attack_blocked": blocked,
            "can_attack": blocked is None,
            "must_attack": mine and attack_forced(state, seat),
        }
        if mine and state["phase"] == "discard":
            part["discard_choices"] = self._discard_choices(hand)
            if state["options"]["main_attack"] and blocked is None:
                forced = attack_forced(state, seat)
                part["attack_cards"] = forced_main_attack_cards(hand) if forced else main_attack_heads(hand)
        return part

    @staticmethod
    def _discard_choices(hand: list[str]) -> list[dict[str, Any]]:
        """For each card the player may discard: the power and attack chance of the six kept."""
        choices = []
        for card in sorted(set(hand), key=cards.card_sort_key):
            rest = list(hand)
            rest.remove(card)
            choices.append({"card": card, "power": cards.hand_power(rest), "two_lizzies": cards.has_two_lizzies(rest)})
        return choices

    @staticmethod
    def _history_entry(entry: dict[str, Any], seat: int | None, over: bool) -> dict[str, Any]:
        visible = entry["from"] == "open" or entry["seat"] == seat or over
        return {
            "seat": entry["seat"],
            "from": entry["from"],
            "took": entry["took"] if visible else None,
            "discarded": entry["discarded"],
        }

    @staticmethod
    def _battle_for(battle: dict[str, Any], state: State, seat: int | None, over: bool) -> dict[str, Any]:
        """A battle as `seat` may see it: every power and life change; the duos per ruling DD-7."""
        attacker = battle["attacker"]
        fighters = [attacker] + battle["defenders"]
        if over or state["options"]["open_battles"]:
            shown = set(fighters)
        elif seat == attacker:
            shown = set(fighters)  # the attacker fought everyone
        elif seat in battle["defenders"]:
            shown = {seat, attacker}
        else:
            shown = set()
        result = json_copy(battle)  # the view shares nothing with the state
        result["duos"] = [
            cards.arrangement_of(duo).as_dict() if duo is not None and index in shown else None
            for index, duo in enumerate(battle["duos"])
        ]
        result["duos_shown"] = sorted(shown)
        return result

    # --- end, bounds, checks -------------------------------------------------------------
    def result(self, state: State) -> Result | None:
        if state["result"] is None:
            return None
        return Result(**state["result"])

    def max_moves(self, players: int, options: dict[str, Any]) -> int:
        # A round has at most 9 normal turns per player (the 10th must be an attack, DD-7), each two
        # apply() calls (take, discard), then one attack: one call, or two with the main-attack rule
        # (take, then attack by discarding a head). Every round ends with an attack and there are at
        # most 50 rounds (DD-8). Players who are out only lower the count.
        per_round = players * (FORCED_ATTACK_TURN - 1) * 2 + 2
        return MAX_ROUNDS * per_round

    def check_invariants(self, state: State) -> None:
        players = state["players"]
        everywhere = [c for hand in state["hands"] for c in hand] + state["blind"] + state["open"]
        assert Counter(everywhere) == Counter(cards.DECK), "the 54 cards are not each in one place"
        assert 1 <= state["round"] <= MAX_ROUNDS
        over = state["phase"] == "over"
        assert state["phase"] in ("take", "discard", "over")
        assert (state["result"] is not None) == over
        points = state["scoring"] == "points"
        # Lives: the start plus every fight's changes plus every lifeline return.
        for seat in range(players):
            expected = state["start_lives"]
            for battle in state["battles"]:
                expected += battle["changes"][seat]
                expected += sum(e["to"] - e["from"] for e in battle["lifelines"] if e["seat"] == seat)
            assert state["lives"][seat] == expected, f"lives of seat {seat} do not add up"
        for battle in state["battles"]:
            self._check_battle(battle, players, points)
        if state["battles"]:
            # The shown duos give the powers fought with (only the newest: older ones were checked
            # when they were new, and this runs after every move).
            battle = state["battles"][-1]
            for seat, duo in enumerate(battle["duos"]):
                if duo is not None:
                    assert cards.arrangement_of(duo).power == battle["powers"][seat]
        for seat in range(players):
            if points:
                assert not state["out"][seat] and state["lives"][seat] >= 0
            else:
                assert state["out"][seat] == (state["lives"][seat] <= 0), f"seat {seat}: out does not fit lives"
            if state["lifeline_used"][seat]:
                assert state["options"]["lifeline"] and not points
        if over:
            return
        still_in = players_in(state)
        assert len(still_in) >= 2 or points
        current = state["current"]
        assert current in still_in
        assert (state["taken"] is not None) == (state["phase"] == "discard")
        for seat in range(players):
            size = len(state["hands"][seat])
            if state["out"][seat]:
                assert size == 0 and state["turns"][seat] == 0
            else:
                expected = HAND_SIZE + (1 if seat == current and state["phase"] == "discard" else 0)
                assert size == expected, f"seat {seat} holds {size} cards"
                assert state["turns"][seat] < FORCED_ATTACK_TURN
                assert state["hands"][seat] == cards.sort_cards(state["hands"][seat])
        if state["phase"] == "take":
            assert state["open"], "the open pile is empty at the start of a turn"
        assert sum(state["turns"]) == len(state["history"])

    @staticmethod
    def _check_battle(battle: dict[str, Any], players: int, points: bool) -> None:
        """Every fight's changes follow from the two powers (DD-7, DD-9) and add up to the battle's."""
        totals = [0] * players
        for fight in battle["fights"]:
            a, d = battle["attacker"], fight["defender"]
            pa, pd = fight["attacker_power"], fight["defender_power"]
            assert (pa, pd) == (battle["powers"][a], battle["powers"][d])
            if pa > pd:
                assert (fight["attacker_change"], fight["defender_change"]) == (pd, 0 if points else -pa)
            elif pd > pa:
                assert (fight["attacker_change"], fight["defender_change"]) == (0 if points else -pd, pa)
            else:
                assert (fight["attacker_change"], fight["defender_change"]) == (0, 0)
            totals[a] += fight["attacker_change"]
            totals[d] += fight["defender_change"]
        assert totals == battle["changes"]

    def hidden_twin(self, state: State, seat: int | None, rng: random.Random) -> State:
        """Other hands and the blind pile dealt anew; others' blind draws changed (ALL-3)."""
        twin = super().hidden_twin(state, seat, rng)
        if twin["phase"] == "over":
            return twin  # everything is public after the end
        others = [s for s in range(twin["players"]) if s != seat]
        hidden = [c for s in others for c in twin["hands"][s]] + twin["blind"]
        rng.shuffle(hidden)
        for other in others:
            size = len(twin["hands"][other])
            twin["hands"][other], hidden = cards.sort_cards(hidden[:size]), hidden[size:]
        twin["blind"] = hidden
        for entry in twin["history"]:
            if entry["from"] == "blind" and entry["seat"] != seat:
                entry["took"] = rng.choice(cards.DECK)
        if twin["taken"] and twin["taken"]["from"] == "blind" and twin["current"] != seat:
            twin["taken"]["card"] = rng.choice(cards.DECK)
        return twin

    def check_vector(self, case: dict[str, Any]) -> None:
        kind = case.get("kind")
        if kind == "lizzy":
            lizzy = case["lizzy"]
            info = cards.classify(lizzy)
            got = {
                "colours": info.colours,
                "patterns": info.patterns,
                "valid": info.valid,
                "double": info.double,
                "golden": info.golden,
                "power": cards.lizzy_power(lizzy),
            }
            expected = {key: case[key] for key in got}
            assert got == expected, f"{lizzy}: expected {expected}, got {got}"
        elif kind == "dizzy_hand_power":
            power = cards.hand_power(case["hand"])
            arranged = cards.best_arrangement(case["hand"]).power
            assert power == arranged == case["power"], f"{case['hand']}: expected {case['power']}, got {power}"
        else:
            super().check_vector(case)


def _logged_words(words: Msg) -> dict[str, Any]:
    """A log entry that says `words` (a Msg, a result's reason) for everyone, in each reader's language."""
    return logged(words.template, **words.values)


ENGINE = DizzyDuoBattle()
