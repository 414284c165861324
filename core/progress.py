"""Progress for management commands: a rich progress bar with rate and ETA on a terminal,
nothing when output is not a terminal (a log, a pipe, CI) or with --quiet."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskProgressColumn, TextColumn, TimeRemainingColumn


class _Silent:
    def advance(self, amount: int = 1) -> None:
        return None


class _Bar:
    def __init__(self, progress: Progress, task: Any) -> None:
        self._progress, self._task = progress, task

    def advance(self, amount: int = 1) -> None:
        self._progress.advance(self._task, amount)


@contextmanager
def progress(description: str, total: int, *, quiet: bool = False, stream: Any = None) -> Iterator[_Bar | _Silent]:
    stream = stream or sys.stderr
    if quiet or not getattr(stream, "isatty", lambda: False)():
        yield _Silent()
        return
    from rich.console import Console

    columns = [
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        TextColumn("[progress.data.speed]{task.fields[rate]}"),
        TimeRemainingColumn(),
    ]
    with Progress(*columns, console=Console(file=stream), transient=False) as bar:
        task = bar.add_task(description, total=total, rate="")
        wrapper = _Bar(bar, task)

        def advance(amount: int = 1) -> None:
            bar.advance(task, amount)
            speed = bar.tasks[0].speed
            bar.update(task, rate=f"{speed:,.1f}/s" if speed else "")

        wrapper.advance = advance  # type: ignore[method-assign]
        yield wrapper
