from celery import shared_task

from moderation import actions


@shared_task(name="moderation.tasks.end_suspensions")
def end_suspensions() -> int:
    """Let suspended players back in once their suspension is over (bans stay)."""
    return actions.end_suspensions()
