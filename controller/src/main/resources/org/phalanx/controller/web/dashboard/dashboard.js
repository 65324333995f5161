'use strict';
// The Phalanx dashboard: polls /api/overview once a second and draws it. Elements are built once
// and then only their text changes, so a button stays the same element while it is on the page.

const POLL_MILLIS = 1000;
const views = new Map(); // virtual database name -> its elements and charts

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith('on')) e.addEventListener(k.substring(2), v); else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

function setText(e, text) {
  const t = String(text);
  if (e.textContent !== t) e.textContent = t;
}

const number = v => Number(v).toLocaleString('en-US', {maximumFractionDigits: 2});
const clock = millis => new Date(millis).toLocaleTimeString('en-GB');

async function action(vdb, name, backend) {
  const reply = await fetch('/api/action', {
    method: 'POST', credentials: 'same-origin',
    headers: {'Content-Type': 'application/json', 'X-Phalanx-Request': '1'},
    body: JSON.stringify({vdb: vdb, action: name, backend: backend || ''})
  });
  if (reply.status === 401) location.href = '/dashboard/login.html';
  else if (!reply.ok) alert((await reply.json()).error);
  poll();
}

function lineChart(canvas, datasets, unit) {
  return new Chart(canvas, {
    type: 'line',
    data: {labels: [], datasets: datasets.map(label => ({label: label, data: [], pointRadius: 0, borderWidth: 1.5}))},
    options: {
      animation: false, maintainAspectRatio: false,
      scales: {y: {beginAtZero: true, title: {display: true, text: unit}}, x: {ticks: {maxTicksLimit: 6}}}
    }
  });
}

function stat(label) {
  const value = el('b', {}, '–');
  return {box: el('div', {class: 'stat'}, value, label), value: value};
}

function createView(vdb) {
  const stats = {rate: stat('requests/s'), p95: stat('p95 ms (last second)'), sessions: stat('sessions'),
    transactions: stat('open transactions'), pending: stat('pending requests'), errors: stat('errors'),
    operation: stat('running operation')};
  const throughput = el('canvas', {id: 'throughput-' + vdb, 'data-points': '0'});
  const latency = el('canvas', {id: 'latency-' + vdb, 'data-points': '0'});
  const backends = el('tbody');
  const cache = el('div', {class: 'cache'});
  const log = el('div', {class: 'log'});
  const statements = el('tbody');
  const group = el('div', {class: 'group'});
  const verification = {progress: el('progress', {max: '1', value: '0', hidden: ''}), status: el('div', {class: 'verify-status'}),
    tables: el('tbody')};
  const root = el('section', {class: 'card vdb', 'data-vdb': vdb},
    el('h2', {}, 'Virtual database ', el('code', {}, vdb)),
    el('div', {class: 'stats'}, ...Object.values(stats).map(s => s.box)),
    el('div', {class: 'toolbar'},
      el('button', {type: 'button', 'data-action': 'checkpoint', onclick: () => action(vdb, 'checkpoint')}, 'Checkpoint'),
      el('button', {type: 'button', 'data-action': 'flushCache', onclick: () => action(vdb, 'flushCache')}, 'Flush cache'),
      el('button', {type: 'button', 'data-action': 'verify', onclick: () => action(vdb, 'verify')}, 'Verify replicas')),
    el('div', {class: 'charts'}, el('div', {}, throughput), el('div', {}, latency)),
    el('h3', {}, 'Backends'),
    el('table', {class: 'backends'},
      el('thead', {}, el('tr', {}, ...['Backend', 'State', 'Engine', 'Pending', 'Queued writes', 'Reads', 'Writes',
        'Errors', 'Mean µs', 'Replay lag', 'Why out of service', 'Actions'].map(h => el('th', {}, h)))),
      backends),
    el('h3', {}, 'Cache'), cache,
    el('h3', {}, 'Recovery log'), log,
    el('h3', {}, 'Replica verification'),
    el('div', {class: 'verification'}, verification.progress, verification.status,
      el('table', {class: 'verify-tables'},
        el('thead', {}, el('tr', {}, ...['Table', 'Replicas', 'Rows compared', 'Chunks', 'Result', 'Differences']
          .map(h => el('th', {}, h)))), verification.tables)),
    el('h3', {}, 'Top statements'),
    el('table', {class: 'statements'},
      el('thead', {}, el('tr', {}, ...['Statement', 'Count', 'Errors', 'Cache hits', 'Mean µs', 'Max µs']
        .map(h => el('th', {}, h)))), statements),
    group);
  document.getElementById('vdbs').append(root);
  return {root, stats, backends, rows: new Map(), cache, log, statements, group, verification,
    throughputCanvas: throughput, latencyCanvas: latency,
    throughput: lineChart(throughput, ['requests/s', 'errors/s'], 'per second'),
    latency: lineChart(latency, ['p50', 'p95', 'p99'], 'ms')};
}

function backendRow(view, vdb, name) {
  const cells = {};
  const tr = el('tr', {'data-backend': name});
  for (const key of ['name', 'state', 'engine', 'pendingRequests', 'queuedWrites', 'reads', 'writes', 'errors',
    'meanLatencyMicros', 'replayLag', 'disabledReason']) {
    cells[key] = el('td', {class: key === 'name' || key === 'engine' || key === 'disabledReason' ? key : 'num ' + key});
    tr.append(cells[key]);
  }
  cells.state.append(el('span', {class: 'state'}));
  const buttons = {};
  const actions = el('td', {class: 'actions'});
  for (const [act, label] of [['disable', 'Disable'], ['enable', 'Enable'], ['backup', 'Backup']]) {
    buttons[act] = el('button', {type: 'button', 'data-action': act, onclick: () => action(vdb, act, name)}, label);
    actions.append(buttons[act], ' ');
  }
  tr.append(actions);
  view.backends.append(tr);
  return {tr, cells, buttons};
}

function updateChart(chart, canvas, points, fields) {
  chart.data.labels = points.map(p => clock(p.timeMillis));
  fields.forEach((f, i) => { chart.data.datasets[i].data = points.map(p => p[f]); });
  chart.update('none');
  canvas.setAttribute('data-points', String(points.length));
}

function updateView(view, v) {
  const last = v.series.length ? v.series[v.series.length - 1] : null;
  setText(view.stats.rate.value, last ? number(last.requestsPerSecond) : '–');
  setText(view.stats.p95.value, last ? number(last.p95Millis) : '–');
  setText(view.stats.sessions.value, v.openSessions);
  setText(view.stats.transactions.value, v.openTransactions);
  setText(view.stats.pending.value, v.pendingRequests);
  setText(view.stats.errors.value, number(v.errors));
  setText(view.stats.operation.value, v.runningOperation || 'none');
  updateChart(view.throughput, view.throughputCanvas, v.series, ['requestsPerSecond', 'errorsPerSecond']);
  updateChart(view.latency, view.latencyCanvas, v.series, ['p50Millis', 'p95Millis', 'p99Millis']);

  const seen = new Set();
  for (const b of v.backends) {
    seen.add(b.name);
    if (!view.rows.has(b.name)) view.rows.set(b.name, backendRow(view, v.name, b.name));
    const row = view.rows.get(b.name);
    setText(row.cells.name, b.name);
    const badge = row.cells.state.firstChild;
    setText(badge, b.state);
    badge.className = 'state state-' + b.state;
    for (const key of ['engine', 'pendingRequests', 'queuedWrites', 'reads', 'writes', 'errors', 'meanLatencyMicros',
      'replayLag']) {
      setText(row.cells[key], typeof b[key] === 'number' ? number(b[key]) : b[key]);
    }
    setText(row.cells.disabledReason, b.disabledReason || '');
    row.buttons.disable.disabled = b.state !== 'ENABLED';
    row.buttons.enable.disabled = b.state !== 'DISABLED';
    row.buttons.backup.disabled = b.state !== 'DISABLED';
  }
  for (const [name, row] of view.rows) {
    if (!seen.has(name)) { row.tr.remove(); view.rows.delete(name); }
  }

  setText(view.cache, v.cache
    ? `hits ${number(v.cache.hits)} · misses ${number(v.cache.misses)} · hit ratio ${number(v.cache.hitRatio * 100)} %`
      + ` · entries ${number(v.cache.entries)} · ${number(v.cache.memoryBytes / 1024)} KiB`
      + ` · invalidations ${number(v.cache.invalidations)} · evictions ${number(v.cache.evictions)}`
    : 'no result cache configured');
  setText(view.log, v.recoveryLog
    ? `last position ${number(v.recoveryLog.lastPosition)} · ${number(v.recoveryLog.entries)} entries held`
    : 'no recovery log configured');
  const statementRows = v.topStatements.map(s => [s.template, number(s.count), number(s.errors), number(s.cacheHits),
    number(s.meanMicros), number(s.maxMicros)]);
  if (JSON.stringify(statementRows) !== view.statementsShown) {
    view.statementsShown = JSON.stringify(statementRows);
    view.statements.replaceChildren(...statementRows.map(r =>
      el('tr', {}, el('td', {}, el('code', {}, r[0])), ...r.slice(1).map(c => el('td', {class: 'num'}, c)))));
  }
  updateVerification(view.verification, v.verification);
  const g = v.group;
  setText(view.group, g ? `Group ${g.group}: this member ${g.member}${g.witness ? ' (witness)' : ''}, primary ${g.primary || 'none'}`
    + `, log leader ${g.logLeader || 'none'}, members ${g.members.join(', ')}, connected ${g.connected.join(', ')}`
    + `, applied ${g.appliedIndex} of ${g.commitIndex} committed` : '');
}

const rowsDiffer = n => n === 1 ? '1 row differs' : `${number(n)} rows differ`;

function updateVerification(view, verification) {
  const running = verification.running;
  view.progress.hidden = !running;
  if (running) view.progress.value = running.rowsTotal ? Math.min(1, running.rowsDone / running.rowsTotal) : 0;
  const last = verification.last;
  let status = 'never run (Verify replicas compares every table across the replicas that hold it)';
  if (running) {
    status = `verifying ${running.table || '…'}: table ${running.tablesDone + 1} of ${running.tables},`
      + ` ${number(running.rowsDone)} of ~${number(running.rowsTotal)} rows`;
  } else if (last) {
    status = `last run ${new Date(last.started).toLocaleString('en-GB')}: ${number(last.rowsCompared)} rows in`
      + ` ${number(last.millis / 1000)} s (${number(last.rowsPerSecond)} rows/s) — `
      + (last.differences === 0 ? 'replicas identical'
        : `${rowsDiffer(last.differences)}; outvoted: ${last.minority.join(', ') || 'no majority'}`)
      + (last.actions.length ? ' · ' + last.actions.join('; ') : '');
  }
  setText(view.status, status);
  view.status.className = 'verify-status ' + (last && !running ? (last.differences === 0 ? 'state-SAME' : 'state-DIFFERENT') : '');
  const rows = last ? last.tables.map(t => [t.table, t.backends.join(', '), number(t.rowsCompared), String(t.chunks),
    t.problem ? 'not compared: ' + t.problem : (t.differingRows === 0 ? 'identical' : rowsDiffer(t.differingRows)),
    t.rows.concat(t.ranges.length && !t.rows.length ? t.ranges : []).join('\n')]) : [];
  const shown = JSON.stringify(rows);
  if (view.tables.dataset.shown === shown) return;
  view.tables.dataset.shown = shown;
  view.tables.replaceChildren(...rows.map(r => el('tr', {'data-table': r[0]},
    el('td', {}, el('code', {}, r[0])), el('td', {}, r[1]), el('td', {class: 'num'}, r[2]), el('td', {class: 'num'}, r[3]),
    el('td', {}, r[4]), el('td', {class: 'differences'}, el('pre', {}, r[5])))));
}

function updateActions(actions) {
  const rows = actions.map(a => [clock(a.startedMillis), a.user, a.vdb, a.action, a.target, a.state, a.message]);
  const shown = JSON.stringify(rows);
  const body = document.querySelector('#actions tbody');
  if (body.dataset.shown === shown) return;
  body.dataset.shown = shown;
  body.replaceChildren(...rows.map(r => el('tr', {},
    ...r.slice(0, 5).map(c => el('td', {}, c)),
    el('td', {}, el('span', {class: 'state state-' + r[5]}, r[5])),
    el('td', {}, r[6]))));
}

function render(o) {
  setText(document.getElementById('controller'),
    `${o.controller.version} · clients on ${o.controller.clientAddress}:${o.controller.clientPort}`
    + ` · ${o.controller.openConnections} connections`);
  setText(document.getElementById('user'), o.user);
  const names = new Set();
  for (const v of o.virtualDatabases) {
    names.add(v.name);
    if (!views.has(v.name)) views.set(v.name, createView(v.name));
    updateView(views.get(v.name), v);
  }
  for (const [name, view] of views) {
    if (!names.has(name)) { view.root.remove(); views.delete(name); }
  }
  updateActions(o.actions);
}

let polling = false;
async function poll() {
  if (polling) return;
  polling = true;
  try {
    const reply = await fetch('/api/overview', {credentials: 'same-origin'});
    if (reply.status === 401) { location.href = '/dashboard/login.html'; return; }
    render(await reply.json());
    setText(document.getElementById('status'), 'updated ' + clock(Date.now()));
  } catch (e) {
    setText(document.getElementById('status'), 'controller unreachable: ' + e.message);
  } finally {
    polling = false;
  }
}

document.getElementById('logout').addEventListener('click', async () => {
  await fetch('/api/logout', {method: 'POST', credentials: 'same-origin', headers: {'X-Phalanx-Request': '1'}});
  location.href = '/dashboard/login.html';
});
poll();
setInterval(poll, POLL_MILLIS);
