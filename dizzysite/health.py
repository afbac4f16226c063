"""GET /healthz: for a process supervisor, a load balancer or a monitor.

200 when the database answers and the worker's and beat's heartbeats (dizzysite/heartbeat.py) are
fresh and no task fails again and again (dizzysite/task_failures.py); 503 otherwise, with the
reasons. JSON, never cached, no session or login needed.
`/healthz?web`: the database only, for a load balancer that should keep sending pages to a web
process while the worker is down (a monitor still alerts on /healthz).
"""

from __future__ import annotations

from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from dizzysite.heartbeat import heartbeat_ages, heartbeat_problems
from dizzysite.task_failures import failing_tasks


def database_problem() -> str | None:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError as error:
        return gettext("The database does not answer: %(error)s") % {"error": error}
    return None


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    problems = [p for p in [database_problem()] if p]
    ages: dict[str, float | None] = {}
    if "web" not in request.GET:
        try:
            problems += heartbeat_problems() + failing_tasks()
            ages = heartbeat_ages()
        except Exception as error:  # the cache itself is down: that is the answer, not a 500
            problems.append(gettext("The cache does not answer: %(error)s") % {"error": error})
    body = {
        "status": "fail" if problems else "ok",
        "problems": problems,
        "heartbeat_age_seconds": {role: None if age is None else round(age, 1) for role, age in ages.items()},
    }
    return JsonResponse(body, status=503 if problems else 200)
