"""The ASGI application: every page as before, plus the live streams' async views.

uvicorn dizzysite.asgi:application          # `make run` (dizzysite/supervise.py)
gunicorn dizzysite.asgi:application -k uvicorn_worker.UvicornWorker   # production
"""

import gc
import os

import django
from django.core.handlers.asgi import ASGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dizzysite.settings")

# The long-lived streams: the browser's (live.views) and the API's (api.streams).
STREAM_PATHS = ("/live/", "/api/v1/stream/")


class Application(ASGIHandler):
    """Django's handler, except that a stream's request gets no thread of its own.

    Django gives each request a ThreadSensitiveContext: its sync parts (the middleware, the session
    and the user) run in a thread made for that request, which lives as long as the request. A
    stream's request lasts as long as the stream is open, so each open stream would hold a thread
    (about 100 KB, and 10,000 of them at 10,000 streams). Without that context, a stream's sync parts
    run on the process's one thread for sync work outside any request (asgiref's), where its later
    database work runs too (live.db): the streams wait in the event loop, on no thread of their own.
    """

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope["path"].startswith(STREAM_PATHS):
            await self.handle(scope, receive, send)
            return
        await super().__call__(scope, receive, send)


# Python's collector, at each full pass, walks every object the process holds: with thousands of open
# streams that took 0.5-0.9 s, and the boards redrawn meanwhile waited for it (bench/RESULTS.md). What
# the process made at start (Django, its apps, the templates) is frozen out of the passes, and a young
# generation of 20,000 objects lets a request's own objects die before they are promoted to the old
# generation, whose growth is what sets off the full passes.
GC_THRESHOLDS = (20_000, 10, 10)


def tune_garbage_collector() -> None:
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


django.setup(set_prefix=False)
application = Application()
tune_garbage_collector()
