"""Database work for long-lived streams, shared by the board's streams (live.views) and
the API's (api.streams).

Django's ASGI handler gives each request a ThreadSensitiveContext: its sync parts (the middleware,
the async ORM's queries) run in a thread of its own, for as long as the request lasts, and that
thread keeps its own database connection. For a stream that is as long as it is open: one
PostgreSQL connection per open stream. So a stream gives its request thread's connection back once
its answer has begun (`release_connection`), and does its later database work with `db()`, on the
server process's one thread for it (asgiref's single thread for sync work outside any request):
however many streams are open, that is one connection.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Callable
from typing import Any, TypeVar

from asgiref.sync import SyncToAsync, sync_to_async
from django.db import connection

T = TypeVar("T")


def outside_the_request() -> contextvars.Context:
    """This context without the request's ThreadSensitiveContext (Django's ASGI handler gives each
    request one: a thread of its own, for as long as the request, here the stream)."""
    context = contextvars.copy_context()
    context.run(SyncToAsync.thread_sensitive_context.set, None)
    return context


async def db(function: Callable[..., T], *args: Any) -> T:
    """Run a stream's database work off the event loop, on the server process's one thread for it:
    not the request's own thread, which would hold a database connection for as long as the stream
    is open, one per stream. (Under a sync caller, a test's or WSGI's, its thread as before.)"""
    return await asyncio.get_running_loop().create_task(sync_to_async(function)(*args), context=outside_the_request())


def release_connection() -> None:
    """Close the request thread's database connection (its authentication used it): the stream
    keeps the thread until it ends, and must not keep a connection with it. Not inside a
    transaction (a test's)."""
    if not connection.in_atomic_block:
        connection.close()


async def arelease_connection() -> None:
    """release_connection, in the request's own thread (the one whose connection it is)."""
    await sync_to_async(release_connection)()
