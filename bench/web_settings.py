"""Settings for the web benchmark: the production settings plus a bare view and a private static dir.

bench/web/ (database.py) sets the environment (DEBUG=false, DATABASE_URL of the bench database, ...) before
these load; only what the environment cannot say is overridden here.
"""

from dizzysite.settings import *  # noqa: F403
from dizzysite.settings import VAR_DIR

# dizzysite.urls plus /bench/bare/, the baseline view (settings.py has no env var for this).
ROOT_URLCONF = "bench.web_urls"

# collectstatic writes the manifest here (DIZZY_VAR_DIR is a temporary folder of the run), so the
# bench never touches the repository's staticfiles/ while DEBUG=false needs a manifest.
STATIC_ROOT = VAR_DIR / "staticfiles"
