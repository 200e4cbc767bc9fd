"""live.jsonl read as the runner writes it (analysis/docs/results-folder.md): whole lines only, from
where the last read stopped, so a line half-written when read is read whole next time."""
import json
from pathlib import Path

from fournines_analysis.errors import BadInput

LIVE_LOG = "live.jsonl"


def is_live(folder: Path) -> bool:
    """A run in progress, or one whose runner died before writing run.json."""
    return (folder / LIVE_LOG).is_file() and not (folder / "run.json").exists()


def read_records(folder: Path, offset: int = 0) -> tuple[list[dict], int]:
    """The records after byte `offset`, and the offset after the last whole line."""
    path = folder / LIVE_LOG
    try:
        with open(path, "rb") as f:
            f.seek(offset)
            chunk = f.read()
    except OSError as e:
        raise BadInput(path, f"cannot be read: {e.strerror or e}") from None
    whole = chunk[:chunk.rfind(b"\n") + 1]
    records = []
    for n, line in enumerate(whole.splitlines(), 1):
        try:
            record = json.loads(line)
        except ValueError as e:
            raise BadInput(path, f"line {n} after byte {offset} is not JSON: {e}") from None
        if not isinstance(record, dict) or "type" not in record:
            raise BadInput(path, f"line {n} after byte {offset}: expected an object with a field 'type'")
        records.append(record)
    return records, offset + len(whole)


def start_record(folder: Path) -> dict:
    """The first record: the runner's pid, the scenario and the expected length."""
    records, _ = read_records(folder)
    if not records or records[0]["type"] != "start":
        raise BadInput(folder / LIVE_LOG, "the first line must be the runner's start record")
    return records[0]
