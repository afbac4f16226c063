"""The publisher's Redis pool is bounded and waits for a free connection instead of raising."""

import redis

from live.broadcast import RedisBroadcaster


def test_publish_pool_blocks_with_a_bound() -> None:
    broadcaster = RedisBroadcaster("redis://127.0.0.1:6379/0", "test-pool:")
    pool = broadcaster.sync_client().connection_pool
    assert isinstance(pool, redis.BlockingConnectionPool)
    assert pool.max_connections == RedisBroadcaster.PUBLISH_POOL_SIZE
    assert pool.timeout == RedisBroadcaster.POOL_WAIT_S
