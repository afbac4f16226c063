from games.models import Match, Seat


def turn_count(request) -> dict:
    """How many matches wait for the signed-in player's move (the navigation and tab title).

    A callable, so the query runs only when a template shows the navigation (not for fragments)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}

    def count() -> int:
        # match_over=False: the player's seats not over, from seat_player_going_on, not all of them.
        return Seat.objects.filter(
            user=user, match_over=False, to_act=True, handed_to_bot=False, match__status=Match.Status.ACTIVE
        ).count()

    return {"your_turn_count": count}
