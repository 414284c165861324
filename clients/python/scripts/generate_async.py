"""Write mnemo_client/_async_operations.py from mnemo_client/_operations.py.

The async client's operations are the sync ones with ``async def`` and ``await self._send(...)``:
one source for both, so their signatures, bodies and retry rules cannot differ. Run after
editing _operations.py; tests/clients/test_spec_drift.py fails while the generated file is stale.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "mnemo_client"
SOURCE = PACKAGE / "_operations.py"
TARGET = PACKAGE / "_async_operations.py"
CLASS = "class SyncOperations:"

BANNER = '''"""GENERATED from _operations.py by clients/python/scripts/generate_async.py: do not edit.

The async twin of every operation (see _operations.py for the retry rules).
"""
'''


def generate(source: str) -> str:
    head, sep, body = source.partition(CLASS)
    if not sep:
        raise SystemExit(f"{SOURCE} has no {CLASS!r}")
    # The module docstring is replaced by the banner; imports and helpers are kept as they are.
    head = re.sub(r'\A""".*?"""\n', BANNER, head, count=1, flags=re.S)
    body = re.sub(r"^    def ", "    async def ", body, flags=re.M)
    body = body.replace("self._send(", "await self._send(")
    body = body.replace("async def _send(self, call: Call[T]) -> T:", "async def _send(self, call: Call[T]) -> T:")
    body = body.replace("The API's operations;", "The API's operations (async);")
    return head + "class AsyncOperations:" + body


def main() -> int:
    text = generate(SOURCE.read_text())
    if "--check" in sys.argv:
        current = TARGET.read_text() if TARGET.exists() else ""
        if current != text:
            print(f"{TARGET} is stale: run python {Path(__file__).as_posix()}", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
