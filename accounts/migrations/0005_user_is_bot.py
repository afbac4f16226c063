from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("accounts", "0004_user_profile_hidden")]

    operations = [
        migrations.AddField(model_name="user", name="is_bot", field=models.BooleanField(default=False)),
    ]
