"""SIGINT and SIGTERM while a run plays: recorded, not raised, so the runner stops its children in
order from its own loop instead of being torn out of whatever line it was on."""
import signal


class SignalCatcher:
    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self):
        self.received: list[int] = []
        self._previous = {}

    def __enter__(self):
        for sig in self.SIGNALS:
            self._previous[sig] = signal.signal(sig, self._record)
        return self

    def __exit__(self, *exc):
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)

    def _record(self, signum, frame):
        self.received.append(signum)

    @property
    def first(self) -> int | None:
        return self.received[0] if self.received else None

    def repeated(self) -> bool:
        """A second signal: the user is in a hurry, so stop waiting for a graceful exit."""
        return len(self.received) > 1
