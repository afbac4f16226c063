import zoneinfo

from django.conf import settings
from django.utils import timezone, translation


class UserTimezoneMiddleware:
    """Show times in the signed-in user's own time zone."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            try:
                timezone.activate(zoneinfo.ZoneInfo(user.time_zone))
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                timezone.deactivate()
        else:
            timezone.deactivate()
        return self.get_response(request)


class UserLanguageMiddleware:
    """A member's own language (User.language) wins over the language cookie and Accept-Language.

    LocaleMiddleware (before this) has already chosen for visitors; an empty setting leaves its
    choice. Placed after AuthenticationMiddleware."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            language = getattr(user, "language", "")
            if language and language in dict(settings.LANGUAGES):
                translation.activate(language)
                request.LANGUAGE_CODE = language
        return self.get_response(request)
