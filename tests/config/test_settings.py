"""Each settings mode loads; production refuses to start without its secrets and passes --deploy."""

import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT

PROD_ENV = {
    "DJANGO_SECRET_KEY": "x7#kP2!vQ9$zR4@wL8^mN3&bT6*yH1%dF5(gJ0)sA-cE+uI=oK_lM~nB`vC<xZ>",
    "DJANGO_ALLOWED_HOSTS": "mnemo.example.com",
}


def run(args: list[str], **extra: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    env.update(extra)
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("module", ["local", "test", "production"])
def test_settings_module_loads(module):
    extra = PROD_ENV if module == "production" else {}
    result = run(
        ["-c", "import django; django.setup(); from django.conf import settings; print(settings.DEBUG)"],
        DJANGO_SETTINGS_MODULE=f"config.settings.{module}",
        **extra,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ("True" if module == "local" else "False")


def test_manage_py_defaults_to_local_settings():
    result = run(["manage.py", "diffsettings", "--output", "unified"])
    assert result.returncode == 0, result.stderr
    assert "+ DEBUG = True" in result.stdout


@pytest.mark.parametrize("missing", ["DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS"])
def test_production_refuses_to_start_without(missing):
    env = {k: v for k, v in PROD_ENV.items() if k != missing}
    result = run(["manage.py", "check"], DJANGO_SETTINGS_MODULE="config.settings.production", **env)
    assert result.returncode != 0
    assert f"{missing} must be set in production" in result.stderr


def test_production_check_deploy_prints_no_warnings():
    result = run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        DJANGO_SETTINGS_MODULE="config.settings.production",
        **PROD_ENV,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout
    assert "WARNING" not in result.stdout + result.stderr


def test_database_url_selects_an_external_server():
    result = run(
        [
            "-c",
            "import django; django.setup(); from django.conf import settings; "
            "d = settings.DATABASES['default']; print(d['ENGINE'], d['HOST'], d['PORT'], d['NAME'])",
        ],
        DJANGO_SETTINGS_MODULE="config.settings.local",
        DATABASE_URL="postgres://mnemo:secret@db.internal:5433/mnemo_prod",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["django.db.backends.postgresql", "db.internal", "5433", "mnemo_prod"]
