"""The one error bad input raises: it names the file, and the line and field when there is one, so a
broken results folder is fixed at its source instead of being skipped and mis-measured."""
from pathlib import Path


class BadInput(ValueError):
    def __init__(self, path: Path | str, problem: str, line: int | None = None, field: str | None = None):
        self.path, self.line, self.field, self.problem = Path(path), line, field, problem
        where = f"{path}:{line}" if line is not None else f"{path}"
        what = f" field {field!r}:" if field else ""
        super().__init__(f"{where}:{what} {problem}")
