"""The typed core stays typed: mypy (with the Django plugin) on the files pyproject.toml lists,
and on everything they import, finds no error (what ``make typecheck`` runs)."""

import subprocess
import sys

import pytest

from tests.conftest import ROOT


@pytest.mark.typecheck
def test_mypy_finds_no_error():
    result = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-5000:] + result.stderr[-2000:]
    assert "Success: no issues found" in result.stdout
