"""Open streams end at once when their server is told to stop (SIGTERM on a deploy, Ctrl-C), so the
browsers reconnect to the processes that stay instead of waiting for the server's graceful timeout.

The server (uvicorn, a gunicorn worker) installs its own handler for the signal; the first stream of
a process wraps it: the wrapper tells every open stream of the process to end (a STOPPING message
to each subscription), then calls the server's handler. A stream that ends this way sends no
"close" event, so its EventSource reconnects by itself.
"""

from __future__ import annotations

import signal
import threading
from typing import Any

from live.broadcast import get_broadcaster

STOPPING = "stopping"  # a message kind no publisher sends: only this module, to every subscription
SIGNALS = (signal.SIGTERM, signal.SIGINT)
_installed = False


def end_streams_on_stop() -> None:
    """Wrap the stop signals' handlers, once per process (only the main thread may: a test's event
    loop in another thread leaves them as they are)."""
    global _installed
    if _installed or threading.current_thread() is not threading.main_thread():
        return
    _installed = True
    for number in SIGNALS:
        signal.signal(number, _wrapped(signal.getsignal(number)))


def _wrapped(previous: Any):
    def on_stop(number: int, frame: Any) -> None:
        get_broadcaster().dispatch_everyone(STOPPING)
        if callable(previous):
            previous(number, frame)
        elif previous == signal.SIG_DFL:
            signal.signal(number, signal.SIG_DFL)
            signal.raise_signal(number)

    return on_stop
