from django import forms

from accounts.models import User


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ["display_name", "language", "time_zone", "profile_hidden", "turn_sound"]
