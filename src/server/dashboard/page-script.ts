/**
 * The dashboard's script (plain browser JavaScript, served as is from /dashboard/app.js): polls
 * /dashboard/data and draws the figures with the DOM and inline SVG. Text from requests (questions) is only
 * ever set as text, never parsed as markup. Written without template literals, as it lives in one.
 */
export const PAGE_SCRIPT = String.raw`"use strict";
(function () {
  var POLL_MS = 5000;
  var SVG = "http://www.w3.org/2000/svg";
  var state = { key: sessionStorage.getItem("semcache-key") || "", namespace: null, timer: 0 };
  var $ = function (id) { return document.getElementById(id); };

  function figure(name, text) {
    var nodes = document.querySelectorAll('[data-figure="' + name + '"]');
    for (var i = 0; i < nodes.length; i++) nodes[i].textContent = text;
  }
  function count(n) { return Math.round(n).toLocaleString("en"); }
  function percent(rate) { return (100 * rate).toFixed(1) + "%"; }
  function ms(value) { return value === undefined ? "-" : value < 10 ? value.toFixed(2) : value.toFixed(0); }
  function latency(summary) { return summary.count === 0 ? "-" : ms(summary.p50Ms) + " / " + ms(summary.p90Ms) + " / " + ms(summary.p99Ms); }
  function el(tag, text, cls) { var node = document.createElement(tag); if (text !== undefined) node.textContent = text; if (cls) node.className = cls; return node; }
  function svg(tag, attrs) { var node = document.createElementNS(SVG, tag); for (var k in attrs) node.setAttribute(k, String(attrs[k])); return node; }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function rows(table, list) {
    var body = table.tBodies[0]; clear(body);
    list.forEach(function (cells) {
      var tr = el("tr");
      if (cells.current) tr.className = "current";
      cells.forEach(function (cell) { tr.appendChild(el("td", cell.text, cell.cls)); });
      body.appendChild(tr);
    });
  }
  function ago(atMs, nowMs) {
    var s = Math.max(0, Math.round((nowMs - atMs) / 1000));
    return s < 60 ? s + " s ago" : s < 3600 ? Math.round(s / 60) + " min ago" : Math.round(s / 3600) + " h ago";
  }
  function label(question, namespace) { return namespace === undefined ? question : "[" + (namespace || "default") + "] " + question; }

  function timeline(data) {
    var box = $("timeline"); clear(box);
    var W = 900, H = 180, P = 24, s = data.series, n = s.startMs.length;
    var max = 1;
    for (var i = 0; i < n; i++) max = Math.max(max, s.requests[i]);
    var root = svg("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": "lookups over time" });
    var bw = (W - P) / n;
    var rate = [];
    for (var j = 0; j < n; j++) {
      var y = H - P, x = P + j * bw;
      [["hits", "hit"], ["misses", "miss"], ["skips", "skip"]].forEach(function (part) {
        var h = (s[part[0]][j] / max) * (H - 2 * P);
        if (h > 0) { y -= h; root.appendChild(svg("rect", { x: x + 0.5, y: y, width: Math.max(1, bw - 1), height: h, "class": part[1] })); }
      });
      if (s.requests[j] > 0) rate.push((x + bw / 2).toFixed(1) + "," + (H - P - (s.hits[j] / s.requests[j]) * (H - 2 * P)).toFixed(1));
    }
    if (rate.length > 1) root.appendChild(svg("polyline", { points: rate.join(" "), "class": "rate" }));
    var axis = svg("text", { x: 2, y: P - 8, "class": "axis" }); axis.textContent = count(max) + " per " + (data.window.bucketSeconds >= 3600 ? "hour" : "minute");
    root.appendChild(axis);
    var start = svg("text", { x: P, y: H - 6, "class": "axis" }); start.textContent = new Date(s.startMs[0]).toLocaleString();
    root.appendChild(start);
    var end = svg("text", { x: W - 4, y: H - 6, "class": "axis", "text-anchor": "end" }); end.textContent = "now";
    root.appendChild(end);
    box.appendChild(root);
  }

  function scores(data) {
    var box = $("scores"); clear(box);
    var W = 600, H = 160, P = 20, sc = data.scores, n = sc.hits.length, max = 1;
    for (var i = 0; i < n; i++) max = Math.max(max, sc.hits[i], sc.nearestMisses[i]);
    var root = svg("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": "judge scores" });
    var bw = (W - 2 * P) / n;
    for (var j = 0; j < n; j++) {
      var x = P + j * bw;
      var hh = (sc.hits[j] / max) * (H - 2 * P), mh = (sc.nearestMisses[j] / max) * (H - 2 * P);
      if (mh > 0) root.appendChild(svg("rect", { x: x + 1, y: H - P - mh, width: bw / 2 - 1, height: mh, "class": "miss" }));
      if (hh > 0) root.appendChild(svg("rect", { x: x + bw / 2, y: H - P - hh, width: bw / 2 - 1, height: hh, "class": "hit" }));
    }
    var tx = P + sc.threshold * (W - 2 * P);
    root.appendChild(svg("line", { x1: tx, x2: tx, y1: P / 2, y2: H - P, "class": "threshold" }));
    [0, 0.25, 0.5, 0.75, 1].forEach(function (v) { var t = svg("text", { x: P + v * (W - 2 * P) - 6, y: H - 4, "class": "axis" }); t.textContent = String(v); root.appendChild(t); });
    box.appendChild(root);
    var nearest = 0;
    for (var k = 0; k < n; k++) nearest += sc.nearestMisses[k];
    $("scores-note").hidden = !(nearest === 0 && data.totals.misses > 0);
    var near = 0.5 * sc.binWidth;
    rows($("what-if"), sc.whatIf.map(function (row) {
      var cells = [{ text: row.threshold.toFixed(2), cls: "n" }, { text: count(row.hits), cls: "n" }, { text: percent(row.hitRate), cls: "n" }];
      cells.current = Math.abs(row.threshold - sc.threshold) < near;
      return cells;
    }));
  }

  function errorBudget(data) {
    var section = $("error-budget");
    var eb = data.errorBudget;
    section.hidden = !eb;
    if (!eb) return;
    var e = eb.estimate;
    figure("errorBudgetEstimate", "false-hit rate " + percent(e.rate) + " (interval " + percent(e.lower) + " to " + percent(e.upper) + ", " + count(e.samples) + " audited) against a budget of " + percent(eb.maxErrorRate) + ": " + (eb.withinBudget ? "within budget" : "not shown within budget yet"));
    var body = $("error-budget-rows"); clear(body);
    [["decisions", count(eb.decisions)], ["served", count(eb.served)], ["explored", count(eb.explored)], ["audited", count(eb.audited)],
     ["sent to the model (sample share)", percent(eb.sampleShare)], ["pooled threshold", eb.pooledThreshold.toFixed(3)], ["entries with a learned threshold", count(eb.entries)]]
      .forEach(function (pair) { var tr = el("tr"); tr.appendChild(el("td", pair[0])); tr.appendChild(el("td", pair[1], "n")); body.appendChild(tr); });
  }

  function render(data) {
    var t = data.totals;
    figure("requests", count(t.requests));
    figure("hitRate", t.requests === 0 ? "-" : percent(t.hitRate));
    figure("hits", count(t.hits));
    figure("misses", count(t.misses));
    figure("skips", count(t.skips));
    figure("savedOutputTokens", count(t.savedOutputTokens));
    figure("savedInputTokens", count(t.savedInputTokens));
    figure("savedCost", data.pricesConfigured ? t.savedCost.toFixed(4) : "-");
    $("prices-note").textContent = data.pricesConfigured ? "from server.prices" : "set server.prices to price tokens";
    figure("hitLatency", latency(data.latency.hit));
    figure("missLatency", latency(data.latency.miss));
    figure("threshold", data.scores.threshold.toFixed(3));
    figure("mapRequests", count(t.mapRequests));
    figure("mapHits", count(t.mapHits));
    timeline(data);
    scores(data);
    errorBudget(data);
    rows($("frequent"), data.frequentQuestions.map(function (row) { return [{ text: label(row.question, row.namespace), cls: "q" }, { text: count(row.count), cls: "n" }]; }));
    rows($("misses"), data.recentMisses.map(function (row) {
      return [{ text: label(row.question, row.namespace), cls: "q" }, { text: row.score === undefined ? "-" : row.score.toFixed(3), cls: "n" }, { text: ago(row.at, data.generatedAt) }];
    }));
    var picker = $("namespace-picker");
    if (data.namespaces) {
      picker.hidden = false;
      var select = $("namespace"), want = state.namespace === null ? "*" : state.namespace;
      clear(select);
      select.appendChild(el("option", "every namespace")).value = "*";
      data.namespaces.forEach(function (name) { select.appendChild(el("option", name || "(shared default)")).value = name; });
      select.value = want;
    }
    $("scope").textContent = data.namespace === null ? "every namespace" : "namespace " + (data.namespace || "(shared default)");
    $("updated").textContent = "updated " + new Date(data.generatedAt).toLocaleTimeString();
    $("figures").hidden = false;
    document.body.setAttribute("data-generated-at", String(data.generatedAt));
    document.body.setAttribute("data-state", "ready");
  }

  function problem(message) { var p = $("problem"); p.textContent = message; p.hidden = !message; }

  function load() {
    clearTimeout(state.timer);
    var url = "/dashboard/data?window=" + encodeURIComponent($("window").value);
    if (state.namespace !== null) url += "&namespace=" + encodeURIComponent(state.namespace);
    var headers = { accept: "application/json" };
    if (state.key) headers.authorization = "Bearer " + state.key;
    return fetch(url, { headers: headers, cache: "no-store" }).then(function (response) {
      return response.json().then(function (body) {
        if (response.status === 401) {
          $("key-form").hidden = false; $("figures").hidden = true;
          $("key-error").textContent = state.key ? body.error.message : "";
          document.body.setAttribute("data-state", "key");
          return;
        }
        if (!response.ok) { problem(body.error ? body.error.code + ": " + body.error.message : "HTTP " + response.status); document.body.setAttribute("data-state", "error"); return; }
        problem("");
        $("key-form").hidden = true;
        render(body);
      });
    }).catch(function (error) { problem("The server did not answer: " + error.message); })
      .then(function () { state.timer = setTimeout(load, POLL_MS); });
  }

  $("key-form").addEventListener("submit", function (event) {
    event.preventDefault();
    state.key = $("key").value.trim();
    sessionStorage.setItem("semcache-key", state.key);
    state.namespace = null;
    load();
  });
  $("window").addEventListener("change", load);
  $("namespace").addEventListener("change", function () { var v = $("namespace").value; state.namespace = v === "*" ? null : v; load(); });
  load();
})();
`;
