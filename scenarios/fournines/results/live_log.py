"""live.jsonl: what the runner shows while a run plays, kept in the results folder for the dashboard's
live view to tail (analysis/docs/results-folder.md). One JSON object a line, flushed as written:

    {"type": "start", "runner_pid": 4242, "scenario": "q5", "expected_s": 25.0, "at": 1767225600.0}
    {"type": "progress", "member": "member-1", "at": ..., "elapsed_s": 1.0, "phase": "warmup", ...}
    {"type": "fault", "at": ..., "text": "kill member-2 at t=10.0 s"}
    {"type": "end", "at": ..., "status": "completed", "failure": null}

A folder with live.jsonl and no run.json is a run in progress, or one whose runner was killed before
it could write run.json: the runner's pid tells which."""
import dataclasses
import json
import os
import time
from pathlib import Path

from fournines.members.progress import Progress

LIVE_LOG = "live.jsonl"


class LiveLog:
    def __init__(self, run_dir: Path, scenario: dict):
        self._file = open(run_dir / LIVE_LOG, "a", encoding="utf-8")
        self._write({"type": "start", "runner_pid": os.getpid(), "scenario": scenario["name"],
                     "expected_s": scenario["warmup_s"] + scenario["duration_s"]})

    def progress(self, member: str, progress: Progress) -> None:
        self._write({"type": "progress", "member": member, **dataclasses.asdict(progress)})

    def fault(self, text: str) -> None:
        self._write({"type": "fault", "text": text})

    def end(self, status: str, failure: str | None) -> None:
        self._write({"type": "end", "status": status, "failure": failure})
        self._file.close()

    def _write(self, record: dict) -> None:
        self._file.write(json.dumps({**record, "at": round(time.time(), 3)}) + "\n")
        self._file.flush()  # the dashboard reads it while the run plays
