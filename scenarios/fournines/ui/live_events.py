"""The live view's server-sent events: the run's live.jsonl tailed, each record as an event `record`
as soon as the runner writes it; the job graph as an event `graph` once a member has written it, and
the vertices' latest second as an event `vertices` whenever a member wrote one, and the snapshots
first committed since the last look as an event `snapshots` (dashboard/live_member_files.py);
then one event `state` when the run is over (a folder just made has no live.jsonl
yet: it is waited for): `ended` once run.json is
there (with its status), `lost` if the runner is gone without writing it (killed, or its machine
rebooted). A member that vanishes is the runner's to report; a reader that leaves ends the stream."""
import asyncio
import json
import time

import tornado.iostream
import tornado.web

from fournines.ui.login import Guarded
from fournines_analysis.dashboard.live_records import LIVE_LOG, read_records, start_record
from fournines_analysis.dashboard.live_member_files import LiveMemberFiles
from fournines_analysis.dashboard.run_index import UnknownRun, run_folder
from fournines_analysis.errors import BadInput

POLL_S = 0.25  # the runner writes once a second per member; a quarter keeps the view within that
STARTING_S = 120.0  # from its results folder to its live.jsonl the runner starts a Kafka broker, perhaps


class LiveEventsHandler(Guarded):
    def initialize(self, results_root, launches):
        self.results_root, self.launches = results_root, launches

    async def get(self, run_id):
        try:
            folder = run_folder(self.results_root, run_id)
        except UnknownRun as e:
            raise tornado.web.HTTPError(404, str(e)) from None
        self.set_header("Content-Type", "text/event-stream")
        self.set_header("Cache-Control", "no-cache")
        offset, pid, since = 0, None, time.monotonic()
        member_files = LiveMemberFiles(folder)
        try:
            while True:
                if pid is None and (folder / LIVE_LOG).is_file():
                    pid = start_record(folder)["runner_pid"]
                # The state first, the records after: a run that ends between the two still has its last records sent.
                over = self._state(folder, pid, time.monotonic() - since)
                if pid is not None:
                    records, offset = read_records(folder, offset)
                    for record in records:
                        self._event("record", record)
                    if (graph := member_files.new_graph()) is not None:
                        self._event("graph", graph)
                    if (figures := member_files.new_figures()) is not None:
                        self._event("vertices", {"vertices": figures})
                    if (snapshots := member_files.new_snapshots()) is not None:
                        self._event("snapshots", {"snapshots": snapshots})
                if over:
                    self._event("state", over)
                    await self.flush()
                    return
                await self.flush()
                await asyncio.sleep(POLL_S)
        except tornado.iostream.StreamClosedError:
            return  # the reader left
        except BadInput as e:
            self._event("state", {"state": "unreadable", "message": str(e)})
            await self.flush()

    def _state(self, folder, pid, waited_s: float) -> dict | None:
        if (folder / "run.json").exists():
            try:
                status = json.loads((folder / "run.json").read_text()).get("status")
            except ValueError:
                status = None  # being written: the report says
            return {"state": "ended", "status": status}
        if pid is None:
            if waited_s < STARTING_S:
                return None  # the runner made the folder and is starting the members
            return {"state": "lost", "message": f"no {LIVE_LOG} after {STARTING_S:g} s: the runner did not start the run"}
        if not self.launches.running(pid):
            return {"state": "lost", "message": "the runner is gone without writing run.json: killed, or its machine stopped"}
        return None

    def _event(self, name: str, data: dict) -> None:
        self.write(f"event: {name}\ndata: {json.dumps(data)}\n\n")
