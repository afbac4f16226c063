"""The ASGI application: every page as before, plus the live streams' async views.

uvicorn dizzysite.asgi:application          # `make run` (dizzysite/supervise.py)
gunicorn dizzysite.asgi:application -k uvicorn_worker.UvicornWorker   # production
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dizzysite.settings")
application = get_asgi_application()
