from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("accounts", "0007_user_push_preferences")]

    operations = [
        migrations.AddField(
            model_name="user",
            name="language",
            field=models.CharField(
                blank=True,
                choices=[("", "As my browser asks"), ("en", "English"), ("nl", "Nederlands")],
                default="",
                max_length=8,
                verbose_name="Language",
            ),
        ),
    ]
