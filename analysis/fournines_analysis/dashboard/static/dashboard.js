// The dashboard's interactive plots and the runs filter. Data comes from the page itself
// (#chart-data, written by the analysis package); Plotly is served by the dashboard, never a CDN.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("chart-data").textContent);
  const config = { responsive: true, displaylogo: false };

  // Latency axes are logarithmic, as in the static plots: a pause is orders of magnitude above the usual.
  function latencyAxis() { return { title: { text: "latency (µs)" }, type: "log" }; }

  function spectrum() {
    const traces = data.spectra.map(c => ({ x: c.x, y: c.y, name: `${c.name} (n=${c.count.toLocaleString()})`,
                                             mode: "lines", line: { shape: "hv" } }));
    Plotly.newPlot("spectrum", traces, {
      title: { text: "latency by percentile, after warm-up" },
      xaxis: { title: { text: "percentile" }, tickvals: data.axis.ticks, ticktext: data.axis.labels },
      yaxis: latencyAxis(), legend: { x: 0, y: 1 },
    }, config);
  }

  // The warm-up as a grey band from the first interval to its end: left out of every figure.
  function warmup(start) {
    const end = data.over_time.warmup_s;
    return end > start ? [{ type: "rect", xref: "x", yref: "paper", x0: start, x1: end, y0: 0, y1: 1,
                            fillcolor: "grey", opacity: 0.2, line: { width: 0 }, name: "warm-up (excluded)" }] : [];
  }

  function overTime() {
    data.over_time.latency.forEach((series, i) => {
      Plotly.newPlot(`latency-${i}`, [
        { x: series.t, y: series.max, name: "max per interval", mode: "lines+markers" },
        { x: series.t, y: series.p99, name: "p99 per interval", mode: "lines+markers" },
      ], { title: { text: `${series.name} per interval (warm-up shaded)` },
           xaxis: { title: { text: "time since start (s)" } }, yaxis: latencyAxis(),
           shapes: warmup(Math.min(0, ...series.t.filter(t => t !== null))) }, config);
    });
    const throughput = data.over_time.throughput, cores = data.over_time.cores;
    const target = document.getElementById("throughput");
    if (!throughput) { target.textContent = "No throughput.csv in this results folder."; target.className = ""; return; }
    const traces = [{ x: throughput.t, y: throughput.events_per_s, name: "events/s", mode: "lines+markers" }];
    if (cores) traces.push({ x: cores.t, y: cores.busy, name: "cores busy", yaxis: "y2", mode: "lines+markers" });
    Plotly.newPlot("throughput", traces, {
      title: { text: "throughput (warm-up shaded)" }, xaxis: { title: { text: "time since start (s)" } },
      yaxis: { title: { text: "events/s" }, rangemode: "tozero" },
      yaxis2: { title: { text: "cores busy" }, overlaying: "y", side: "right", rangemode: "tozero" },
      shapes: warmup(0),
    }, config);
  }

  function runsFilter() {
    const filter = document.getElementById("filter");
    filter.addEventListener("input", () => {
      const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
      document.querySelectorAll("#runs tbody tr").forEach(row => {
        const text = row.dataset.search.toLowerCase();
        row.hidden = !words.every(w => text.includes(w));
      });
    });
  }

  if (data.page === "runs") runsFilter();
  if (data.page === "run" || data.page === "compare") spectrum();
  if (data.page === "run") overTime();
})();
