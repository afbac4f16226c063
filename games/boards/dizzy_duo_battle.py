"""Drawing context for Dizzy Duo Battle: the viewer's hand arranged into its best Dizzy Duo, the two
piles, the players (lives, hand sizes, turns), the last battle and the lives table.

Everything here comes from the viewer's engine view and legal moves (ruling ALL-3): another player's
hand is only a count, the blind pile only a size, and a battle's duos only those the view holds
(DD-7). Move buttons are offered only for moves in `info.legal`. Card pictures: lizzy_cards.
"""

from __future__ import annotations

from typing import Any

from games.boards.lizzy_cards import CardArt
from games.engines import dizzy_cards
from games.models import fill_names
from games.presenters import PlayerView, move_json


def _signed(number: int) -> str:
    """+3, −5 (a real minus sign), 0: how a life change reads in a table."""
    if number > 0:
        return f"+{number}"
    if number < 0:
        return f"−{-number}"
    return "0"


def _the(card: str) -> str:
    return "the " + dizzy_cards.describe(card)


def build(info: PlayerView, params: dict[str, str]) -> dict[str, Any]:
    view = info.view or {}
    art = CardArt()
    legal_json = {move_json(m) for m in info.legal}

    def legal_or_none(move: dict[str, Any]) -> str | None:
        text = move_json(move)
        return text if text in legal_json else None

    names = {s.number: s.name for s in info.seats}
    players = view.get("players", 0)

    def name_of(seat: int | None) -> str:
        if seat is None:
            return ""
        return "you" if seat == info.seat else names.get(seat, f"seat {seat + 1}")

    over = view.get("phase") == "over"
    points = view.get("scoring") == "points"
    word = "points" if points else "lives"
    one = "point" if points else "life"  # "1 life", "+1 point"
    options = view.get("options", {})
    current = view.get("current")
    my_turn = info.my_turn and not over
    result = view.get("result") or None
    winners = set(result["winners"]) if result else set()

    # --- players: lives, hand sizes (a count only), turns -----------------------------------
    seats = []
    for seat in range(players):
        size = view["hand_sizes"][seat]
        seats.append(
            {
                "seat": seat,
                "name": names.get(seat, f"seat {seat + 1}"),
                "you": seat == info.seat,
                "lives": view["lives"][seat],
                "out": view["out"][seat],
                "lifeline_used": view["lifeline_used"][seat],
                "hand_size": size,
                "backs": range(size),
                "turns": view["turns"][seat],
                "to_act": seat == current and not over,
                "starter": seat == view.get("round_starter") and not over,
                "won": seat in winners,
            }
        )
    still_in = [s for s in seats if not s["out"]]
    fewest_turns = min((s["turns"] for s in still_in), default=0)
    attacks_open = fewest_turns >= view.get("turns_before_attack", 3)

    # --- the two piles and the card being held between take and discard --------------------
    open_pile = view.get("open_pile", [])
    open_top = view.get("open_top")
    table = {
        "open_top": art.card(open_top) if open_top else None,
        "open_top_words": _the(open_top) if open_top else "",
        "open_count": len(open_pile),
        # Every card in the open pile was put there face up: its history is public.
        "open_history": [art.card(c) for c in reversed(open_pile)],
        "blind_size": view.get("blind_size", 0),
        "blind_back": art.back("the blind pile, face down"),
        "take_open": legal_or_none({"type": "take", "from": "open"}),
        "take_blind": legal_or_none({"type": "take", "from": "blind"}),
    }
    take = view.get("current_take")
    taking = None
    if take and not over:
        taker = name_of(current)
        card = take.get("card")  # None when someone else drew it from the blind pile
        where = "the open pile" if take["from"] == "open" else "the blind pile"
        if card:
            text = f"{taker.capitalize()} took {_the(card)} from {where}"
        else:
            text = f"{taker.capitalize()} took a card from {where}"
        taking = {"text": text, "card": art.card(card) if card else None, "mine": current == info.seat}

    # --- the viewer's hand, arranged into its best Dizzy Duo (DD-2) --------------------------
    hand = view.get("hand") or []
    best = view.get("best")
    choices = {c["card"]: c for c in view.get("discard_choices", [])}
    new_card = take.get("card") if take and current == info.seat else None
    hand_panel = None
    if hand and best and not over:

        def entry(card: str) -> dict[str, Any]:
            nonlocal new_card
            is_new = card == new_card
            if is_new:
                new_card = None  # mark one copy only
            choice = choices.get(card)
            discard = legal_or_none({"type": "discard", "card": card}) if choice else None
            keeps = ""
            if choice:
                keeps = f"keeps power {choice['power']}" + (", two Lizzies" if choice["two_lizzies"] else "")
            return {
                "art": art.card(card),
                "words": _the(card),
                "new": is_new,
                "discard": discard,
                "keeps": keeps,
            }

        groups = []
        for number, lizzy in enumerate(best["lizzies"], start=1):
            groups.append(
                {
                    "title": f"Lizzy {number}",
                    "power": lizzy["power"],
                    "summary": lizzy["summary"],
                    "cards": [entry(c) for c in lizzy["cards"]],
                    "lizzy": True,
                }
            )
        if best["unused"]:
            groups.append(
                {
                    "title": "Not in a Lizzy" if best["lizzies"] else "No valid Lizzy yet",
                    "power": None,
                    "summary": "",
                    "cards": [entry(c) for c in best["unused"]],
                    "lizzy": False,
                }
            )
        terms = [{"label": f"Lizzy {n}", "points": lizzy["power"]} for n, lizzy in enumerate(best["lizzies"], 1)] + [
            {"label": f"bonus: {b['label']}", "points": b["points"]} for b in best["bonuses"]
        ]
        hand_panel = {
            "size": len(hand),
            "power": best["power"],
            "terms": terms,
            "lizzy_count": len(best["lizzies"]),
            "groups": groups,
            # Not on a forced main attack: then the cards can only be discarded as the attack.
            "choosing": any(e["discard"] for g in groups for e in g["cards"]),
            # DD-7 needs two Lizzies at once, which a hand may hold while its best is a single one.
            "two_lizzies": dizzy_cards.has_two_lizzies(hand),
        }

    # --- attacking: the button when legal, the reason when not --------------------------------
    attack_move = legal_or_none({"type": "attack"})
    head_attacks = []
    for card in view.get("attack_cards", []):
        move = legal_or_none({"type": "attack", "card": card})
        if move:
            head_attacks.append({"json": move, "art": art.card(card), "words": _the(card)})
    in_game = info.seat is not None and not over and not view["out"][info.seat]
    attack = {
        "move": attack_move,
        "heads": head_attacks,
        "must": bool(view.get("must_attack")) and my_turn,
        "power": best["power"] if best else 0,
        "blocked": None,
        "main": bool(options.get("main_attack")),
    }
    # Between taking and discarding (without the main-attack rule) the only thing to do is discard:
    # a "cannot attack" there would only distract.
    mid_turn = my_turn and view.get("phase") == "discard" and not attack["main"]
    if in_game and not attack_move and not head_attacks and not mid_turn:
        reason = view.get("attack_blocked") or ""
        if my_turn and attack["main"] and view.get("phase") == "take" and not attacks_open:
            # The engine says "take a card first", true but not the whole story before 3 turns.
            reason = (
                f"You cannot attack yet: every player needs {view['turns_before_attack']} turns this round "
                f"(the fewest so far is {fewest_turns})."
            )
        if not my_turn and hand_panel:
            # The engine's reason off-turn is only "on your own turn": say what will count then.
            if not hand_panel["two_lizzies"]:
                reason = "You cannot attack: you need two Lizzies in your hand."
            elif not attacks_open:
                reason = (
                    f"Not yet: every player needs {view['turns_before_attack']} turns this round "
                    f"(the fewest so far is {fewest_turns})."
                )
            else:
                reason = "You hold two Lizzies: you may attack on your turn."
        attack["blocked"] = reason

    # --- what to do now, in words ---------------------------------------------------------
    hint = ""
    if my_turn:
        if attack["must"]:
            if attack["main"] and view["phase"] == "discard":
                hint = "This is your 10th turn this round: you must attack by discarding a head card."
            elif attack["main"]:
                hint = "This is your 10th turn this round: take a card, then attack by discarding a head card."
            else:
                hint = "This is your 10th turn this round: you must attack."
        elif view["phase"] == "take":
            hint = "Take the open card or a blind card."
            if attack_move:
                hint += " Or attack now with your Dizzy Duo."
        else:
            hint = "Now discard one card onto the open pile (it may be the one you just took)."
            if head_attacks:
                hint += " Or attack by discarding a head card."

    # --- the last battle (DD-7): duos as the view shows them, powers and lives for all -------
    battle = None
    last = view.get("last_battle")
    if last:
        attacker = last["attacker"]
        fighters = [attacker] + list(last["defenders"])
        duos = []
        for seat in fighters:
            duo = last["duos"][seat]
            duos.append(
                {
                    "seat": seat,
                    "name": name_of(seat),
                    "attacker": seat == attacker,
                    "power": last["powers"][seat],
                    "shown": duo is not None,
                    "breakdown": duo["breakdown"] if duo else "",
                    "bonuses": duo["bonuses"] if duo else [],
                    "lizzies": [
                        {"cards": art.cards(lizzy["cards"]), "power": lizzy["power"], "summary": lizzy["summary"]}
                        for lizzy in (duo["lizzies"] if duo else [])
                    ],
                }
            )
        fights = []
        for fight in last["fights"]:
            winner = fight["winner"]
            if winner is None:
                outcome = "a draw: nobody gains or loses"
            else:
                outcome = f"{name_of(winner)} won"
            fights.append(
                {
                    "defender": name_of(fight["defender"]),
                    "attacker_power": fight["attacker_power"],
                    "defender_power": fight["defender_power"],
                    "outcome": outcome,
                    "winner": winner is not None,
                    "attacker_change": _signed(fight["attacker_change"]),
                    "defender_change": _signed(fight["defender_change"]),
                }
            )
        lifelines = {e["seat"]: e for e in last["lifelines"]}
        rows = []
        for seat in range(players):
            if last["powers"][seat] is None:
                continue  # already out before this battle
            note = ""
            if seat in lifelines:
                note = f"fell to {lifelines[seat]['from']}, returns once with {lifelines[seat]['to']} (lifeline)"
            elif seat in last["fallen"]:
                note = "out"
            rows.append(
                {
                    "name": name_of(seat),
                    "power": last["powers"][seat],
                    "change": _signed(last["changes"][seat]),
                    "after": last["lives_after"][seat],
                    "note": note,
                }
            )
        if options.get("open_battles") or over:
            who_sees = "Every Dizzy Duo of this battle is shown to everyone."
        else:
            who_sees = (
                "Each fighter sees the Dizzy Duos of their own fights; everyone sees the powers and the "
                f"{word} won and lost."
            )
        kind = last.get("attack_kind")
        if kind == "head":
            how = f"attacked by discarding {_the(last['attack_card'])}"
        else:
            how = f"attacked, turning {_the(last['attack_card'])} from the blind pile onto the open pile"
        # Fresh news, shown open: for a player until their first turn of the new round is done (bots
        # may have played since), for everyone else until anyone has played a turn.
        if over:
            fresh = True
        elif in_game:
            fresh = view["turns"][info.seat] == 0
        else:
            fresh = not view.get("history")
        # One line of news for the top of the page: the attacker's result, and the viewer's own.
        summary = (
            f"{name_of(attacker).capitalize()} attacked with power {last['powers'][attacker]} "
            f"({_signed(last['changes'][attacker])} {one if abs(last['changes'][attacker]) == 1 else word})"
        )
        if info.seat is not None and info.seat in last["defenders"]:
            change = last["changes"][info.seat]
            summary += (
                f"; you had power {last['powers'][info.seat]} ({_signed(change)} {one if abs(change) == 1 else word})"
            )
        summary += "."
        gone = [name_of(s) for s in last["fallen"] if s not in lifelines]
        if gone:
            summary += " Out: " + ", ".join(gone) + "."
        battle = {
            "round": last["round"],
            "summary": summary,
            "attacker": name_of(attacker),
            "how": how,
            "order": ", ".join(name_of(s) for s in last["defenders"]),
            "duos": duos,
            "fights": fights,
            "rows": rows,
            "who_sees": who_sees,
            "fresh": fresh,
            "next_round": None if over else {"round": view["round"], "starter": name_of(view["round_starter"])},
        }

    # --- the lives (or points) table, one row per battle ------------------------------------
    log = view.get("battle_log", [])
    lives_table = {
        "names": [s["name"] for s in seats],
        "start": [view.get("start_lives", 0)] * players,
        "rows": [
            {
                "round": b["round"],
                "attacker": names.get(b["attacker"], ""),
                "cells": [
                    {
                        "after": b["lives_after"][seat],
                        "change": _signed(b["changes"][seat]),
                        "power": b["powers"][seat],
                        "attacker": seat == b["attacker"],
                    }
                    for seat in range(players)
                ],
            }
            for b in reversed(log)  # newest first: the latest round is what players look for
        ],
    }

    outcome = None
    if result:
        fill = {f"p{n}": name for n, name in names.items()}
        outcome = {
            "winners": [names.get(s, "") for s in result["winners"]],
            "draw": bool(result.get("draw")),
            "reason": fill_names(result.get("reason", ""), fill),
        }

    option_words = []
    if options.get("open_battles"):
        option_words.append("open battles")
    if options.get("main_attack"):
        option_words.append("main attack")
    if options.get("lifeline") and not points:
        option_words.append("lifeline")

    return {
        "template": "games/boards/dizzy-duo-battle.html",
        "round": view.get("round"),
        "max_rounds": view.get("max_rounds"),
        "points": points,
        "word": word,
        "word_one": one,
        "Word": word.capitalize(),
        "target": options.get("points_target", 0),
        "start_lives": view.get("start_lives"),
        "option_words": option_words,
        "over": over,
        "phase": view.get("phase"),
        "my_turn": my_turn,
        "hint": hint,
        "seats": seats,
        "fewest_turns": fewest_turns,
        "attacks_open": attacks_open,
        "turns_before_attack": view.get("turns_before_attack"),
        "forced_attack_turn": view.get("forced_attack_turn"),
        "table": table,
        "taking": taking,
        "hand": hand_panel,
        "attack": attack,
        "out": info.seat is not None and bool(view.get("out")) and view["out"][info.seat] and not over,
        "watching": info.seat is None,
        "battle": battle,
        "lives_table": lives_table,
        "outcome": outcome,
    }
