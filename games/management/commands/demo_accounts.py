"""Create the two demo players of `make run` (idempotent) and print how to log in."""

from allauth.account.models import EmailAddress
from django.core.management.base import BaseCommand

from accounts.models import User

DEMO_ACCOUNTS = [("alice", "alice@example.com", "dizzy-alice-2026"), ("bob", "bob@example.com", "dizzy-bob-2026")]


class Command(BaseCommand):
    help = "Create two demo accounts with verified email addresses."

    def handle(self, *args, **options):
        for username, email, password in DEMO_ACCOUNTS:
            user, created = User.objects.get_or_create(username=username, defaults={"email": email})
            if created:
                user.set_password(password)
                user.save()
            EmailAddress.objects.get_or_create(user=user, email=email, defaults={"verified": True, "primary": True})
            self.stdout.write(f"Demo account: {username} / {password}")
