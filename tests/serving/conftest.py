"""Folders of these tests' own under the system temp folder.

pytest's ``tmp_path`` lives under a per-user base folder that every pytest session on the
machine prunes (it keeps the newest few), so a session running next to ours could remove or
re-permission the data folder of a PostgreSQL we are running. These tests start long-lived
servers, so they use folders nobody else touches.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest


def own_tmp(prefix: str = "mnemo-serving-") -> Path:
    path = Path(tempfile.mkdtemp(prefix=prefix))
    path.chmod(0o755)  # the embedded server runs as another OS user when we are root
    return path


@pytest.fixture
def tmp_path():
    path = own_tmp()
    yield path
    shutil.rmtree(path, ignore_errors=True)
