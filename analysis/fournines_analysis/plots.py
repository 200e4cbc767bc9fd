"""The three pictures a latency engineer reads first, as matplotlib Figures (no pyplot, so no global
state and no display needed; PNGs are rendered by Agg).

- nines: latency against percentile on a 'nines' axis (nines.py);
- latency over time: each interval's p99 and max, the warm-up shaded (it is left out of the summary),
  the members' concurrent GC cycles shaded and their longer pauses marked;
- throughput over time, and cores busy when cpu.csv is there;
- a trend: one metric per panel over a series of runs, each change point marked and the mean of
  every stretch between changes drawn across it.
"""
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import FixedLocator, FuncFormatter

from fournines_analysis.errors import CannotWrite
from fournines_analysis.gc_log import GcEvent
from fournines_analysis.histograms import Layout
from fournines_analysis.hlog import LatencyLog
from fournines_analysis.nines import nines_curve, nines_label
from fournines_analysis.timeseries import per_sample_rate


def nines_figure(curves: list[tuple[str, np.ndarray, Layout]], title: str,
                 marks: list[tuple[str, float, float]] = ()) -> Figure:
    """One line per (label, pooled counts, layout), each ending where nines_curve ends it. A
    series without a value is named in the legend, not drawn. `marks`: (label, percentile, µs)
    values stated elsewhere (a paper's), drawn as black crosses."""
    fig = Figure(figsize=(9, 5.5), layout="constrained")
    ax = fig.add_subplot()
    right = 1
    for label, counts, layout in curves:
        x, y = nines_curve(counts, layout)
        if not len(x):
            ax.plot([], [], label=f"{label} (n=0: nothing recorded)")
            continue
        ax.plot(x, y, drawstyle="steps-post", label=f"{label} (n={counts.sum():,.0f})")
        right = max(right, int(np.ceil(x[-1])))
    for label, percentile, value in marks:
        at = -np.log10(1 - percentile / 100)
        ax.plot(at, value, "x", color="black", markersize=9)
        ax.annotate(label, (at, value), textcoords="offset points", xytext=(4, 4), fontsize=8)
        right = max(right, int(np.ceil(at)))
    ticks = range(right + 1)
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: nines_label(x)))
    ax.set_xlim(0, right)
    log_scale_if_drawn(ax)
    ax.set_xlabel("percentile")
    ax.set_ylabel("latency (µs)")
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="upper left")
    return fig


# A GC pause this long or longer is drawn on the latency plot; shorter ones would hide the line.
DRAWN_PAUSE_S = 0.001


def latency_over_time_figure(log: LatencyLog, warmup_s: float, title: str, gc: Sequence[GcEvent] = ()) -> Figure:
    """p99 and max per interval; `gc`: the members' GC cycles, shaded, and pauses of 1 ms or more, as lines."""
    fig = Figure(figsize=(9, 4.5), layout="constrained")
    ax = fig.add_subplot()
    middle = log.start_s + log.length_s / 2
    ax.plot(middle, log.per_interval(100), marker=".", label="max per interval")
    ax.plot(middle, log.per_interval(99), marker=".", label="p99 per interval")
    _shade_warmup(ax, min(0.0, log.start_s.min()), warmup_s)
    for i, cycle in enumerate(e for e in gc if not e.pause):
        ax.axvspan(cycle.start_s, cycle.end_s, color="tab:purple", alpha=0.2,
                   label="concurrent GC cycle" if i == 0 else None)
    for i, pause in enumerate(e for e in gc if e.pause and e.length_s >= DRAWN_PAUSE_S):
        ax.axvline(pause.start_s, color="tab:red", linestyle=":", label="GC pause ≥ 1 ms" if i == 0 else None)
    log_scale_if_drawn(ax)
    ax.set_xlabel("time since start (s)")
    ax.set_ylabel("latency (µs)")
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="upper right")
    return fig


def throughput_figure(throughput, cpu, warmup_s: float, title: str) -> Figure:
    """Events/s per sample; below it, cores busy per sample (cpu seconds / wall seconds) if recorded."""
    panels = 1 if cpu is None else 2
    fig = Figure(figsize=(9, 3 + 2 * panels), layout="constrained")
    axes = fig.subplots(panels, 1, sharex=True, squeeze=False)[:, 0]
    axes[0].plot(throughput["time_s"], throughput["events_per_s"], marker=".")
    axes[0].set_ylabel("events/s")
    axes[0].set_title(title)
    if cpu is not None:
        axes[1].plot(cpu["time_s"], per_sample_rate(cpu, "cpu_seconds"), marker=".", color="tab:green")
        axes[1].set_ylabel("cores busy")
    for ax in axes:
        _shade_warmup(ax, 0.0, warmup_s)
        ax.set_ylim(bottom=0)
        ax.grid(True, alpha=0.3)
        if warmup_s > 0:
            ax.legend(loc="lower right")
    axes[-1].set_xlabel("time since start (s)")
    return fig


def log_scale_if_drawn(ax) -> None:
    """A log latency axis, unless nothing was drawn on it (a run that recorded nothing), which
    matplotlib cannot scale."""
    if any(np.isfinite(line.get_ydata()).any() for line in ax.get_lines()):
        ax.set_yscale("log")


def save(fig: Figure, path: Path) -> Path:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=110)
    except OSError as e:
        raise CannotWrite(path, e) from e
    return path


def _shade_warmup(ax, start: float, warmup_s: float):
    if warmup_s > start:
        ax.axvspan(start, warmup_s, color="grey", alpha=0.2, label="warm-up (excluded)")


def trend_figure(trend) -> Figure:
    """`trend`: a trend.Trend."""
    table, changes = trend.table, trend.changes
    names = list(table.columns)
    fig = Figure(figsize=(9, 2.2 * len(names) + 0.6), layout="constrained")
    axes = fig.subplots(len(names), 1, sharex=True, squeeze=False)[:, 0]
    x = np.arange(1, len(table) + 1)
    for ax, name in zip(axes, names):
        values = table[name].to_numpy()
        ax.plot(x, values, marker=".", linestyle="none")
        starts = [0, *sorted(c.index for c in changes if c.metric == name), len(values)]
        for start, end in zip(starts, starts[1:]):
            ax.hlines(values[start:end].mean(), x[start] - 0.5, x[end - 1] + 0.5, colors="tab:gray")
        for c in (c for c in changes if c.metric == name):
            ax.axvline(c.index + 0.5, color="tab:red" if c.worse else "tab:green", linestyle="--",
                       label=f"{c.relative:+.1%} at run {c.index + 1}")
        ax.set_ylabel(f"{name} ({trend.columns[name].unit})", fontsize=8)
        ax.grid(True, alpha=0.3)
        if any(c.metric == name for c in changes):
            ax.legend(loc="best", fontsize=8)
    axes[-1].set_xlabel("run (in time order)")
    fig.suptitle(f"{len(table)} runs, {table.index[0]} … {table.index[-1]}; change points by Apache Otava")
    return fig
