"""The scheduling loops the model can run on, for tests that must hold on each: ours always, SimPy's
where it is installed (the pinned venv has it)."""
import importlib.util

import pytest

from fournines.targets.sim.event_loop import HeapLoop


def _simpy_loop():
    from fournines.targets.sim.simpy_loop import SimpyLoop
    return SimpyLoop()


LOOPS = [pytest.param(HeapLoop, id="heap"),
         pytest.param(_simpy_loop, id="simpy", marks=pytest.mark.skipif(
             importlib.util.find_spec("simpy") is None, reason="simpy is not installed in this venv"))]
