"""Settings for the events benchmark: the web benchmark's (production settings, /bench/bare/), with
the API's rate limit out of the way: the bench measures the streams, not the limiter."""

from bench.web_settings import *  # noqa: F403

DIZZY_API_RATE_LIMIT = 1_000_000
