"""Rating a finished match: the ratings change in the transaction that ends it.

do_rate_finished_match runs on games.events.MatchFinished (subscribed during=True in
RatingsConfig.ready()), inside the transaction that ends the match, with the match row locked: every
way a match finishes (a last move, a time-out, a bot's late turn, a moderator's adjudication) publishes
it there, so the ratings change with the result or not at all. An aborted match never finishes
(its status is ABORTED) and is never rated.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.utils import timezone
from openskill.models import PlackettLuce

from games.events import MatchFinished
from games.models import Match, Seat
from ratings.models import Pool, Rating, RatingChange

# One method for all four games: Plackett-Luce handles two players, several players and teams.
MODEL = PlackettLuce()
# Games whose winners are a team: the winners play as one team against everyone else as the other.
TEAM_GAMES = {"lizzy-ghosties"}


def pool_of(seats: list[Seat]) -> str:
    """A match with any seat a bot from the start is rated in the bots pool; a seat handed to a bot
    during the match still counts as its player (who lost it by timing out or being suspended)."""
    return Pool.BOTS if any(seat.user_id is None for seat in seats) else Pool.PEOPLE


def outcome_of(result: dict[str, Any], seat: int, *, resigned: frozenset[int] = frozenset()) -> str:
    if seat in resigned:  # ruling SITE-RESIGN: lost, whatever the bot that played the seat on did
        return RatingChange.Outcome.LOST
    winners = set(result.get("winners") or [])
    if result.get("draw") or not winners:
        return RatingChange.Outcome.DRAWN
    return RatingChange.Outcome.WON if seat in winners else RatingChange.Outcome.LOST


def teams_and_ranks(
    game: str, result: dict[str, Any], numbers: list[int], *, resigned: frozenset[int] = frozenset()
) -> tuple[list[list[int]], list[int]]:
    """OpenSkill's teams (lists of seat numbers) and ranks (1 is best, equal ranks tie).

    Winners rank 1 and everyone else 2 (the results record no finer order); a draw ties everyone.
    In a team game the two sides are two teams, otherwise every seat plays for itself. Seats whose
    players resigned (ruling SITE-RESIGN) rank last, below everyone, whatever the bot did with them."""
    if resigned:
        kept = [n for n in numbers if n not in resigned]
        kept_result = {**result, "winners": [n for n in result.get("winners") or [] if n not in resigned]}
        teams, ranks = teams_and_ranks(game, kept_result, kept) if kept else ([], [])
        last = max(ranks, default=0) + 1
        return [*teams, *([n] for n in sorted(resigned))], [*ranks, *[last] * len(resigned)]
    winners = set(result.get("winners") or [])
    if result.get("draw") or not winners:
        return [[n] for n in numbers], [1] * len(numbers)
    if game in TEAM_GAMES and len(winners) < len(numbers):
        losers = [n for n in numbers if n not in winners]
        return [sorted(winners), losers], [1, 2]
    return [[n] for n in numbers], [1 if n in winners else 2 for n in numbers]


def _ratings_locked(game: str, pool: str, seats: list[Seat]) -> dict[int, Rating]:
    """The seats' ratings (created at the start values when new), rows locked in id order so that
    two matches ending at once with a common player wait for each other instead of losing an update."""
    ids = {}
    for seat in seats:
        if seat.user_id:
            rating, _ = Rating.objects.get_or_create(game=game, pool=pool, user_id=seat.user_id, bot_level="")
        else:
            rating, _ = Rating.objects.get_or_create(game=game, pool=Pool.BOTS, user=None, bot_level=seat.bot_level)
        ids[seat.number] = rating.pk
    locked = {r.pk: r for r in Rating.objects.select_for_update().filter(pk__in=ids.values()).order_by("pk")}
    return {number: locked[pk] for number, pk in ids.items()}


def rated_seats(seats: list[Seat]) -> list[int]:
    """The seats whose ratings a match changes: an account (a player, or a bot level, which has one
    rating) is never rated against itself, so one that holds several seats of the match keeps its
    rating; the others are rated against each of its seats as its rating stands."""
    held = Counter(_rated_as(seat) for seat in seats)
    return [seat.number for seat in seats if held[_rated_as(seat)] == 1]


def _rated_as(seat: Seat) -> tuple[str, object]:
    return ("player", seat.user_id) if seat.user_id else ("bot", seat.bot_level)


def rate_on_finish(event: MatchFinished) -> None:
    do_rate_finished_match(event.match)


def do_rate_finished_match(match: Match) -> list[RatingChange]:
    """Rate a match that has just finished: exactly once, in the caller's transaction.

    The caller holds the match row lock; the unique (match, seat) rows make a second call a no-op."""
    if match.status != Match.Status.FINISHED or not match.rated or not match.result:
        return []
    if RatingChange.objects.filter(match=match).exists():
        return []
    seats = list(Seat.objects.filter(match=match).order_by("number"))
    ratings = _ratings_locked(match.game, pool_of(seats), seats)
    numbers = [seat.number for seat in seats]
    resigned = frozenset(seat.number for seat in seats if seat.resigned)
    teams, ranks = teams_and_ranks(match.game, match.result, numbers, resigned=resigned)
    before = {n: (ratings[n].mu, ratings[n].sigma) for n in numbers}
    rated = MODEL.rate(
        [[MODEL.rating(mu=before[n][0], sigma=before[n][1]) for n in team] for team in teams], ranks=ranks
    )
    after = {n: (new.mu, new.sigma) for team, news in zip(teams, rated) for n, new in zip(team, news)}
    changes = []
    now = match.ended or timezone.now()
    for number in rated_seats(seats):
        rating = ratings[number]
        mu_before, sigma_before = rating.mu, rating.sigma
        rating.mu += after[number][0] - before[number][0]
        rating.sigma = min(rating.sigma, after[number][1])
        rating.matches += 1
        rating.last_played = now
        rating.save(update_fields=["mu", "sigma", "matches", "last_played"])
        changes.append(
            RatingChange(
                match=match,
                seat=number,
                rating=rating,
                outcome=outcome_of(match.result, number, resigned=resigned),
                mu_before=mu_before,
                sigma_before=sigma_before,
                mu_after=rating.mu,
                sigma_after=rating.sigma,
            )
        )
    return RatingChange.objects.bulk_create(changes)
