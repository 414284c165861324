"""DRF's authtoken tokens (one clear-text key per user, table ``authtoken_token``) become hashed
API tokens named "default" that accept the very same key; then the clear-text table is dropped,
with authtoken's migration records and content types (and so its permissions), so that no key is
left readable in the database. On a database that never had authtoken this does nothing.

Not reversible into clear text: migrating back leaves the hashed tokens as they are.
"""

import hashlib

from django.db import migrations

# core.tokens.PREFIX_LENGTH when this migration was written (a migration must not follow code).
PREFIX_LENGTH = 12


def convert_authtoken_keys(apps, schema_editor):
    connection = schema_editor.connection
    with connection.cursor() as cursor:
        cursor.execute("SELECT to_regclass('authtoken_token') IS NOT NULL")
        if not cursor.fetchone()[0]:
            return
        cursor.execute("SELECT key, user_id, created FROM authtoken_token ORDER BY created")
        rows = cursor.fetchall()
    ApiToken = apps.get_model("core", "ApiToken")
    for key, user_id, created in rows:
        digest = hashlib.sha256(key.encode("utf-8")).hexdigest()
        if ApiToken.objects.filter(digest=digest).exists():
            continue
        token = ApiToken.objects.create(user_id=user_id, name="default", prefix=key[:PREFIX_LENGTH], digest=digest)
        ApiToken.objects.filter(pk=token.pk).update(created_at=created)  # auto_now_add wrote now
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE authtoken_token CASCADE")
        cursor.execute("DELETE FROM django_migrations WHERE app = 'authtoken'")
    # Their permissions go with them (and with those, any grant of them, guardian's included).
    apps.get_model("contenttypes", "ContentType").objects.filter(app_label="authtoken").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("core", "0001_tokens"),
        # Everything that may point at authtoken's content types, so that deleting them cascades.
        ("contenttypes", "0002_remove_content_type_name"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("admin", "0003_logentry_add_action_flag_choices"),
        ("guardian", "0003_remove_groupobjectpermission_guardian_gr_content_ae6aec_idx_and_more"),
    ]

    operations = [migrations.RunPython(convert_authtoken_keys, migrations.RunPython.noop)]
