"""Django's Redis cache with one connection pool per server process.

Django keeps a cache object per thread and, under ASGI, per request (its handler runs each request
in a context of its own), and each object makes its own connection pool: every request, and every
open stream's heartbeat, connected to Redis anew and left the connection to the garbage collector.
Here every cache object of a process draws on the same bounded pool, which waits for a free
connection (up to POOL_WAIT_S) instead of opening more than POOL_SIZE.
"""

from __future__ import annotations

import threading
from typing import Any

import redis
from django.core.cache.backends.redis import RedisCache, RedisCacheClient

POOL_SIZE = 32  # connections a process keeps; a cache call holds one for a round trip
POOL_WAIT_S = 2.0

_pools: dict[tuple[str, str], Any] = {}
_pools_lock = threading.Lock()


def shared_pool(server: str, options: dict[str, Any]) -> Any:
    """This process's pool for `server` with these connection options, made at its first use."""
    key = (server, repr(sorted(options.items())))
    with _pools_lock:
        if key not in _pools:
            _pools[key] = redis.BlockingConnectionPool.from_url(
                server, max_connections=POOL_SIZE, timeout=POOL_WAIT_S, **options
            )
        return _pools[key]


class SharedPoolClient(RedisCacheClient):
    def _get_connection_pool(self, write: bool) -> Any:
        # As Django's own, except that the pool this cache object keeps is the process's.
        index = self._get_connection_pool_index(write)
        if index not in self._pools:
            self._pools[index] = shared_pool(self._servers[index], self._pool_options)
        return self._pools[index]


class SharedPoolRedisCache(RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = SharedPoolClient
