"""The integration fixtures (Redis, real Celery workers, SMTP) for tests/tournaments/test_tournament_workers.py."""

from tests.integration.conftest import publish_to_redis, redis_broker, smtp_server, start_worker  # noqa: F401
