"""Fingerprints now read a typographic apostrophe as a plain one ("Don’t" and "Don't" are the same
words). Rules stored before keep their text; only rows holding such an apostrophe get a new
fingerprint, and one that would now collide with another rule of its owner and tool keeps its old
one (merging two rules is a curator's decision, not a migration's)."""

import hashlib
import re

from django.db import migrations


def _fingerprint(rule: str) -> str:  # a frozen copy: migrations must not follow later changes
    normal = re.sub(r"\s+", " ", rule.strip().lower()).rstrip(".!;").replace("\u2019", "'").replace("\u2018", "'")
    return hashlib.sha256(normal.encode()).hexdigest()[:32]


def refingerprint(apps, schema_editor):
    Rule = apps.get_model("toolrules", "ToolMemoryRule")
    for rule in Rule.objects.filter(rule__regex="[\u2018\u2019]"):
        new = _fingerprint(rule.rule)
        taken = Rule.objects.filter(owner_id=rule.owner_id, tool_name=rule.tool_name, fingerprint=new)
        if new != rule.fingerprint and not taken.exclude(pk=rule.pk).exists():
            Rule.objects.filter(pk=rule.pk).update(fingerprint=new)


class Migration(migrations.Migration):
    dependencies = [("toolrules", "0001_tool_rules")]

    operations = [migrations.RunPython(refingerprint, migrations.RunPython.noop)]
