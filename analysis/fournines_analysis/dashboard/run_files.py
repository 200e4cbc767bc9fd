"""The files of a results folder the run page links to: logs (the runner's, the members', GC logs)
and profiles (a JFR recording, flame graphs), in the folder and its member and consumer folders.
Only these are served, so a link cannot be bent to reach another file."""
from pathlib import Path

LOGS = ("*.log",)
PROFILES = ("*.jfr", "*flame*.html", "*flame*.svg", "*.collapsed")


def _matching(folder: Path, patterns: tuple[str, ...]) -> list[Path]:
    found = {p for pattern in patterns for where in ("", "*/") for p in folder.glob(where + pattern) if p.is_file()}
    return sorted(found)


def run_files(folder: Path) -> dict[str, list[str]]:
    """{"logs": [...], "profiles": [...]}: paths relative to the folder, with '/'."""
    return {kind: [p.relative_to(folder).as_posix() for p in _matching(folder, patterns)]
            for kind, patterns in (("logs", LOGS), ("profiles", PROFILES))}


def served_file(folder: Path, name: str) -> Path | None:
    """The file `name` of the folder if the run page links to it, else None."""
    listed = {n for names in run_files(folder).values() for n in names}
    return folder / name if name in listed else None
