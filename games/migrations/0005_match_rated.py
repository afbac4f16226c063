from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0004_game_without_choices")]

    operations = [migrations.AddField(model_name="match", name="rated", field=models.BooleanField(default=True))]
