from celery import shared_task

from moderation import actions


@shared_task
def end_suspensions() -> int:
    """Let suspended players back in once their suspension is over (bans stay)."""
    return actions.end_suspensions()
