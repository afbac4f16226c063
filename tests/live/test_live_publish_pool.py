"""The publisher's Redis pool is bounded and waits for a free connection instead of raising."""

import time

import pytest
import redis

from live.broadcast import RedisBroadcaster


def test_publish_pool_blocks_with_a_bound() -> None:
    broadcaster = RedisBroadcaster("redis://127.0.0.1:6379/0", "test-pool:")
    pool = broadcaster.sync_client().connection_pool
    assert isinstance(pool, redis.BlockingConnectionPool)
    assert pool.max_connections == RedisBroadcaster.PUBLISH_POOL_SIZE
    assert pool.timeout == RedisBroadcaster.POOL_WAIT_S


def test_exhausted_pool_waits_then_gives_up() -> None:
    broadcaster = RedisBroadcaster("redis://127.0.0.1:6379/0", "test-pool:")
    broadcaster.PUBLISH_POOL_SIZE = 1
    broadcaster.POOL_WAIT_S = 0.2
    pool = broadcaster.sync_client().connection_pool
    held = pool.get_connection()
    try:
        started = time.monotonic()
        with pytest.raises(redis.ConnectionError):
            broadcaster.sync_client().publish("test-pool:x", "1")
        assert 0.15 <= time.monotonic() - started < 2.0
    finally:
        pool.release(held)
    assert broadcaster.sync_client().publish("test-pool:x", "1") == 0
