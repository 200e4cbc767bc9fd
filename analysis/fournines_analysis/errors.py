"""The one error bad input raises: it names the file, and the line and field when there is one, so a
broken results folder is fixed at its source instead of being skipped and mis-measured."""
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
