"""Progress of long commands (a run's episodes, a re-judge, writing a report) on a stream.

On a terminal one line is redrawn in place (carriage return, then "erase to the end of
the line"). Off a terminal (CI logs, ``2>&1 | tee run.log``) carriage returns would make
one line of megabytes, so plain lines are written instead, at most one per
`ProgressLine.every` seconds and one per tenth of the work, plus the last: a log of a
run of hours stays a few dozen lines and still shows that the command is alive.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from mobile_gym.report_text import printable


class ProgressLine:
    """``update(done, total, detail)`` shows ``[bar] done/total detail  ETA``.

    >>> import io
    >>> log = io.StringIO()                   # not a terminal: plain lines
    >>> line = ProgressLine("episodes", log)
    >>> for n in range(1, 4):
    ...     line.update(n, 3, "success 100%")
    >>> print(log.getvalue().splitlines()[-1])
    episodes 3/3  success 100%  (0s, ETA 0s)
    """

    width = 30  # characters of the bar on a terminal
    every = 30.0  # seconds between plain lines off a terminal (a tenth of the work also makes one)

    def __init__(self, label: str, stream: TextIO | None = None):
        self.label = label  # what is counted, e.g. "episodes"; starts each plain line
        self.stream = sys.stderr if stream is None else stream  # as it is when made, not when imported
        isatty = getattr(self.stream, "isatty", None)
        self.terminal = bool(isatty is not None and isatty())
        self._start = self._last_line = time.monotonic()
        self._last_tenth = 0

    def update(self, done: int, total: int, detail: str = "") -> None:
        now = time.monotonic()
        elapsed = now - self._start
        detail = printable(detail)
        eta = elapsed / done * (total - done) if done else 0.0
        if self.terminal:
            bar = "#" * int(self.width * done / max(total, 1))
            self.stream.write(f"\r[{bar:<{self.width}}] {done}/{total}  {detail}  ETA {eta:4.0f}s \033[K")
            if done >= total:
                self.stream.write("\n")
        else:
            tenth = 10 * done // max(total, 1)
            if done < total and tenth == self._last_tenth and now - self._last_line < self.every:
                return
            self._last_tenth, self._last_line = tenth, now
            self.stream.write(f"{self.label} {done}/{total}  {detail}  ({elapsed:.0f}s, ETA {eta:.0f}s)\n")
        self.stream.flush()
