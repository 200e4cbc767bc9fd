"""The one error bad input raises: it names the file, and the line and field when there is one, so a
broken results folder is fixed at its source instead of being skipped and mis-measured; and the one a
file that cannot be written raises, naming it (a full disk must not leave a run looking complete)."""
from pathlib import Path


class BadInput(ValueError):
    def __init__(self, path: Path | str, problem: str, line: int | None = None, field: str | None = None):
        self.path, self.line, self.field, self.problem = Path(path), line, field, problem
        where = f"{path}:{line}" if line is not None else f"{path}"
        what = f" field {field!r}:" if field else ""
        super().__init__(f"{where}:{what} {problem}")


def read_text(path: Path) -> str:
    """A results file as UTF-8 text, or BadInput saying why it cannot be read."""
    try:
        return Path(path).read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise BadInput(path, "missing") from None
    except UnicodeDecodeError as e:
        line = e.object[:e.start].count(b"\n") + 1
        raise BadInput(path, f"not UTF-8 text (byte {e.start})", line) from None


class CannotWrite(Exception):
    def __init__(self, path: Path | str, error: OSError):
        self.path = Path(path)
        super().__init__(f"{path}: cannot write: {error.strerror or error}")


def write_text(path: Path, text: str) -> Path:
    """Writes `text` as UTF-8, or raises CannotWrite naming the file (Python's own write errors do not)."""
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as e:
        raise CannotWrite(path, e) from e
    return Path(path)
