from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("assistant", "0001_sessions_and_turns")]

    operations = [
        migrations.AddField(
            model_name="assistantsession",
            name="prompt_prefix",
            field=models.TextField(blank=True, default=""),
        ),
        migrations.AddField(
            model_name="assistantsession",
            name="tools_snapshot",
            field=models.JSONField(blank=True, default=list),
        ),
    ]
