from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("accounts", "0005_user_is_bot")]

    operations = [
        migrations.AddField(
            model_name="user",
            name="turn_sound",
            field=models.BooleanField(
                default=False, verbose_name="Play a short sound when it becomes my turn in a live match"
            ),
        ),
    ]
