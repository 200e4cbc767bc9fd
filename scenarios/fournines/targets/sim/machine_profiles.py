"""Machines other than the calibration host: how many cores run workers, the network's speed, and
the factor by which their cores' CPU costs differ from the calibration host's. Each factor is stated
with why; run.json and the report carry the profile used."""
import os
from dataclasses import dataclass, replace

from fournines.targets.sim.calibration import Parameter

CPU_COSTS = ("source_ns_per_event", "partial_ns_per_key", "key_slide_ns", "result_ns", "scheduler_task_us",
             "batch_coordination_us")


@dataclass(frozen=True)
class MachineProfile:
    name: str
    cores: int | None  # worker threads per machine; None: the scenario's cluster.threads
    network_gbit_s: float | None  # None: the calibration's network_ns_per_byte
    cpu_factor: float  # CPU costs on this machine / on the calibration host
    why: str
    gc_cycle_speed: float | None = None  # None: the calibration's; else the workers' share during a cycle here
    one_host: bool = False  # every member on one host, sharing its caches and memory bandwidth (host.py)

    def describe(self) -> str:
        cores = f"{self.cores} vCPU" if self.cores else "the scenario's threads"
        network = f"{self.network_gbit_s:g} Gbit/s" if self.network_gbit_s else "the calibration's network"
        hosts = ", every member on one host" if self.one_host else ""
        return f"{self.name}: {cores}{hosts}, {network}, CPU costs × {self.cpu_factor:g} ({self.why})"

    def scaled(self, calibration: dict[str, Parameter], workers: int = 0) -> dict[str, Parameter]:
        """The calibration as it applies to this machine, for `workers` worker threads over the cluster;
        each scaled parameter's source says so."""
        scaled = dict(calibration)
        if self.cpu_factor != 1:
            for name in CPU_COSTS:
                p = calibration[name]
                scaled[name] = replace(p, value=p.value * self.cpu_factor,
                                       source=f"{p.source}; × {self.cpu_factor:g} for {self.name}")
        if self.gc_cycle_speed is not None:
            scaled["gc_cycle_speed"] = replace(calibration["gc_cycle_speed"], value=self.gc_cycle_speed,
                                               source=f"{self.name}: ZGC's concurrent threads, 12.5 % of its cores")
        if self.one_host and workers:
            scaled["gc_cycle_speed"] = _beside_idle_vcpus(scaled["gc_cycle_speed"], workers, os.cpu_count() or 1)
        if self.network_gbit_s:
            scaled["network_ns_per_byte"] = replace(calibration["network_ns_per_byte"], value=8 / self.network_gbit_s,
                                                    source=f"{self.name}'s {self.network_gbit_s:g} Gbit/s")
        return scaled


def _beside_idle_vcpus(speed: Parameter, workers: int, vcpus: int) -> Parameter:
    """The workers' speed during a GC cycle on a host of `vcpus` that `workers` share: the cycle's
    threads take (1 − speed) of the host's vCPUs as calibrated, first from those no worker runs on
    (one worker on two vCPUs leaves one to them: it runs at full speed)."""
    taken = (1 - speed.value) * vcpus
    from_workers = max(0.0, taken - max(0, vcpus - workers))
    value = max(speed.value, 1 - from_workers / workers)
    return replace(speed, value=round(value, 3), source=f"{speed.source}; on this machine's {vcpus} vCPUs with "
                                                        f"{workers} workers, the cycle's threads first take idle ones")


PROFILES = {p.name: p for p in (
    MachineProfile("calibration-host", None, None, 1.0, "the machine the calibration was measured on"),
    MachineProfile("local", None, None, 1.0, "this machine with every member on it, as `./fournines run` places "
                   "a cluster: the members' workers share its vCPUs' caches and memory bandwidth, and a GC cycle's "
                   "threads take the vCPUs no worker runs on first", one_host=True),
    MachineProfile("c5.4xlarge", 16, 10.0, 1.0,
                   "the Jet paper's machine; per-core cost and contention when busy assumed equal to the "
                   "calibration host's (both Xeon cores near 3 GHz), not measured; a GC cycle's threads take 2 of "
                   "its 16 cores (ZGC's 12.5 %), not 1 of 2", gc_cycle_speed=14 / 16),
)}
