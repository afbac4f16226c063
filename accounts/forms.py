from allauth.account.forms import SignupForm as AllauthSignupForm
from allauth.mfa.webauthn.forms import AddWebAuthnForm, EditWebAuthnForm
from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import User, known_time_zone


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ["display_name", "language", "time_zone", "profile_hidden", "turn_sound"]
        # The labels here (not on the model) so the words translate without a migration.
        labels = {
            "display_name": _("Display name"),
            "language": _("Language"),
            "time_zone": _("Time zone"),
            "profile_hidden": _("Hide my profile from visitors who are not signed in"),
            "turn_sound": _("Play a short sound when it becomes my turn in a live match"),
        }
        help_texts = {"display_name": _("Shown to other players instead of your username.")}


class CloseAccountForm(forms.Form):
    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        help_text=_("To be sure it is you who closes the account."),
    )


class AddPasskeyForm(AddWebAuthnForm):
    """allauth's form that adds a passkey, with a label for its name field (allauth gives none, so
    the field showed "Name" on a Dutch page too)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["name"].label = _("Name")


class RenamePasskeyForm(EditWebAuthnForm):
    """allauth's form that renames a passkey, its name field labelled like AddPasskeyForm's."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["name"].label = _("Name")


class SignupForm(AllauthSignupForm):
    """allauth's sign-up form with the browser's time zone in a hidden field (static/js/time_zone.js
    fills it), so a new player's first pages show their own clock. Without the script, or with a zone
    this server does not know, the account gets the default zone; the profile changes it."""

    time_zone = forms.CharField(required=False, widget=forms.HiddenInput(attrs={"data-browser-time-zone": ""}))

    def clean_time_zone(self) -> str:
        return known_time_zone(self.cleaned_data.get("time_zone", ""))
