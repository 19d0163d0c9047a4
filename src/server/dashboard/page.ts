/**
 * The dashboard page: HTML and CSS served by the server itself (the script is in page-script.ts), no build step
 * and nothing fetched from the network; the Content-Security-Policy it is sent with forbids anything else.
 */

/** Only this server's own script, styles and JSON; no frame may embed the page. */
export const PAGE_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>semcache dashboard</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/dashboard/app.css">
</head>
<body data-state="loading">
<header>
  <h1>semcache</h1>
  <label>window
    <select id="window">
      <option value="15m">last 15 minutes</option>
      <option value="1h" selected>last hour</option>
      <option value="24h">last 24 hours</option>
      <option value="7d">last 7 days</option>
    </select>
  </label>
  <label id="namespace-picker" hidden>namespace
    <select id="namespace"></select>
  </label>
  <span id="scope"></span>
  <span id="updated"></span>
</header>
<form id="key-form" hidden>
  <p>This server needs an API key. A tenant's key shows its own namespace; an admin key, every namespace.</p>
  <input id="key" type="password" autocomplete="off" placeholder="API key" aria-label="API key">
  <button type="submit">Show</button>
  <span id="key-error" class="error"></span>
</form>
<p id="problem" class="error" hidden></p>
<main id="figures" hidden>
  <section class="cards">
    <div class="card"><h2>requests</h2><output data-figure="requests"></output></div>
    <div class="card"><h2>hit rate</h2><output data-figure="hitRate"></output></div>
    <div class="card"><h2>hits</h2><output data-figure="hits"></output></div>
    <div class="card"><h2>misses</h2><output data-figure="misses"></output></div>
    <div class="card"><h2>skips</h2><output data-figure="skips"></output></div>
    <div class="card"><h2>tokens saved</h2><output data-figure="savedOutputTokens"></output><small>answers; prompts <span data-figure="savedInputTokens"></span></small></div>
    <div class="card"><h2>est. cost saved</h2><output data-figure="savedCost"></output><small id="prices-note"></small></div>
    <div class="card wide"><h2>hit latency</h2><output data-figure="hitLatency"></output><small>p50 / p90 / p99 ms</small></div>
    <div class="card wide"><h2>miss latency</h2><output data-figure="missLatency"></output><small>p50 / p90 / p99 ms</small></div>
  </section>
  <section>
    <h2>lookups over time <small>(hits, misses, skips per bucket; line: hit rate)</small></h2>
    <div id="timeline" class="chart"></div>
  </section>
  <section class="pair">
    <div>
      <h2>judge scores <small>(hits, and each miss's nearest candidate; line: threshold <span data-figure="threshold"></span>)</small></h2>
      <div id="scores" class="chart"></div>
      <p id="scores-note" class="note" hidden>No miss in this window had a candidate to judge (an exact-match cache, or nothing stored nearby): the table counts the hits only.</p>
    </div>
    <div>
      <h2>another threshold</h2>
      <table id="what-if"><thead><tr><th>threshold</th><th>hits</th><th>hit rate</th></tr></thead><tbody></tbody></table>
    </div>
  </section>
  <section id="error-budget" hidden>
    <h2>error budget <small>(server-wide)</small></h2>
    <p><output data-figure="errorBudgetEstimate"></output></p>
    <table><tbody id="error-budget-rows"></tbody></table>
  </section>
  <section class="pair">
    <div>
      <h2>most frequent questions</h2>
      <table id="frequent"><thead><tr><th>question</th><th>count</th></tr></thead><tbody></tbody></table>
    </div>
    <div>
      <h2>latest misses <small>(nearest candidate's score)</small></h2>
      <table id="misses"><thead><tr><th>question</th><th>score</th><th>when</th></tr></thead><tbody></tbody></table>
    </div>
  </section>
  <p class="note">Plain map (GET /?prompt=): <span data-figure="mapRequests"></span> lookups, <span data-figure="mapHits"></span> hits.
  Tokens are estimated as characters / 4. Percentiles are read from histogram bins (within about 20%).</p>
</main>
<script src="/dashboard/app.js"></script>
</body>
</html>
`;

export const PAGE_CSS = `:root { color-scheme: light dark; --hit: #2f9e44; --miss: #e8590c; --skip: #868e96; --line: #1c7ed6; font-family: system-ui, sans-serif; }
body { margin: 0 auto; max-width: 1200px; padding: 12px 20px; }
header { display: flex; gap: 16px; align-items: baseline; flex-wrap: wrap; }
h1 { font-size: 20px; margin: 0 12px 0 0; }
h2 { font-size: 14px; font-weight: 600; margin: 16px 0 6px; }
h2 small, .note, small { font-weight: 400; color: #868e96; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 10px; }
.card { border: 1px solid #ced4da; border-radius: 6px; padding: 6px 10px; }
.card h2 { margin: 0; font-size: 12px; color: #868e96; }
.card output { display: block; font-size: 22px; font-variant-numeric: tabular-nums; }
.card.wide { grid-column: span 2; }
.chart svg { width: 100%; height: auto; display: block; }
.pair { display: grid; grid-template-columns: 3fr 2fr; gap: 20px; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { text-align: left; padding: 2px 6px; border-bottom: 1px solid #e9ecef; vertical-align: top; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
td.q { word-break: break-word; }
tr.current { font-weight: 700; }
.error { color: #e03131; }
.hit { fill: var(--hit); } .miss { fill: var(--miss); } .skip { fill: var(--skip); }
.rate, .threshold { stroke: var(--line); fill: none; stroke-width: 2; }
.axis { fill: #868e96; font-size: 10px; }
@media (max-width: 800px) { .pair { grid-template-columns: 1fr; } }
`;
