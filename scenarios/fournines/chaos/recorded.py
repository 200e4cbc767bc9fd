"""The results a trial's members recorded (nexmark/fournines/README.md, "A checked run"): the files in
every `recorded/` folder under the trial's folder, at whatever depth the member put it (member-i/,
its job's folder, a joined-n/ folder after it was taken back in). Under exactly-once only the
published `*.committed` files count: a `*.pending` file holds results of a snapshot not committed
(yet), which a reader downstream would never see. Under at-least-once each sink appends to a `*.jsonl`."""
from pathlib import Path

FOLDER = "recorded"
OUTPUT = {"exactly-once": "*.committed", "at-least-once": "*.jsonl"}


def recorded_files(run_dir: Path, guarantee: str) -> list[Path]:
    return sorted(f for folder in run_dir.rglob(FOLDER) if folder.is_dir()
                  for f in folder.glob(OUTPUT[guarantee]) if f.is_file())


def recorded_lines(files: list[Path]) -> list[str]:
    return [line for f in files for line in f.read_text(encoding="utf-8").splitlines() if line.strip()]
