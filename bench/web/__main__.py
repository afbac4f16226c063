"""`python -m bench.web`: the web benchmark alone (`make bench` runs it through bench/run.py, then the
bots' benchmarks); its figures as one JSON line at the end. --matches and --seconds make a short run."""

from __future__ import annotations

import argparse
import json
import signal
import sys

from bench.web import Options, main


def run() -> int:
    defaults = Options()
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=defaults.seconds, help="measured load per endpoint")
    parser.add_argument("--warmup", type=float, default=defaults.warmup)
    parser.add_argument("--threads", type=int, default=defaults.threads, help="client threads")
    parser.add_argument("--matches", type=int, default=defaults.matches)
    parser.add_argument("--users", type=int, default=defaults.users)
    args = parser.parse_args()
    # SIGTERM unwinds like Ctrl-C, so main()'s finally block stops gunicorn.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    opts = Options(
        seconds=args.seconds, warmup=args.warmup, threads=args.threads, matches=args.matches, users=args.users
    )
    print(json.dumps(main(opts), sort_keys=True), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(run())
