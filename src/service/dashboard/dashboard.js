// schedmate's dashboard: polls the service's read endpoints and renders
// them. Every piece of text comes from logs, repositories and requests, so
// it only ever enters the page as a text node or an attribute value
// (el()/svg() below) — never as markup.
"use strict";

const POLL_MS = 3000;
const MAX_SAMPLES = 60;  // metric samples kept for the line charts
const samples = [];      // [{t, metrics}] taken by this page, oldest first

// ---- DOM helpers: text is always a text node --------------------------------

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

function svg(tag, attrs, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

function setAttrs(node, attrs) {
  for (const [k, v] of Object.entries(attrs || {}))
    if (v !== null && v !== undefined && v !== false) node.setAttribute(k, String(v));
}

function append(node, children) {
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

function replace(id, ...children) {
  const node = document.getElementById(id);
  node.replaceChildren();
  append(node, children);
}

function table(headers, rows, attrs) {
  return el("table", attrs, el("thead", null, el("tr", null, headers.map((h) => el("th", null, h)))),
            el("tbody", null, rows));
}

function empty(text) { return el("div", {class: "empty"}, text); }
function badge(text, kind) { return el("span", {class: "badge b-" + kind}, text); }

// ---- formatting ---------------------------------------------------------------

function isNum(v) { return typeof v === "number" && isFinite(v); }

function duration(s) {
  if (!isNum(s)) return "—";
  if (s < 90) return s.toFixed(s < 10 ? 1 : 0) + " s";
  if (s < 5400) return Math.round(s / 60) + " min";
  const h = Math.floor(s / 3600), m = Math.round((s - h * 3600) / 60);
  return h + " h " + String(m).padStart(2, "0") + " min";
}

function seconds(s) { return isNum(s) ? (Math.round(s * 1000) / 1000) + " s" : "—"; }
function num(v, digits) { return isNum(v) ? Number(v.toFixed(digits)).toString() : (v === null || v === undefined ? "—" : String(v)); }
function utc(ms) { return isNum(ms) ? new Date(ms).toISOString().replace("T", " ").slice(0, 19) + "Z" : "—"; }
function basename(p) { return typeof p === "string" ? p.replace(/\/+$/, "").split("/").pop() : ""; }

// ---- fetching -----------------------------------------------------------------

function token() { return sessionStorage.getItem("schedmate-token") || ""; }

async function get(path, asText) {
  const headers = token() ? {Authorization: "Bearer " + token()} : {};
  const res = await fetch(path, {headers, cache: "no-store"});
  if (res.status === 401) document.getElementById("auth").hidden = false;
  if (!res.ok) {
    let code = String(res.status);
    try { code += " " + (await res.json()).error.code; } catch (e) { /* not JSON */ }
    throw new Error(path + ": " + code);
  }
  return asText ? res.text() : res.json();
}

// ---- jobs ---------------------------------------------------------------------

function provenanceList(md) {
  const fields = md && md.provenance && md.provenance.fields;
  if (!fields || !Object.keys(fields).length) return el("span", {class: "muted"}, "—");
  return el("ul", {class: "plain small"}, Object.entries(fields).map(([field, src]) => {
    const value = md[field];
    const where = src.line > 0 ? src.file + ":" + src.line : src.file;
    return el("li", {"data-provenance": field},
              el("span", {class: "mono"}, field), " = ", el("b", null, value === null || value === undefined ? "—" : String(value)),
              " ", el("span", {class: "muted"}, "(" + where + ")"));
  }));
}

function matchList(estimate) {
  const matches = (estimate && estimate.matches) || [];
  if (!matches.length) return el("span", {class: "muted"}, "no match");
  return el("ul", {class: "plain small"}, matches.map((m) => {
    const r = m.record;
    const what = r ? [r.model_name, r.dataset].filter(Boolean).join(" · ") : "";
    const files = r && r.provenance && r.provenance.files_read ? r.provenance.files_read.join(", ") : "";
    return el("li", {"data-match": m.id},
              el("span", {class: "mono"}, m.id), " ", badge("score " + num(m.score, 3), "info"),
              r ? [" ran ", duration(r.duration_s), " ", badge(r.end_reason || "?", r.end_reason === "completed" ? "ok" : "warn"),
                   el("div", {class: "muted"}, what, what ? " · " : "", "ended " + utc(r.completed_at_s * 1000)),
                   files ? el("div", {class: "muted", title: "snapshot " + (r.snapshot_hash || "?")}, "read: " + files) : null]
                : el("div", {class: "muted"}, "record not in this history"));
  }));
}

function estimateCell(advice) {
  const e = advice.estimate || {};
  const method = e.method || "?";
  return [el("div", {"data-estimate-s": isNum(e.duration_s) ? e.duration_s : ""},
             el("b", null, duration(e.duration_s)), isNum(e.duration_s) ? el("span", {class: "muted"}, " · " + e.duration_s + " s") : null),
          el("div", null, badge(method, method === "history" ? "ok" : "warn"),
             isNum(e.spread) ? el("span", {class: "muted small"}, " spread " + num(e.spread, 3)) : null),
          e.fallback_reason ? el("div", {class: "muted small"}, e.fallback_reason) : null];
}

// A job known only by its log: the file's name, its path on hover.
function logCell(path) {
  if (!path) return el("span", {class: "muted"}, "—");
  return el("div", {class: "mono", title: path}, el("span", {class: "muted"}, "log "), basename(path));
}

function jobRow(job) {
  const a = job.advice, md = a && a.metadata;
  const state = job.failure ? badge(job.failure.error_type || "failed", "bad")
              : job.progress ? badge(job.progress.status === "ok" ? "tracking" : "no progress", job.progress.status === "ok" ? "info" : "plain")
              : badge("advised", "plain");
  const workload = md ? [el("div", null, el("b", null, md.model_name || "?"), " · ", md.dataset || "?"),
                         el("div", {class: "muted small"}, (md.model_type || "?") + " · " +
                            (md.hardware && isNum(md.hardware.num_gpus) ? md.hardware.num_gpus + " GPU" : "GPUs ?") +
                            (isNum(md.training_iterations) ? " · " + md.training_iterations + " " + (md.iteration_type || "iteration") + "s" : ""))]
                      : el("span", {class: "muted"}, a ? "metadata not extracted" : "—");
  return el("tr", {"data-job-id": job.id},
    el("td", null, el("div", {class: "mono"}, el("b", null, job.id)), state,
       el("div", {class: "muted small"}, "updated " + utc(job.updated_ms).slice(11))),
    el("td", {class: "wrap"}, a ? [el("div", {class: "mono"}, a.cmd), el("div", {class: "muted small", title: a.repo},
                                   basename(a.repo) + (a.rev ? "@" + a.rev : "") + (a.workdir ? " / " + a.workdir : ""))]
                                : logCell(job.progress ? job.progress.log : job.failure ? job.failure.log : "")),
    el("td", null, workload),
    el("td", null, a ? estimateCell(a) : el("span", {class: "muted"}, "not advised")),
    el("td", null, a ? matchList(a.estimate) : null),
    el("td", null, a ? provenanceList(md) : null));
}

function renderJobs(data) {
  const jobs = data.jobs || [];
  replace("jobs", jobs.length
    ? table(["job", "command / repository", "workload", "estimate", "matched history", "provenance"], jobs.map(jobRow), {id: "jobs-table"})
    : empty("No job answered yet: POST /v1/advise, /v1/track or /v1/diagnose (give job_id to tie them together)."));
  const progress = jobs.filter((j) => j.progress);
  replace("progress", progress.length
    ? table(["job", "status", "step", "step time", "throughput", "loss", "ETA"], progress.map(progressRow), {id: "progress-table"})
    : empty("No progress reported yet."));
  const failures = jobs.filter((j) => j.failure);
  replace("failures", failures.length ? failures.map(failureCard) : empty("No failure diagnosed yet."));
  return jobs;
}

function progressRow(job) {
  const p = job.progress;
  const frac = isNum(p.progress_fraction) ? p.progress_fraction : null;
  return el("tr", {"data-job-id": job.id},
    el("td", {class: "mono"}, job.id),
    el("td", null, badge(p.status, p.status === "ok" ? "ok" : "plain")),
    el("td", null, el("div", {"data-step": isNum(p.step) ? p.step : ""}, isNum(p.step) ? String(p.step) : "—",
                      isNum(p.total_steps) ? " / " + p.total_steps : ""),
       frac !== null ? el("div", {class: "bar", title: Math.round(frac * 100) + " %"}, progressFill(frac)) : null),
    el("td", {"data-step-time-s": isNum(p.step_time_s) ? p.step_time_s : ""}, seconds(p.step_time_s),
       isNum(p.steady_step_time_s) ? el("div", {class: "muted small"}, "steady " + seconds(p.steady_step_time_s)) : null),
    el("td", null, isNum(p.throughput) ? num(p.throughput, 1) + " " + (p.throughput_unit || "") : "—"),
    el("td", null, num(p.loss, 4)),
    el("td", {"data-eta-s": isNum(p.eta_s) ? p.eta_s : ""}, el("b", null, duration(p.eta_s))));
}

function progressFill(frac) {
  const fill = el("div");
  fill.style.width = Math.max(0, Math.min(100, frac * 100)) + "%";
  return fill;
}

function failureCard(job) {
  const f = job.failure;
  const kind = f.error_type === "infrastructure" ? "bad" : "warn";
  const plan = f.recovery || {};
  const lines = (f.context || []).map((l) =>
    el("div", {class: l.root ? "root" : null, "data-root": l.root ? "true" : null},
       el("span", {class: "ln"}, f.context_are_offsets ? "@" + l.index : String(l.index + 1)), l.text));
  return el("div", {class: "failure " + (f.error_type || ""), "data-job-id": job.id},
    el("div", {class: "head"},
       el("b", {class: "mono"}, job.id), badge(f.error_type || "unknown", kind),
       f.faulty_component ? badge(f.faulty_component, "bad") : null,
       el("span", {class: "muted"}, "signature " + (f.signature || "—") + " · confidence " + num(f.confidence, 2)),
       el("span", {class: "muted small", title: f.log}, basename(f.log))),
    el("div", {class: "rootcause", "data-root-cause": "true"}, f.root_cause_line || "(no root-cause line)"),
    el("div", {class: "small"}, el("span", {class: "muted"}, "recovery plan: "),
       (plan.steps || []).join(" → ") || "—",
       plan.reason ? el("span", {class: "muted"}, " (" + plan.reason + ")") : null,
       " ", badge(plan.executed ? "executed" : "advice, not executed", "plain")),
    lines.length ? el("div", {class: "context"}, lines) : null);
}

// ---- history and audit --------------------------------------------------------

function renderHistory(data) {
  const records = (data.records || []).slice().reverse();
  replace("history", records.length
    ? table(["job", "workload", "duration", "end", "GPUs", "ended"], records.map((r) => {
        const md = r.metadata || {};
        return el("tr", {"data-record": r.job_id},
          el("td", {class: "mono"}, r.job_id, r.name ? el("div", {class: "muted small"}, r.name) : null),
          el("td", null, [md.model_name, md.dataset].filter(Boolean).join(" · ") || "—"),
          el("td", null, duration(r.duration_s)),
          el("td", null, badge(r.end_reason || "?", r.end_reason === "completed" ? "ok" : "warn")),
          el("td", null, String(r.num_gpus ?? "—")),
          el("td", {class: "small"}, utc(r.completed_at_s * 1000)));
      }), {id: "history-table"})
    : empty("The history store has no record yet."));
}

function renderAudit(data) {
  const records = data.records || [];
  document.getElementById("audit-note").textContent =
    "Recovery and agent decisions from the guard ledger, newest last (" + (data.ledger || "no ledger configured") + ").";
  const kind = (d) => d === "executed" ? "bad" : d === "refused" || d === "skipped" ? "warn" : d === "intent" ? "info" : "plain";
  replace("audit", records.length
    ? table(["time", "job", "node", "step", "decision", "why"], records.map((r) =>
        el("tr", {"data-audit-step": r.step || ""},
           el("td", {class: "small"}, utc(r.time_ms).slice(5)), el("td", {class: "mono"}, r.job || "—"),
           el("td", {class: "mono"}, r.node || "—"), el("td", null, r.step || "—"),
           el("td", null, badge(r.decision || "?", kind(r.decision))),
           el("td", {class: "small"}, r.why || ""))), {id: "audit-table"})
    : empty("No decision audited yet."));
  const box = document.getElementById("audit");
  box.scrollTop = box.scrollHeight;
  return records;
}

// ---- metrics ------------------------------------------------------------------

// Prometheus text exposition → [{name, labels, value}].
function parseMetrics(text) {
  const out = [];
  for (const line of text.split("\n")) {
    if (!line || line[0] === "#") continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line);
    if (!m) continue;
    const labels = {};
    for (const [, k, v] of (m[2] || "").matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)) labels[k] = v;
    out.push({name: m[1], labels, value: parseFloat(m[3])});
  }
  return out;
}

// The numbers the charts show, from one /metrics answer.
function summarize(series) {
  const s = {endpoints: {}, depth: {}, capacity: {}, refusals: 0, fallbackRatio: 0, estimates: 0, storeErrors: 0,
             cacheHits: 0, cacheMisses: 0, total: 0};
  const buckets = {};
  for (const {name, labels, value} of series) {
    const ep = labels.endpoint;
    if (name === "schedmate_http_requests_total") {
      const e = s.endpoints[ep] || (s.endpoints[ep] = {requests: 0, errors: 0});
      e.requests += value;
      if (+labels.status >= 400) e.errors += value;
      s.total += value;
    } else if (name === "schedmate_http_request_duration_seconds_bucket") {
      const b = buckets[ep] || (buckets[ep] = {});
      b[labels.le] = (b[labels.le] || 0) + value;
    } else if (name === "schedmate_queue_depth") s.depth[labels.channel] = value;
    else if (name === "schedmate_queue_capacity") s.capacity[labels.channel] = value;
    else if (name === "schedmate_channel_refusals_total") s.refusals += value;
    else if (name === "schedmate_estimate_fallback_ratio") s.fallbackRatio = value;
    else if (name === "schedmate_estimates_total") s.estimates = value;
    else if (name === "schedmate_store_errors_total") s.storeErrors = value;
    else if (name === "schedmate_advise_cache_total") s[labels.result === "hit" ? "cacheHits" : "cacheMisses"] = value;
  }
  s.buckets = buckets;
  return s;
}

// The upper bound of the histogram bucket holding quantile q (seconds).
function quantile(cumulative, q) {
  const les = Object.keys(cumulative).filter((k) => k !== "+Inf").map(Number).sort((a, b) => a - b);
  const total = cumulative["+Inf"] || 0;
  if (!total) return null;
  for (const le of les) if (cumulative[String(le)] >= q * total) return le;
  return Infinity;
}

const CHART_W = 400, CHART_H = 120;

function chart(title, body, attrs) {
  return el("div", Object.assign({class: "chart"}, attrs || {}), el("h3", null, title), body);
}

// Horizontal bars: [{label, value, text, part}] (part: a red share of value).
function barChart(rows, attrs) {
  const max = Math.max(1, ...rows.map((r) => r.value));
  const rowH = Math.min(19, Math.floor((CHART_H - 4) / Math.max(1, rows.length)));
  const g = svg("svg", Object.assign({viewBox: `0 0 ${CHART_W} ${CHART_H}`}, attrs || {}));
  const x0 = 70, span = CHART_W - x0 - 150;
  rows.forEach((r, i) => {
    const y = 2 + i * rowH, w = span * (r.value / max);
    append(g, [svg("g", r.attrs || null,
      svg("text", {x: 0, y: y + rowH * 0.68}, r.label),
      svg("rect", {x: x0, y: y + 3, width: Math.max(1, w), height: rowH - 7, rx: 2, fill: "#2f6fdb"}),
      r.part ? svg("rect", {x: x0, y: y + 3, width: Math.max(1, span * (r.part / max)), height: rowH - 7, rx: 2, fill: "#c0392b"}) : null,
      svg("text", {x: x0 + 4 + w, y: y + rowH * 0.68}, r.text))]);
  });
  return g;
}

// Lines over this page's samples: [{name, color, values}] sharing [0, ymax].
function lineChart(lines, ymax, format) {
  const n = Math.max(2, ...lines.map((l) => l.values.length));
  const top = Math.max(ymax || 0, ...lines.flatMap((l) => l.values.filter(isNum)), 1e-9);
  const x0 = 34, w = CHART_W - x0 - 4, h = CHART_H - 30;
  const g = svg("svg", {viewBox: `0 0 ${CHART_W} ${CHART_H}`},
    svg("line", {x1: x0, y1: 4, x2: x0, y2: 4 + h, stroke: "#d5d9e0"}),
    svg("line", {x1: x0, y1: 4 + h, x2: x0 + w, y2: 4 + h, stroke: "#d5d9e0"}),
    svg("text", {x: 0, y: 12}, format(top)), svg("text", {x: 0, y: 4 + h}, format(0)));
  lines.forEach((l, k) => {
    const pts = l.values.map((v, i) => isNum(v) ? `${x0 + (w * i) / (n - 1)},${4 + h - (h * v) / top}` : null).filter(Boolean);
    if (pts.length === 1) pts.push(pts[0].replace(/^[^,]+/, String(x0 + w / (n - 1))));
    append(g, [svg("polyline", {points: pts.join(" "), fill: "none", stroke: l.color, "stroke-width": 1.8}),
               svg("text", {x: x0 + 4 + k * 110, y: CHART_H - 6, fill: l.color},
                   l.name + " " + (l.values.length ? format(l.values[l.values.length - 1]) : "—"))]);
  });
  return g;
}

// The chart's rows: the three channels' endpoints, history, and what pages
// and probes read (this page's own polling lands in "dashboard").
const ENDPOINT_GROUPS = [["advise", ["advise"]], ["track", ["track"]], ["diagnose", ["diagnose"]],
                         ["history", ["history_write", "history_read"]],
                         ["dashboard", ["jobs", "audit", "metrics", "dashboard"]],
                         ["probes", ["healthz", "readyz", "openapi", "other"]]];

// Per group: requests, errors and the p50/p99 bucket bounds over its endpoints.
function endpointGroups(m) {
  return ENDPOINT_GROUPS.map(([name, members]) => {
    const g = {name, requests: 0, errors: 0, buckets: {}};
    for (const e of members) {
      const s = m.endpoints[e];
      if (!s) continue;
      g.requests += s.requests;
      g.errors += s.errors;
      for (const [le, v] of Object.entries(m.buckets[e] || {})) g.buckets[le] = (g.buckets[le] || 0) + v;
    }
    g.p50 = quantile(g.buckets, 0.5);
    g.p99 = quantile(g.buckets, 0.99);
    return g;
  });
}

function renderCharts() {
  const now = samples[samples.length - 1].metrics;
  const groups = endpointGroups(now);
  const ms = (v) => v === null || v === undefined ? "—" : v === Infinity ? "> 5 s" : v < 0.001 ? (v * 1000).toFixed(1) + " ms" : Math.round(v * 1000) + " ms";
  const rate = samples.map((s, i) => i === 0 ? null : Math.max(0, (s.metrics.total - samples[i - 1].metrics.total) / ((s.t - samples[i - 1].t) / 1000)));
  const channels = Object.keys(now.depth);
  const colors = ["#2f6fdb", "#1f8a4c", "#b7791f"];
  replace("charts",
    chart("Requests per endpoint (errors in red)", barChart(groups.map((g) => ({
      label: g.name, value: g.requests, part: g.errors,
      text: g.requests + (g.errors ? " (" + g.errors + " errors)" : ""),
      attrs: {"data-endpoint": g.name, "data-requests": g.requests}})), {id: "chart-requests"})),
    chart("Latency per endpoint (histogram bucket bounds)", barChart(groups.map((g) => ({
      label: g.name, value: isFinite(g.p99) ? g.p99 || 0 : 5,
      text: g.requests ? "p50 ≤ " + ms(g.p50) + " · p99 ≤ " + ms(g.p99) : "—"})))),
    chart("Requests per second", lineChart([{name: "all", color: "#2f6fdb", values: rate.slice(1)}], 1, (v) => num(v, 1))),
    chart("Estimate fallback ratio", lineChart([{name: "ratio", color: "#b7791f",
      values: samples.map((s) => s.metrics.fallbackRatio)}], 1, (v) => num(v, 2)), {"data-fallback-ratio": now.fallbackRatio}),
    chart("Queue depth per channel", lineChart(channels.map((c, i) => ({name: c, color: colors[i % 3],
      values: samples.map((s) => s.metrics.depth[c] || 0)})), 1, (v) => num(v, 0))),
    chart("Counters", el("ul", {class: "plain small", id: "counters"},
      el("li", null, "estimates " + now.estimates + " · fallback ratio " + num(now.fallbackRatio, 2)),
      el("li", null, "advise cache " + now.cacheHits + " hits / " + now.cacheMisses + " misses"),
      el("li", null, "refused (429/503) " + now.refusals),
      el("li", null, "store errors " + now.storeErrors),
      channels.map((c) => el("li", null, c + " queue " + now.depth[c] + " / " + now.capacity[c])))));
}

function renderTiles(jobs, audit, metrics) {
  const tile = (k, v, attrs) => el("div", Object.assign({class: "tile"}, attrs || {}), el("div", {class: "v"}, String(v)), el("div", {class: "k"}, k));
  const fromHistory = jobs.filter((j) => j.advice && j.advice.estimate && j.advice.estimate.method === "history").length;
  const e = metrics ? metrics.endpoints : {};
  const count = (name) => (e[name] ? e[name].requests : 0);
  replace("tiles",
    tile("jobs answered", jobs.length, {"data-tile": "jobs"}),
    tile("estimates from history", fromHistory + " / " + jobs.filter((j) => j.advice).length),
    tile("tracked, progress ok", jobs.filter((j) => j.progress && j.progress.status === "ok" && !j.failure).length),
    tile("failures diagnosed", jobs.filter((j) => j.failure).length),
    tile("audit records", audit.length),
    tile("advise · track · diagnose", count("advise") + " · " + count("track") + " · " + count("diagnose")));
}

// ---- the loop -----------------------------------------------------------------

function panelError(id, err) { replace(id, el("div", {class: "error"}, String(err.message || err))); }

async function refresh() {
  const [ready, jobs, history, audit, metrics] = await Promise.allSettled([
    get("/readyz"), get("/v1/jobs?limit=100"), get("/v1/history?limit=20"), get("/v1/audit?limit=100"),
    get("/metrics", true)]);
  const status = document.getElementById("status");
  status.textContent = ready.status === "fulfilled" ? "ready" : "store unavailable";
  status.className = "pill " + (ready.status === "fulfilled" ? "ok" : "bad");
  document.getElementById("store").textContent = ready.status === "fulfilled" ? ready.value.store : "";
  let jobList = [], auditList = [], summary = null;
  if (jobs.status === "fulfilled") jobList = renderJobs(jobs.value); else panelError("jobs", jobs.reason);
  if (history.status === "fulfilled") renderHistory(history.value); else panelError("history", history.reason);
  if (audit.status === "fulfilled") auditList = renderAudit(audit.value); else panelError("audit", audit.reason);
  if (metrics.status === "fulfilled") {
    summary = summarize(parseMetrics(metrics.value));
    samples.push({t: Date.now(), metrics: summary});
    if (samples.length > MAX_SAMPLES) samples.shift();
    renderCharts();
  } else panelError("charts", metrics.reason);
  renderTiles(jobList, auditList, summary);
  document.getElementById("updated").textContent = "updated " + utc(Date.now()).slice(11);
}

function loop() { refresh().catch((e) => console.error(e)).finally(() => setTimeout(loop, POLL_MS)); }

document.getElementById("interval").textContent = String(POLL_MS / 1000);
document.getElementById("auth").addEventListener("submit", (ev) => {
  ev.preventDefault();
  sessionStorage.setItem("schedmate-token", document.getElementById("token").value);
  document.getElementById("auth").hidden = true;
  refresh();
});
loop();
