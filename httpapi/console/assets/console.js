// The lapse console: polls the API and redraws; no framework, no build.
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const KINDS = { 'coupon.expire': 'expire', 'coupon.release': 'release', 'order.close': 'close' };
  const SVGNS = 'http://www.w3.org/2000/svg';
  let token = sessionStorage.getItem('lapse-token') || '';
  $('token').value = token;
  $('auth').addEventListener('submit', (ev) => {
    ev.preventDefault();
    token = $('token').value.trim();
    sessionStorage.setItem('lapse-token', token);
  });
  $('filter').addEventListener('submit', (ev) => ev.preventDefault());

  // api calls the API with the token, if any, and returns the JSON body; a
  // problem document becomes an Error naming it.
  // body, if given, is sent as JSON; a change is sent under a new
  // Idempotency-Key, so that a retry of it does it once.
  async function api(method, path, body) {
    const headers = {};
    if (token) headers.Authorization = 'Bearer ' + token;
    // A change says it is JSON: in open mode lapse refuses one that does
    // not, which a page of another site could send.
    if (method !== 'GET') {
      headers['Content-Type'] = 'application/json';
      // getRandomValues, not randomUUID: the page may be served over
      // plain HTTP to another host, which is no secure context.
      headers['Idempotency-Key'] = 'console-' + [...crypto.getRandomValues(new Uint8Array(12))].map((b) => b.toString(16).padStart(2, '0')).join('');
    }
    const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const answer = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${answer.title || ''} ${answer.detail || ''}`.trim());
    return answer;
  }

  const problems = new Map();
  function report(part, err) {
    if (err) problems.set(part, err.message); else problems.delete(part);
    $('problem').textContent = [...problems.values()].join(' · ');
  }

  // attempt runs fn and reports its error, if any, as part's problem.
  async function attempt(part, fn) {
    try { await fn(); report(part); } catch (e) { report(part, e); }
  }

  // every runs fn now and then ms after each run ends, reporting its errors.
  function every(ms, part, fn) {
    const run = async () => {
      await attempt(part, fn);
      setTimeout(run, ms);
    };
    run();
  }

  function cell(tr, text, cls) {
    const td = document.createElement('td');
    td.textContent = text;
    if (cls) td.className = cls;
    tr.appendChild(td);
    return td;
  }
  function rows(tbody, items, fill) {
    tbody.replaceChildren(...items.map((it) => { const tr = document.createElement('tr'); fill(tr, it); return tr; }));
  }
  const enc = encodeURIComponent;
  const at = (time) => time.slice(0, 23).replace('T', ' ');
  const hhmm = (d) => d.toISOString().slice(11, 16);
  const num = (n) => Math.round(n).toLocaleString('en-US');
  function dur(s) {
    if (s === null) return '–';
    if (!isFinite(s)) return '> 300 s';
    return Math.abs(s) < 1 ? `${(s * 1000).toFixed(1)} ms` : `${s.toFixed(2)} s`;
  }

  // The storm forecast: a stacked bar a minute, and the five biggest minutes.
  async function forecast() {
    const f = await api('GET', '/v1/console/forecast');
    const from = new Date(f.from);
    const per = new Map();
    for (const d of f.due) {
      const m = per.get(d.minute) || { at: d.at, kinds: {}, total: 0 };
      m.kinds[d.kind] = d.count;
      m.total += d.count;
      per.set(d.minute, m);
    }
    const max = Math.max(1, ...[...per.values()].map((m) => m.total));
    const bars = [];
    for (const [minute, m] of per) {
      let y = 160;
      for (const kind of Object.keys(KINDS)) {
        const n = m.kinds[kind];
        if (!n) continue;
        const h = Math.max(2, (n / max) * 150);
        y -= h;
        const r = document.createElementNS(SVGNS, 'rect');
        r.setAttribute('x', minute);
        r.setAttribute('y', y);
        r.setAttribute('width', 3);
        r.setAttribute('height', h);
        r.setAttribute('class', 'k-' + KINDS[kind]);
        r.style.fill = `var(--${KINDS[kind]})`;
        r.dataset.at = m.at;
        r.dataset.kind = kind;
        r.dataset.count = n;
        const title = document.createElementNS(SVGNS, 'title');
        title.textContent = `${hhmm(new Date(m.at))} UTC: ${num(n)} ${kind}`;
        r.appendChild(title);
        bars.push(r);
      }
    }
    $('forecast-chart').setAttribute('viewBox', `0 0 ${f.minutes} 160`);
    $('forecast-chart').replaceChildren(...bars);
    const ticks = [];
    for (let h = 0; h <= f.minutes / 60; h += Math.max(1, Math.round(f.minutes / 360))) {
      const s = document.createElement('span');
      s.textContent = hhmm(new Date(from.getTime() + h * 3600e3));
      ticks.push(s);
    }
    $('forecast-axis').replaceChildren(...ticks);
    const peaks = [...per.values()].sort((a, b) => b.total - a.total).slice(0, 5);
    $('peaks').replaceChildren(...peaks.map((m) => {
      const li = document.createElement('li');
      li.dataset.at = m.at;
      li.dataset.total = m.total;
      const at = new Date(m.at);
      const mins = Math.round((at - Date.now()) / 60e3);
      li.append(`${hhmm(at)} UTC (in ${Math.floor(mins / 60)} h ${mins % 60} min): `);
      for (const [kind, n] of Object.entries(m.kinds)) {
        const s = document.createElement('span');
        s.dataset.kind = kind;
        s.dataset.count = n;
        s.textContent = `${num(n)} ${kind} `;
        li.append(s);
      }
      return li;
    }));
    if (peaks.length === 0) $('peaks').innerHTML = '<li>nothing falls due in the next 24 h</li>';
  }

  // quantile is PromQL's histogram_quantile over cumulative [le, count]
  // buckets of count observations.
  function quantile(q, buckets, count) {
    if (!count) return null;
    const rank = q * count;
    let lo = 0, below = 0;
    for (const [le, c] of buckets) {
      if (c >= rank) return lo + (le - lo) * (c === below ? 0 : (rank - below) / (c - below));
      lo = le;
      below = c;
    }
    return Infinity;
  }

  // The live numbers of this instance: rates and lag quantiles over the
  // last minute of polls, lifetime while there is none.
  const history = [];
  async function status() {
    const s = await api('GET', '/v1/console/status');
    $('where').textContent = `instance ${s.embedded ? '(embedded)' : s.instance} · database clock ${s.db_time.slice(11, 19)} UTC`;
    // An embedded store has one instance and no shard leases to show.
    $('shards').hidden = s.embedded;
    const m = s.metrics;
    const sum = (name, pick) => (m[name] || []).filter((x) => !pick || pick(x.labels)).reduce((a, x) => a + x.value, 0);
    const expired = sum('lapse_transitions_total', (l) => l.type === 'coupon.expired');
    const now = Date.now();
    history.push({ t: now, expired, lag: m.lapse_lag_seconds || [] });
    while (now - history[0].t > 120e3) history.shift();
    const recent = history.find((h) => now - h.t <= 5e3) || history[0];
    const rate = recent === history[history.length - 1] ? 0 : (expired - recent.expired) / ((now - recent.t) / 1e3);
    $('expiries-rate').textContent = num(rate);
    $('expired-total').textContent = num(expired);
    $('backlog').textContent = m.lapse_due_backlog ? num(sum('lapse_due_backlog')) : '–';
    const skew = m.lapse_clock_skew_seconds;
    $('skew').textContent = skew && sum('lapse_shards_held') > 0 ? dur(skew[0].value) : 'n/a';
    drawRates();

    const minuteAgo = history.find((h) => now - h.t <= 60e3);
    rows($('lag'), m.lapse_lag_seconds || [], (tr, h) => {
      const kind = h.labels.kind;
      const old = (minuteAgo.lag.find((o) => o.labels.kind === kind) || { value: 0, buckets: [] });
      let buckets = h.buckets || [], count = h.value;
      if (count > old.value) {
        buckets = buckets.map(([le, c], i) => [le, c - ((old.buckets || [])[i] || [0, 0])[1]]);
        count -= old.value;
      }
      cell(tr, kind);
      cell(tr, dur(quantile(0.5, buckets, count)));
      cell(tr, dur(quantile(0.99, buckets, count)));
      cell(tr, num(h.value));
      cell(tr, num(sum('lapse_sweeper_repairs_total', (l) => l.kind === kind)));
    });

    const db = new Date(s.db_time);
    const held = {};
    for (const l of s.leases) if (l.held) held[l.holder] = (held[l.holder] || 0) + 1;
    $('holders').textContent = Object.keys(held).length
      ? Object.entries(held).map(([h, n]) => `${h}: ${n} shards`).join(' · ')
      : 'no shard is leased: one embedded instance drains every shard, or none runs';
    rows($('instances'), s.instances, (tr, i) => {
      tr.dataset.instance = i.name;
      cell(tr, i.name === s.instance ? `${i.name} (this one)` : i.name);
      cell(tr, i.skew_ms === null ? 'not measured' : `${i.skew_ms} ms`, 'skew');
      cell(tr, i.skew_at === null ? '–' : `${((db - new Date(i.skew_at)) / 1e3).toFixed(1)} s ago`);
      cell(tr, i.shards.length ? i.shards.join(' ') : '–');
    });
    rows($('leases'), s.leases, (tr, l) => {
      tr.className = l.held ? 'held' : 'free';
      cell(tr, l.shard);
      cell(tr, l.held ? l.holder : '(free)');
      cell(tr, l.token);
      cell(tr, l.held ? `in ${((new Date(l.expires_at) - db) / 1e3).toFixed(1)} s` : '–');
    });
  }

  function drawRates() {
    const c = $('rate-chart'), g = c.getContext('2d');
    const pts = [];
    for (let i = 1; i < history.length; i++) {
      const a = history[i - 1], b = history[i];
      pts.push({ t: b.t, r: (b.expired - a.expired) / Math.max(0.001, (b.t - a.t) / 1e3) });
    }
    g.clearRect(0, 0, c.width, c.height);
    const max = Math.max(1, ...pts.map((p) => p.r));
    g.strokeStyle = '#d9534f';
    g.beginPath();
    pts.forEach((p, i) => {
      const x = c.width - ((history[history.length - 1].t - p.t) / 120e3) * c.width;
      const y = c.height - (p.r / max) * (c.height - 4) - 2;
      if (i === 0) g.moveTo(x, y); else g.lineTo(x, y);
    });
    g.stroke();
    g.fillStyle = '#6b7280';
    g.fillText(`max ${num(max)}/s, last 2 min`, 4, 10);
  }

  const replayed = {};
  async function sinks() {
    const r = await api('GET', '/v1/sinks');
    rows($('sinks'), r.sinks, (tr, s) => {
      tr.dataset.sink = s.name;
      cell(tr, s.name);
      cell(tr, s.type);
      cell(tr, num(s.lag));
      cell(tr, num(s.failures));
      cell(tr, num(s.dead_letters)).className = 'dead';
      cell(tr, num(s.queued));
      cell(tr, s.last_error || '', 'data').title = s.last_error || '';
      const td = cell(tr, '');
      const said = document.createElement('span');
      said.className = 'replayed';
      said.textContent = replayed[s.name] || '';
      td.append(said);
      button(td, 'Replay dead letters…', 'replay-' + s.name, () => attempt('act', async () => {
        const now = (await api('GET', '/v1/sinks')).sinks.find((x) => x.name === s.name);
        confirmThen(`replay the ${num(now.dead_letters)} dead letters of ${s.name}: each is queued to it again.`, async () => {
          const res = await api('POST', `/v1/sinks/${enc(s.name)}/replay`);
          replayed[s.name] = `${num(res.queued)} queued at ${new Date().toISOString().slice(11, 19)} `;
          sinks();
          return `${s.name}: ${replayed[s.name]}`;
        });
      })).disabled = s.dead_letters === 0;
    });
  }

  // confirmThen shows what an action will do and runs it once confirmed;
  // cancelled, it does nothing.
  let pending = null;
  function confirmThen(text, run) {
    $('confirm-text').textContent = text;
    $('confirm').hidden = false;
    pending = run;
  }
  $('confirm-yes').addEventListener('click', () => {
    const run = pending;
    pending = null;
    $('confirm').hidden = true;
    if (run) attempt('act', async () => { $('said').textContent = await run(); });
  });
  $('confirm-no').addEventListener('click', () => {
    pending = null;
    $('confirm').hidden = true;
    $('said').textContent = 'not confirmed: nothing done';
  });

  // Reconciliation: a check reads the drift and changes nothing; a
  // repair, confirmed against a fresh check's counts, puts back what it
  // can, each repair with its event.
  function showDrift(rec) {
    const found = Object.entries(rec.counts).filter(([, n]) => n > 0).map(([check, n]) => `${num(n)} ${check}`).join(', ');
    $('reconciled').textContent = `checked at ${rec.checked_at.slice(11, 19)} UTC: ${found || 'no drift'}` +
      (rec.repaired ? `; ${num(rec.repaired)} repaired` : '');
    rows($('drift'), rec.drift, (tr, d) => {
      tr.dataset.check = d.check;
      tr.dataset.subject = d.subject;
      tr.dataset.repaired = d.repaired;
      for (const v of [d.check, d.subject, d.detail, num(d.expected), num(d.actual), d.repairable ? 'yes' : 'no', d.repaired ? 'yes' : 'no']) cell(tr, v);
    });
    return rec;
  }
  $('reconcile-check').addEventListener('click', () => attempt('reconcile', async () => showDrift(await api('GET', '/v1/reconcile'))));
  $('reconcile-repair').addEventListener('click', () => attempt('reconcile', async () => {
    const rec = showDrift(await api('GET', '/v1/reconcile'));
    const repairable = rec.drift.filter((d) => d.repairable).length;
    confirmThen(`repair ${num(repairable)} of the ${num(rec.drift.length)} drifts just found (${$('reconciled').textContent}): each repair writes its event.`,
      async () => `${num(showDrift(await api('POST', '/v1/reconcile', { repair: true })).repaired)} drifts repaired`);
  }));

  // The operation the act form describes.
  function actOperation() {
    const kind = $('act-kind').value, target = $('act-target').value;
    const ids = $('act-ids').value.trim().split(/\s+/).filter((x) => x);
    const op = { kind, [target]: target === 'template_id' ? ids[0] || '' : ids };
    if (kind === 'void') op.reason = $('act-reason').value.trim();
    else op.by = $('act-by').value.trim();
    return op;
  }
  const STATES = ['unused', 'locked', 'used', 'expired', 'voided'];
  // countsText is coupons by state as the confirmations say them.
  const countsText = (counts) => STATES.map((st) => `${num(counts[st])} ${st}`).join(', ');
  // A bulk void or extension: its dry run's counts, then the operation.
  $('act').addEventListener('submit', (ev) => {
    ev.preventDefault();
    attempt('act', async () => {
      const op = actOperation();
      const dry = await api('POST', '/v1/operations', { ...op, dry_run: true });
      const what = op.kind === 'void' ? 'voids the unused ones now and the locked ones when their lock ends'
        : `moves the expiry of the unused and locked ones by ${op.by}`;
      confirmThen(`${op.kind} ${num(dry.total)} coupons (${countsText(dry.counts)}): it ${what}.`, async () => {
        const started = await api('POST', '/v1/operations', op);
        operations();
        return `operation ${started.id} started`;
      });
    });
  });

  // findCell adds a cell of id that finds it when clicked.
  function findCell(tr, id) {
    const a = document.createElement('a');
    a.href = '#find-box';
    a.textContent = id;
    a.addEventListener('click', () => {
      $('find-id').value = id;
      attempt('find', () => find(id));
    });
    cell(tr, '').append(a);
  }

  function button(td, text, id, onClick) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = text;
    if (id) b.id = id;
    b.addEventListener('click', onClick);
    td.append(b);
    return b;
  }

  async function templates() {
    const list = await api('GET', '/v1/templates?order=newest&limit=20');
    const full = await Promise.all(list.templates.map((t) => api('GET', `/v1/templates/${enc(t.id)}`)));
    rows($('templates'), full, (tr, t) => {
      tr.dataset.template = t.id;
      findCell(tr, t.id);
      cell(tr, t.name);
      for (const st of STATES) {
        cell(tr, num(t.counts ? t.counts[st] : 0)).dataset.state = st;
      }
      cell(tr, t.closed_at ? 'closed' : 'open', 'state');
      const td = cell(tr, '', 'actions');
      for (const kind of ['void', 'extend']) {
        button(td, kind === 'void' ? 'Void…' : 'Extend…', `${kind}-${t.id}`, () => {
          $('act-kind').value = kind;
          $('act-target').value = 'template_id';
          $('act-ids').value = t.id;
          $(kind === 'void' ? 'act-reason' : 'act-by').focus();
        });
      }
      if (!t.closed_at) {
        button(td, 'Close…', 'close-' + t.id, () => attempt('act', async () => {
          const now = await api('GET', `/v1/templates/${enc(t.id)}`);
          confirmThen(`close ${t.id} (${t.name}), whose coupons are ${countsText(now.counts)}: it takes no more claims nor issuance; its coupons stay as they are.`,
            async () => { await api('POST', `/v1/templates/${enc(t.id)}/close`, {}); templates(); return `${t.id} closed`; });
        }));
      }
    });
  }

  // Bulk operations, running and recent, with their progress; a running
  // one can be cancelled.
  async function operations() {
    const list = await api('GET', '/v1/operations?limit=20');
    rows($('operations'), list.operations, (tr, op) => {
      tr.dataset.operation = op.id;
      tr.dataset.state = op.state;
      findCell(tr, op.id);
      cell(tr, op.kind);
      const t = op.target;
      cell(tr, t.template_id || (t.coupon_ids ? `${t.coupon_ids.length} coupons` : `${(t.user_ids || []).length} users`));
      cell(tr, op.state, 'state');
      const td = cell(tr, '', 'progress');
      const bar = document.createElement('progress');
      bar.max = Math.max(1, op.progress.total);
      bar.value = op.progress.done;
      td.append(bar, ` ${num(op.progress.done)} / ${num(op.progress.total)}`);
      td.dataset.done = op.progress.done;
      td.dataset.total = op.progress.total;
      cell(tr, num(op.counts.voided), 'voided');
      cell(tr, num(op.counts.extended), 'extended');
      cell(tr, op.actor || '–', 'actor');
      cell(tr, op.created_at.slice(0, 19).replace('T', ' '));
      const act = cell(tr, '', 'actions');
      if (op.state === 'running') {
        button(act, 'Cancel…', 'cancel-' + op.id, () => attempt('act', async () => {
          const now = await api('GET', `/v1/operations/${enc(op.id)}`);
          confirmThen(`cancel ${op.id}, the ${op.kind} of ${tr.cells[2].textContent}, ${num(now.progress.done)} of ${num(now.progress.total)} done: ` +
            'it stops after its batch in flight; what it worked stays as it is.',
          async () => { const c = await api('POST', `/v1/operations/${enc(op.id)}/cancel`); operations(); return `${c.id} ${c.state}`; });
        }));
      }
    });
  }

  // The event feed from its head: the latest events, and what comes
  // after as it commits. A filter reads back from the head, a bounded
  // number of pages, for the latest events that pass it.
  let cursor = null, filterKey = null, latest = [];
  async function events() {
    const type = $('filter-type').value.trim(), subject = $('filter-subject').value.trim();
    const key = `${type}\n${subject}`;
    const query = (q) => {
      if (type) q.set('type', type);
      if (subject) q.set('subject', subject);
      return '/v1/events?' + q;
    };
    if (key !== filterKey) {
      filterKey = key;
      cursor = null;
      latest = [];
    }
    if (cursor === null) {
      let page = await api('GET', query(new URLSearchParams({ before: 'latest', limit: '1000' })));
      cursor = page.next;
      latest = page.events;
      for (let i = 0; i < 10 && latest.length < 25 && page.prev !== '0'; i++) {
        page = await api('GET', query(new URLSearchParams({ before: page.prev, limit: '1000' })));
        latest = page.events.concat(latest);
      }
      latest = latest.slice(-25);
    }
    for (let i = 0; i < 50; i++) {
      const page = await api('GET', query(new URLSearchParams({ after: cursor, limit: '1000' })));
      latest = latest.concat(page.events).slice(-25);
      const moved = page.next !== cursor;
      cursor = page.next;
      if (!moved) break;
    }
    rows($('events'), [...latest].reverse(), (tr, e) => {
      tr.dataset.type = e.type;
      tr.dataset.subject = e.subject;
      cell(tr, e.time.slice(11, 23));
      cell(tr, e.type);
      findCell(tr, e.subject);
      cell(tr, JSON.stringify(e.data), 'data').title = JSON.stringify(e.data);
    });
  }

  // Find: an entity by ID, shown as the API answers it, with tables of
  // what it holds: a coupon or an order its history (its events, oldest
  // first, read back from the feed's head a bounded number of pages), an
  // order its items and coupons, a template its counts by state and its
  // operations, a user the wallet a page at a time.
  let more = null;
  // table adds to the find's answer a table, titled, of the columns
  // heads, and returns its body.
  function table(id, title, heads) {
    const h = document.createElement('h3');
    h.textContent = title;
    const t = document.createElement('table');
    t.id = id;
    const tr = t.createTHead().insertRow();
    for (const head of heads) tr.appendChild(document.createElement('th')).textContent = head;
    $('found-tables').append(h, t);
    return t.createTBody();
  }
  async function historyOf(subject) {
    const q = (before) => '/v1/events?' + new URLSearchParams({ before, limit: '1000', subject });
    let page = await api('GET', q('latest'));
    let evs = page.events;
    for (let i = 0; i < 20 && page.prev !== '0'; i++) {
      page = await api('GET', q(page.prev));
      evs = page.events.concat(evs);
    }
    const title = page.prev === '0' ? 'history, oldest first' : 'history, oldest first (the latest 21,000 events of the feed searched)';
    rows(table('found-history', title, ['event', 'type', 'time', 'data']), evs, (tr, e) => {
      tr.dataset.type = e.type;
      cell(tr, e.id);
      cell(tr, e.type);
      cell(tr, at(e.time));
      cell(tr, JSON.stringify(e.data), 'data').title = JSON.stringify(e.data);
    });
  }
  const couponRow = (tr, c) => {
    tr.dataset.coupon = c.id;
    findCell(tr, c.id);
    for (const v of [c.status, at(c.expires_at)]) cell(tr, v);
    findCell(tr, c.template_id);
  };
  async function findOrder(id) {
    const o = await api('GET', `/v1/orders/${enc(id)}`);
    const coupons = await Promise.all(o.coupon_ids.map((c) => api('GET', `/v1/coupons/${enc(c)}`)));
    rows(table('found-items', 'items', ['sku', 'qty', 'unit price', 'amount']), o.items, (tr, it) => {
      for (const v of [it.sku, num(it.qty), num(it.unit_price), num(it.qty * it.unit_price)]) cell(tr, v);
    });
    rows(table('found-coupons', 'coupons', ['coupon', 'status', 'expires', 'template']), coupons, couponRow);
    await historyOf(id);
    return o;
  }
  // findTemplate shows a template's storm (the ten busiest minutes of
  // its next 24 h) and its operations among the latest 500.
  async function findTemplate(id) {
    const t = await api('GET', `/v1/templates/${enc(id)}`);
    rows(table('found-counts', 'coupons by state', STATES), [t.counts], (tr, counts) => {
      for (const st of STATES) cell(tr, num(counts[st])).dataset.state = st;
    });
    const storm = await api('GET', '/v1/console/forecast?' + new URLSearchParams({ template: id }));
    const busiest = storm.due.sort((a, b) => b.count - a.count || a.minute - b.minute).slice(0, 10);
    rows(table('found-storm', 'its storm: the busiest minutes of the next 24 h', ['minute (UTC)', 'kind', 'count']), busiest, (tr, d) => {
      for (const v of [at(d.at).slice(0, 16), d.kind, num(d.count)]) cell(tr, v);
    });
    const ops = [];
    for (let after = '', i = 0; i < 5; i++) {
      const page = await api('GET', '/v1/operations?' + new URLSearchParams({ after, limit: '100' }));
      ops.push(...page.operations.filter((op) => op.target.template_id === id));
      if (page.operations.length < 100) break;
      after = page.next;
    }
    rows(table('found-operations', 'operations, newest first', ['operation', 'kind', 'state', 'created', 'progress']), ops, (tr, op) => {
      findCell(tr, op.id);
      for (const v of [op.kind, op.state, at(op.created_at), `${op.progress.done} / ${op.progress.total}`]) cell(tr, v);
    });
    return t;
  }
  async function findUser(id) {
    const user = await api('GET', `/v1/users/${enc(id)}`).catch(() => ({ id, profile: 'none stored' }));
    const wallet = [];
    const tbody = table('found-wallet', 'wallet, by coupon ID', ['coupon', 'status', 'expires', 'template']);
    more = async () => {
      const after = wallet.length ? wallet[wallet.length - 1].id : '';
      const page = await api('GET', `/v1/users/${enc(id)}/coupons?` + new URLSearchParams({ after, limit: '50' }));
      wallet.push(...page.coupons);
      $('found-more').hidden = page.coupons.length < 50;
      rows(tbody, wallet, couponRow);
    };
    await more();
    return user;
  }
  async function find(id) {
    $('found-more').hidden = true;
    $('found').replaceChildren();
    $('found-tables').replaceChildren();
    more = null;
    let found;
    if (id.startsWith('cpn_')) {
      found = await api('GET', `/v1/coupons/${enc(id)}`);
      await historyOf(id);
    } else if (id.startsWith('ord_')) {
      found = await findOrder(id);
    } else if (id.startsWith('op_')) {
      found = await api('GET', `/v1/operations/${enc(id)}`);
    } else if (id.startsWith('tpl_')) {
      found = await findTemplate(id);
    } else {
      found = await findUser(id);
    }
    // The fields shown in a table of their own are left out.
    const apart = id.startsWith('ord_') ? ['items', 'coupon_ids'] : id.startsWith('tpl_') ? ['counts'] : [];
    $('found').replaceChildren(...Object.entries(found).filter(([k]) => !apart.includes(k)).flatMap(([k, v]) => {
      const dt = document.createElement('dt'), dd = document.createElement('dd');
      dt.textContent = k;
      dd.textContent = v === null ? '–' : typeof v === 'object' ? JSON.stringify(v) : v;
      dd.dataset.field = k;
      return [dt, dd];
    }));
  }
  $('find').addEventListener('submit', (ev) => {
    ev.preventDefault();
    attempt('find', () => find($('find-id').value.trim()));
  });
  $('found-more').addEventListener('click', () => attempt('find', () => more && more()));

  every(30000, 'forecast', forecast); // minutes: a read of every pending item, see the README
  every(1000, 'status', status);
  every(2000, 'sinks', sinks);
  every(5000, 'templates', templates);
  every(1000, 'operations', operations);
  every(1000, 'events', events);
})();
