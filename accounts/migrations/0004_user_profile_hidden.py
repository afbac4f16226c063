from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("accounts", "0003_user_banned_user_suspended_until")]

    operations = [
        migrations.AddField(
            model_name="user",
            name="profile_hidden",
            field=models.BooleanField(
                default=False, verbose_name="Hide my profile from visitors who are not signed in"
            ),
        ),
    ]
