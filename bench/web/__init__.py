"""Web benchmark: the site under gunicorn on PostgreSQL, measured against a bare Django view.

Stages, one module each (bench/run.py calls main(), bench/web/main.py, which runs them in order;
`python -m bench.web` runs it alone):
1. playing.py: the games, in a process pool: 1,000 active matches, a quarter per game, half just
   started (1 move played) and half late: a Doubting Flower Field whose field fills up, a Lizzy
   Ghosties table of 8, a Dizzy Duo Battle of 6, a long Solitaire Chess, each kept at the heaviest
   state of its game's last third (the largest engine view plus legal moves for the player to act,
   see heaviest()). Every state is the engine's own, reached by legal moves from the match's seed;
2. database.py: recreate the PostgreSQL database `dizzybench`, migrate it, collect static files
   (DEBUG=false needs the manifest) into a temporary DIZZY_VAR_DIR (while the games are played);
3. loading.py: load bench users (verified emails, one session each) and the matches; the Move rows
   are the games' moves, and the last move of each match goes through actions.do_move so the rest
   of the rows are as the site makes them;
4. inprocess.py (Django test Client): queries per board page of every game at move 1, late and with
   200 Move rows, and where one board page's time goes (queries, engine, presenter, templates, gzip);
5. server.py: serve the site with `gunicorn dizzysite.wsgi -w 2` (sync workers, production settings,
   plain http on loopback), reading the server's CPU time per request from /proc;
6. load.py: drive it with bench/web_load.py from this process: the bare view, each game's board
   page, the idle poll and move submissions (Solitaire Chess), in interleaved rounds; every request
   asks for gzip, as browsers do; each board page's compressed size and stylesheet links as served;
7. report.py: print a table, the targets as met or not, and return the figures for the final JSON
   line.
What they share (games and table sizes, the bench database, targets, Options) is in config.py.

Nothing here changes the site: bench/web_settings.py only adds /bench/bare/ and a private
STATIC_ROOT, and the cache is Redis (BENCH_CACHE_URL) as in production when one answers. Django is
set up in this process with the bench environment, so call main() once.
"""

from bench.web.config import Options
from bench.web.main import main

__all__ = ["Options", "main"]
