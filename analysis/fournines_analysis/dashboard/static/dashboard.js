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

  // GC cycles as purple spans, GC pauses as red lines, faults as dotted lines labelled with what fired: the static plots' marks.
  function marks() {
    const o = data.over_time, line = (t, color, dash) => ({ type: "line", xref: "x", yref: "paper", x0: t, x1: t, y0: 0, y1: 1,
                                                             line: { color, dash, width: 1.5 } });
    return [
      ...o.gc_cycles.map(c => ({ type: "rect", xref: "x", yref: "paper", x0: c.start, x1: c.end, y0: 0, y1: 1,
                                 fillcolor: "purple", opacity: 0.12, line: { width: 0 } })),
      ...o.gc_pauses.map(p => line(p.t, "#e53935", "solid")),
      ...o.faults.map(f => ({ ...line(f.t, "#b71c1c", "dot"), label: { text: f.label, textposition: "end" } })),
    ];
  }

  function overTime() {
    data.over_time.latency.forEach((series, i) => {
      Plotly.newPlot(`latency-${i}`, [
        { x: series.t, y: series.max, name: "max per interval", mode: "lines+markers" },
        { x: series.t, y: series.p99, name: "p99 per interval", mode: "lines+markers" },
      ], { title: { text: `${series.name} per interval (warm-up shaded)` },
           xaxis: { title: { text: "time since start (s)" } }, yaxis: latencyAxis(),
           shapes: [...warmup(Math.min(0, ...series.t.filter(t => t !== null))), ...marks()] }, config);
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
      shapes: [...warmup(0), ...marks()],
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

  // The job graph as SVG: a vertex's column is its longest path from a source, so edges run left to
  // right; each box says its instances, items in and out per second, and the engine's samples of it
  // (busy share as the fill, red when busy; backpressured share and input queue fill as text).
  function jobGraph(target, graph, figures) {
    const ns = "http://www.w3.org/2000/svg", W = 200, H = 92, GX = 70, GY = 24;
    const column = {}, byName = Object.fromEntries((figures || []).map(f => [f.name, f]));
    graph.vertices.forEach(v => { column[v.name] = 0; });
    for (let pass = 0; pass < graph.vertices.length; pass++) {
      graph.edges.forEach(e => { column[e.target] = Math.max(column[e.target], column[e.source] + 1); });
    }
    const rows = {}, at = {};
    graph.vertices.forEach(v => {
      const c = column[v.name], r = rows[c] = (rows[c] || 0) + 1;
      at[v.name] = { x: 10 + c * (W + GX), y: 10 + (r - 1) * (H + GY) };
    });
    const width = 20 + (Math.max(...Object.values(column)) + 1) * (W + GX) - GX;
    const height = 20 + Math.max(...Object.values(rows)) * (H + GY) - GY;
    const el = (name, attrs, text) => {
      const node = document.createElementNS(ns, name);
      Object.entries(attrs).forEach(([k, v]) => node.setAttribute(k, v));
      if (text !== undefined) node.textContent = text;
      return node;
    };
    const svg = el("svg", { width, height, viewBox: `0 0 ${width} ${height}`, class: "job-graph" });
    svg.appendChild(el("defs", {})).appendChild(el("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 10, refY: 5,
      markerWidth: 8, markerHeight: 8, orient: "auto" })).appendChild(el("path", { d: "M0,0 L10,5 L0,10 z", fill: "#555" }));
    graph.edges.forEach(e => {
      const a = at[e.source], b = at[e.target], x1 = a.x + W, y1 = a.y + H / 2, x2 = b.x, y2 = b.y + H / 2, mx = (x1 + x2) / 2;
      svg.appendChild(el("path", { d: `M${x1},${y1} C${mx},${y1} ${mx},${y2} ${x2},${y2}`, fill: "none",
        stroke: "#555", "stroke-width": e.distributed ? 2.5 : 1.2, "stroke-dasharray": e.distributed ? "6 3" : "",
        "marker-end": "url(#arrow)", class: "edge" })).appendChild(el("title", {}, `${e.source} → ${e.target}: ${e.routing}${e.distributed ? ", across members" : ""}`));
    });
    const pct = v => (v === null || v === undefined) ? "–" : `${(v * 100).toFixed(0)} %`;
    const rate = v => v === undefined ? "–" : Math.round(v).toLocaleString();
    graph.vertices.forEach(v => {
      const p = at[v.name], f = byName[v.name], busy = f && f.busy !== null ? f.busy : null;
      // White when idle to red when always busy, as a share of samples.
      const fill = busy === null ? "#f4f4f4" : `hsl(0, ${Math.round(20 + 70 * busy)}%, ${Math.round(96 - 46 * busy)}%)`;
      const box = svg.appendChild(el("g", { class: "vertex", "data-name": v.name }));
      box.appendChild(el("rect", { x: p.x, y: p.y, width: W, height: H, rx: 6, fill, stroke: "#333" }));
      [[`${v.name} ×${v.parallelism * graph.members}`, "bold"],
       [`in ${rate(f && f.items_in_per_s)}/s · out ${rate(f && f.items_out_per_s)}/s`],
       [`busy ${pct(f && f.busy)} · backpressured ${pct(f && f.backpressured)}`],
       [`input queues ${pct(f && f.queue_fill)} full`]].forEach(([text, weight], i) => {
        box.appendChild(el("text", { x: p.x + 8, y: p.y + 20 + i * 20, "font-weight": weight || "normal", "font-size": 12 }, text));
      });
    });
    target.replaceChildren(svg);
  }

  // The live view: each record of the run's live.jsonl as the server streams it; charts redrawn at
  // most once a second, as the runner writes.
  function live() {
    const members = {}, status = document.getElementById("live-status"), faults = document.getElementById("live-faults");
    let dirty = false, revision = 0, latest = null, graph = null, figures = null;
    const snapshots = { start: [], saving: [], duration: [], id: [], bytes: [] };
    const faultTimes = [];  // on the charts' elapsed axis
    const us = v => (v === null || v === undefined) ? "–" : `${Math.round(v).toLocaleString()} µs`;
    function progress(r) {
      const m = members[r.member] || (members[r.member] = { t: [], p99: [], p9999: [], target: [], achieved: [], behind: [] });
      m.t.push(r.elapsed_s); m.p99.push(r.p99_us); m.p9999.push(r.p9999_us);
      m.target.push(r.target_rate); m.achieved.push(r.achieved_rate); m.behind.push(r.behind_ms);
      m.latest = latest = r;
      dirty = true;
    }
    function fault(r) {
      const none = faults.querySelector(".none");
      if (none) none.remove();
      const item = document.createElement("li");
      item.textContent = `${new Date(r.at * 1000).toISOString().slice(11, 19)} UTC: ${r.text}`;
      faults.appendChild(item);
      // A fault is stamped with the wall clock; the last progress line ties that to the run's elapsed time.
      if (latest) { faultTimes.push(r.at - (latest.at - latest.elapsed_s)); dirty = true; }
    }
    function table() {
      const body = document.querySelector("#live-members tbody");
      body.replaceChildren(...Object.entries(members).map(([name, m]) => {
        const r = m.latest, row = document.createElement("tr");
        [name, `${r.elapsed_s.toFixed(1)} s`, r.phase,
         `${Math.round(r.achieved_rate).toLocaleString()} / ${Math.round(r.target_rate).toLocaleString()}`,
         us(r.p99_us), us(r.p9999_us), `${r.behind_ms.toFixed(1)} ms`].forEach(text => {
          const cell = document.createElement("td"); cell.textContent = text; row.appendChild(cell);
        });
        return row;
      }));
    }
    function charts() {
      const each = (f) => Object.entries(members).flatMap(([name, m]) => f(name, m));
      // The arrays grow in place: a new datarevision is what tells Plotly.react to draw them again.
      const time = { title: { text: "elapsed (s)" } }, datarevision = ++revision;
      const shapes = faultTimes.map(t => ({ type: "line", xref: "x", yref: "paper", x0: t, x1: t, y0: 0, y1: 1,
                                            line: { color: "#c62828", dash: "dot", width: 2 } }));
      Plotly.react("live-latency", each((name, m) => [
        { x: m.t, y: m.p99, name: `${name} p99`, mode: "lines+markers" },
        { x: m.t, y: m.p9999, name: `${name} p99.99`, mode: "lines+markers" }]),
        { title: { text: "latency of each interval" }, xaxis: time, yaxis: latencyAxis(), shapes, datarevision }, config);
      Plotly.react("live-rate", each((name, m) => [
        { x: m.t, y: m.target, name: `${name} target`, mode: "lines", line: { dash: "dash" } },
        { x: m.t, y: m.achieved, name: `${name} achieved`, mode: "lines+markers" }]),
        { title: { text: "target and achieved rate" }, xaxis: time, yaxis: { title: { text: "events/s" }, rangemode: "tozero" },
          shapes, datarevision }, config);
      Plotly.react("live-lag", each((name, m) => [{ x: m.t, y: m.behind, name, mode: "lines+markers" }]),
        { title: { text: "schedule lag: how far the source is behind its schedule" }, xaxis: time,
          yaxis: { title: { text: "behind (ms)" }, rangemode: "tozero" }, shapes, datarevision }, config);
      if (snapshots.id.length) {
        document.getElementById("live-snapshots").hidden = false;
        const text = snapshots.id.map((i, k) => `snapshot ${i}, ${snapshots.bytes[k].toLocaleString()} bytes`);
        Plotly.react("live-snapshots", [
          { type: "bar", x: snapshots.start, y: snapshots.duration, text, name: "start to commit", opacity: 0.45, marker: { color: "#1f77b4" } },
          { type: "bar", x: snapshots.start, y: snapshots.saving, text, name: "start to saved (synchronous)", marker: { color: "#1f77b4" } }],
          { title: { text: "snapshots: each at its start, how long until saved and committed" }, barmode: "overlay",
            xaxis: time, yaxis: { title: { text: "ms" }, rangemode: "tozero" }, shapes, datarevision }, config);
      }
    }
    setInterval(() => {
      if (dirty) { dirty = false; table(); charts(); if (graph) jobGraph(document.getElementById("live-graph"), graph, figures); }
    }, 1000);
    const source = new EventSource(data.events);
    source.addEventListener("open", () => { status.textContent = "playing: updated every second"; status.className = "live-status playing"; });
    source.addEventListener("record", e => {
      const r = JSON.parse(e.data);
      if (r.type === "progress") progress(r);
      else if (r.type === "fault") fault(r);
      else if (r.type === "end") status.textContent = `play ended (${r.status}${r.failure ? ": " + r.failure : ""}); writing the results…`;
    });
    source.addEventListener("graph", e => { graph = JSON.parse(e.data); dirty = true; });
    source.addEventListener("vertices", e => { figures = JSON.parse(e.data).vertices; dirty = true; });
    source.addEventListener("snapshots", e => {
      JSON.parse(e.data).snapshots.forEach(s => {
        snapshots.id.push(s.id); snapshots.start.push(s.started_s); snapshots.bytes.push(s.bytes);
        snapshots.saving.push((s.saved_s - s.started_s) * 1e3); snapshots.duration.push((s.committed_s - s.started_s) * 1e3);
      });
      dirty = true;
    });
    source.addEventListener("state", e => {
      source.close();
      const s = JSON.parse(e.data);
      document.getElementById("stop-form").hidden = true;
      status.className = `live-status ${s.state}`;
      if (s.state === "ended") {
        status.innerHTML = "";
        status.append(`The run ended: ${s.status || "see its report"}. `);
        const link = document.createElement("a"); link.href = data.run; link.textContent = "Its report";
        status.append(link);
      } else {
        status.textContent = s.state === "lost" ? `The run was lost: ${s.message}.` : `The live log cannot be read: ${s.message}`;
      }
    });
    source.addEventListener("error", () => {
      if (source.readyState === EventSource.CLOSED) { status.textContent = "The dashboard is gone: the view no longer updates."; status.className = "live-status lost"; }
    });
  }

  // Trends: the metric picked, run after run, with a dotted line at each change point Otava found.
  function trends() {
    const select = document.getElementById("metric");
    function draw() {
      const metric = select.value, series = data.series[metric];
      const changes = data.changes.filter(c => c.metric === metric);
      Plotly.react("trend", [{ x: data.runs, y: series.values, name: metric, mode: "lines+markers" }], {
        title: { text: `${metric} (${series.unit}) per run` }, xaxis: { type: "category", automargin: true },
        yaxis: { title: { text: series.unit } },
        shapes: changes.map(c => ({ type: "line", xref: "x", yref: "paper", x0: c.run, x1: c.run, y0: 0, y1: 1,
                                    line: { color: c.worse ? "#c62828" : "#2e7d32", dash: "dot", width: 2 } })),
        annotations: changes.map(c => ({ x: c.run, yref: "paper", y: 1, showarrow: false, yanchor: "bottom",
                                         text: `${(c.relative * 100).toFixed(1)}% ${c.worse ? "worse" : "better"}` })),
      }, config);
    }
    select.addEventListener("change", draw);
    draw();
  }

  if (data.page === "runs") runsFilter();
  if (data.page === "live") live();
  if (data.page === "trends") trends();
  if (data.page === "run" || data.page === "compare") spectrum();
  if (data.page === "run") overTime();
})();
