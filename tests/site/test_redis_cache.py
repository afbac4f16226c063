"""The Redis cache shares one bounded connection pool per process, whatever the thread or request."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import uuid
from pathlib import Path

import pytest
import redis

from dizzysite import redis_cache
from dizzysite.netutil import port_open
from tests.conftest import require

REDIS_URL = "redis://127.0.0.1:6379/15"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def redis_client():
    require(port_open("127.0.0.1", 6379), "Redis is not running on 127.0.0.1:6379")
    client = redis.Redis.from_url(REDIS_URL)
    yield client
    client.close()


def connections_named(client: redis.Redis, name: str) -> int:
    return sum(1 for entry in client.client_list() if entry.get("name") == name)


def test_caches_of_many_threads_share_one_connection(redis_client):
    # Django makes a cache object per thread, and per request under ASGI: twenty of them, each
    # used from a thread of its own, as twenty requests would.
    name = f"cache-test-{uuid.uuid4().hex[:8]}"
    params = {"OPTIONS": {"client_name": name}}
    caches: list[redis_cache.SharedPoolRedisCache] = []

    def use_a_cache(index: int) -> None:
        cache = redis_cache.SharedPoolRedisCache(REDIS_URL, params)
        cache.set(f"{name}:{index}", index, 30)
        assert cache.get(f"{name}:{index}") == index
        caches.append(cache)  # kept alive: a cache object's own pool would keep its connection

    for index in range(20):
        thread = threading.Thread(target=use_a_cache, args=(index,))
        thread.start()
        thread.join()

    assert len(caches) == 20
    assert connections_named(redis_client, name) == 1
    pools = {id(cache._cache.get_client(write=True).connection_pool) for cache in caches}
    assert len(pools) == 1
    pool = caches[0]._cache.get_client(write=True).connection_pool
    assert isinstance(pool, redis.BlockingConnectionPool)
    assert pool.max_connections == redis_cache.POOL_SIZE


def test_an_exhausted_pool_waits_for_a_connection(redis_client, monkeypatch):
    monkeypatch.setattr(redis_cache, "POOL_SIZE", 1)
    monkeypatch.setattr(redis_cache, "POOL_WAIT_S", 5.0)
    name = f"cache-test-{uuid.uuid4().hex[:8]}"
    cache = redis_cache.SharedPoolRedisCache(REDIS_URL, {"OPTIONS": {"client_name": name}})
    cache.set(f"{name}:warm", 1, 30)
    pool = cache._cache.get_client(write=True).connection_pool
    held = pool.get_connection()
    got: list[object] = []
    waiter = threading.Thread(target=lambda: got.append(cache.get(f"{name}:warm")))
    waiter.start()
    waiter.join(0.3)
    assert waiter.is_alive()  # waiting for the one connection, not opening a second
    pool.release(held)
    waiter.join(5)
    assert got == [1]
    assert connections_named(redis_client, name) == 1


def test_the_site_with_a_cache_url_uses_the_shared_pool():
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CACHE_URL"))}
    env.update(DJANGO_SETTINGS_MODULE="dizzysite.settings", CACHE_URL=REDIS_URL)
    code = "from django.conf import settings; print(settings.CACHES['default']['BACKEND'])"
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-v", "0", "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.stdout.strip() == "dizzysite.redis_cache.SharedPoolRedisCache", result.stderr
