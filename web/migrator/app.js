// The review page: a client of the public /api/v1 API only. The token lives
// in sessionStorage (this tab); nothing else is stored. Every text from the
// API is set with textContent, never parsed as HTML.
'use strict';

const API = '/api/v1';
const TOKEN_KEY = 'migrator.token';
// A run in one of these states is at work: the page reads it again every 1.5 seconds.
const ACTIVE = ['pending', 'discovering', 'executing', 'reverting'];
const FINDING = ['pending', 'discovering'];
// A run in one of these states is over: the finish section shows what it did (failed and cancelled runs only
// when they imported something).
const FINAL = ['completed', 'completed_with_errors', 'failed', 'cancelled'];
// A finished run whose imports can be undone (POST …/revert): completed, or failed or cancelled after it imported
// something (the service also takes one of those that imported nothing, which has nothing to undo).
const REVERTIBLE = ['completed', 'completed_with_errors'];

// What a person reads for each API value; a value missing here (added to the API later) shows as it is.
const PROVIDER_NAMES = {
  uptimerobot: 'UptimeRobot', pingdom: 'Pingdom', statuscake: 'StatusCake', better_stack: 'Better Stack',
  updown: 'updown.io', healthchecks: 'Healthchecks.io', cronitor: 'Cronitor', statuspage: 'Statuspage',
  whmcs: 'WHMCS',
};
// Resource kinds (the importer's table of kinds, src/importers/importer.c): singular and plural.
const KINDS = {
  monitor: ['monitor', 'monitors'], heartbeat: ['heartbeat', 'heartbeats'], contact: ['contact', 'contacts'],
  maintenance_window: ['maintenance window', 'maintenance windows'], status_page: ['status page', 'status pages'],
  status_page_subscriber: ['status page subscriber', 'status page subscribers'],
  hosting_client: ['hosting client', 'hosting clients'], hosting_contact: ['client contact', 'client contacts'],
  hosting_service: ['hosting service', 'hosting services'], hosting_addon: ['hosting addon', 'hosting addons'],
  hosting_domain: ['hosting domain', 'hosting domains'], invoice: ['invoice', 'invoices'],
  payment: ['payment', 'payments'],
};
const RUN_STATES = {
  pending: 'Queued', discovering: 'Discovering', awaiting_review: 'Awaiting review', executing: 'Importing',
  paused_conflicts: 'Paused on conflicts', completed: 'Completed', completed_with_errors: 'Completed with errors',
  failed: 'Failed', cancelled: 'Cancelled', reverting: 'Reverting', reverted: 'Reverted',
};
const RESOURCE_STATES = {
  pending: 'Pending', running: 'Importing', imported: 'Imported', skipped: 'Skipped', conflict: 'Conflict',
  failed: 'Failed', excluded: 'Excluded',
};
const ACTIONS = { create: 'Create', update: 'Update', skip: 'Skip', conflict: 'Conflict' };
const LEVELS = { info: 'Info', warning: 'Warning', error: 'Error' };
// The finish section's heading per final state, and the report's to-do tasks (its groups, in this order; "the
// provider" reads as the run's provider by name).
const FINISH_TITLES = { completed: 'Done', completed_with_errors: 'Done, with errors',
  failed: 'Stopped by a failure: what was done', cancelled: 'Cancelled: what was done', reverted: 'Reverted' };
const TASKS = { ping: 'Point your jobs at their new checks', add_address: 'Add the addresses the provider does not show',
  enter_again: 'Enter these logins again', add_by_hand: 'Add by hand', retry: 'Retry or add by hand' };
const MONITOR_TYPES = {
  http: 'HTTP', keyword: 'keyword', ping: 'ping', port: 'port', dns: 'DNS', tcp: 'TCP', udp: 'UDP', smtp: 'SMTP',
  pop3: 'POP3', imap: 'IMAP', ssh: 'SSH', api: 'API', other: 'other',
};
// contacts' types and status page subscribers' kinds
const CONTACT_TYPES = {
  email: 'email', sms: 'SMS', voice: 'voice call', webhook: 'webhook', slack: 'Slack', teams: 'Microsoft Teams',
  telegram: 'Telegram', discord: 'Discord', pagerduty: 'PagerDuty', opsgenie: 'Opsgenie', pushover: 'Pushover',
  push: 'push notification', other: 'other',
};
// The preview's account columns (docs/review.md "What each resource becomes"): label and how the value reads;
// "kind.column" where a kind reads a column its own way. A column missing here shows by its API name.
const PREVIEW = {
  name: ['Name'], type: ['Type'], url: ['URL'], port: ['Port'], interval_s: ['Check interval', 'seconds'],
  'heartbeat.interval_s': ['Expected every', 'seconds'], timeout_s: ['Timeout', 'seconds'],
  http_method: ['HTTP method'], request_headers: ['Request headers', 'names'], request_body: ['Request body'],
  expected_status_codes: ['Expected status codes', 'list'], follow_redirects: ['Follows redirects', 'yes'],
  verify_ssl: ['Verifies the SSL certificate', 'yes'], ssl_expiry_days: ['Warns before SSL expiry', 'days'],
  regions: ['Regions', 'list'], paused: ['Paused', 'yes'], grace_s: ['Grace period', 'seconds'],
  schedule: ['Schedule'], timezone: ['Time zone'], ping_url: ['Ping URL'], value: ['Address'],
  needs_address: ['Needs an address', 'yes'], public: ['Public', 'yes'], entries: ['Entries'],
  recurrence: ['Recurrence'], starts: ['Starts'], ends: ['Ends'], duration_min: ['Duration', 'minutes'],
  days: ['Days', 'list'], monitors: ['Monitors'], heartbeats: ['Heartbeats'], kind: ['Kind'], address: ['Address'],
  state: ['State'], components: ['Components'], first_name: ['First name'], last_name: ['Last name'],
  company: ['Company'], email: ['Email'], status: ['Status'], currency: ['Currency'], credit: ['Credit', 'amount'],
  product: ['Product'], domain: ['Domain'], billing_cycle: ['Billing cycle'], amount: ['Amount', 'amount'],
  first_amount: ['First amount', 'amount'], setup_fee: ['Setup fee', 'amount'], next_due: ['Next due'],
  registrar: ['Registrar'], expiry: ['Expires'], period_years: ['Period', 'years'], auto_renew: ['Renews', 'yes'],
  number: ['Number'], invoice_date: ['Invoice date'], due: ['Due'], paid_at: ['Paid'],
  subtotal: ['Subtotal', 'amount'], tax: ['Tax', 'amount'], total: ['Total', 'amount'],
  balance: ['Balance', 'amount'], lines: ['Lines'], paid_on: ['Paid on'], gateway: ['Gateway'],
  transaction_id: ['Transaction'], description: ['Description'], amount_in: ['Amount in', 'amount'],
  fees: ['Fees', 'amount'], amount_out: ['Amount out', 'amount'],
};
// A secret the API names but never shows (a request body, a ping URL, a webhook address).
const NOT_SHOWN = '(not shown)';
// Credential fields per provider (README "Credentials per provider"): name, label, required, secret, hint.
// required null: WHMCS's address, which the user gives unless an administrator set it ([provider.whmcs]
// base_url; then the service refuses the field), so the page leaves it to the service to say it is missing.
const CREDENTIALS = {
  uptimerobot: [['api_key', 'API key', true, true]],
  pingdom: [['api_token', 'API token', true, true]],
  statuscake: [['api_token', 'API token', true, true]],
  better_stack: [['api_token', 'API token', true, true], ['team_name', 'Team name (global tokens)', false, false]],
  updown: [['api_key', 'API key', true, true]],
  healthchecks: [['api_key', 'API key', true, true], ['base_url', 'Healthchecks address (self-hosted)', false, false,
    'Your own instance, e.g. https://hc.example.com; leave empty for healthchecks.io.']],
  cronitor: [['api_key', 'API key', true, true]],
  statuspage: [['api_key', 'API key', true, true], ['page_id', 'Page id (else every page)', false, false]],
  whmcs: [['url', 'WHMCS URL', null, false,
    'The address of your WHMCS, e.g. https://billing.example.com (needed unless your administrator set it).'],
  ['api_identifier', 'API identifier', true, false], ['api_secret', 'API secret', true, true],
  ['access_key', 'Access key', false, true]],
};
// The resource list's filters: query name, form control, label.
const FILTERS = [['status', 'f-status', 'Status'], ['resource_type', 'f-type', 'Type'],
  ['action', 'f-action', 'Action'], ['q', 'f-q', 'Name contains']];

const $ = (id) => document.getElementById(id);
const state = {
  me: null, runsPage: 1, run: null, counts: {}, plan: {}, dropped: null, resPage: 1, logPage: 1, timer: null,
  selected: new Map(), opened: new Set(), filter: {}, matching: 0, noticeRun: null, seen: null, onConfirm: null,
  finished: null, watched: false,
};

function token() { return sessionStorage.getItem(TOKEN_KEY); }
function can(scope) { return !!state.me && state.me.scopes.includes(scope); }

function named(table, value) { return table[value] || value; }
function providerName(id) { return named(PROVIDER_NAMES, id); }
function kindName(type) { return (KINDS[type] || [type])[0]; }
function capital(text) { return text.charAt(0).toUpperCase() + text.slice(1); }
// "1 monitor", "12 monitors"; a kind not in KINDS keeps its API name.
function countOf(n, type) { const k = KINDS[type] || [type, type]; return n + ' ' + (n === 1 ? k[0] : k[1]); }
function plural(n, one, many) { return n + ' ' + (n === 1 ? one : many); }
function listOf(items) { return new Intl.ListFormat('en', { type: 'conjunction' }).format(items); }

// One message at the top; it stays until the next action.
function notice(text, kind) {
  const n = $('notice');
  n.textContent = text || '';
  n.hidden = !text;
  n.className = kind || 'error';
  state.noticeRun = null;
}

// A message about the open run that holds while the run is in the status it is in now: it goes when the
// status moves on or the page leaves the run. With holds, it is shown only while the run is in that status
// (the one an action put the run in; a runner may have moved it on already).
function runNotice(text, holds) {
  if (holds && state.run.status !== holds) return;
  notice(text, 'info');
  state.noticeRun = { id: state.run.id, status: state.run.status };
}

class ApiError extends Error {
  constructor(status, body) {
    super((body && body.message) || ('HTTP ' + status));
    this.status = status;
    this.body = body || {};
  }
}

async function api(method, path, body) {
  const headers = { Accept: 'application/json', Authorization: 'Bearer ' + token() };
  const init = { method, headers };
  if (method !== 'GET') {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body || {});
  }
  const r = await fetch(API + path, init);
  let json = null;
  if (r.status !== 204) {
    try { json = await r.json(); } catch (e) { json = null; }
  }
  if (!r.ok) throw new ApiError(r.status, json);
  return json;
}

// The label a person knows for an API field name of a request body or query.
function fieldLabel(field) {
  if (field === 'provider') return 'Provider';
  if (field === 'options.import_paused') return 'Import paused';
  const cred = /^credentials\.(.+)$/.exec(field);
  if (cred) {
    const f = (CREDENTIALS[$('provider').value] || []).find((c) => c[0] === cred[1]);
    return f ? f[1] : cred[1];
  }
  const filter = FILTERS.find((f) => f[0] === field);
  if (filter) return filter[2];
  return field === 'ids' || field === 'resource_ids' ? 'Selection' : field;
}

// An API field message in the words of the form: "The credentials.url field is required." → "This field is
// required.", any other mention of the field → its label.
function fieldMessage(field, message) {
  return message.split('The ' + field + ' field').join('This field').split(field).join(fieldLabel(field));
}

// A clear message for an API error; a rejected token sends the user back to sign in.
function explain(err) {
  if (!(err instanceof ApiError)) return notice('The service could not be reached: ' + err.message);
  if (err.status === 401) {
    sessionStorage.removeItem(TOKEN_KEY);
    show('login');
    $('token').focus();
    return notice('The token was not accepted (missing, invalid or revoked). Paste a valid one.');
  }
  if (err.body.code === 'feature_disabled')
    return notice('The migrator module is disabled for this account. Ask an administrator to turn it on.');
  let text = err.message;
  const fields = err.body.errors || {};
  for (const f of Object.keys(fields)) text += ' ' + fieldLabel(f) + ': ' + fieldMessage(f, fields[f].join(' '));
  notice(text);
}

function show(section) {
  for (const id of ['login', 'runs', 'start', 'run']) $(id).hidden = id !== section;
  $('who').hidden = section === 'login';
  $('scope-note').hidden = section === 'login' || !$('scope-note').textContent;
  if (section !== 'run') {
    stopPolling();
    if (state.noticeRun) notice('');
  }
}

function el(tag, text, attrs) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  for (const k of Object.keys(attrs || {})) e.setAttribute(k, attrs[k]);
  return e;
}

// A table cell; label names its column where the phone layout stacks the cells.
function cell(content, label) {
  const td = el('td', null, label ? { 'data-label': label } : {});
  td.append(content);
  return td;
}

function emptyRow(tbody, text) {
  const tr = el('tr');
  tr.append(el('td', text, { colspan: '7' }));
  tbody.append(tr);
}

const TIME = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit',
  minute: '2-digit', timeZoneName: 'short' });
const TIME_S = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit',
  minute: '2-digit', second: '2-digit', timeZoneName: 'short' });

// A <time> in the browser's zone, with the zone's name; the API's UTC value stays in its datetime.
function when(iso, seconds) {
  if (!iso) return el('span', '–');
  return el('time', (seconds ? TIME_S : TIME).format(new Date(iso)), { datetime: iso });
}

function pager(nav, links, meta, go) {
  nav.replaceChildren();
  const prev = el('button', 'Previous', { type: 'button' });
  prev.disabled = !links.prev;
  prev.addEventListener('click', () => go(-1));
  const next = el('button', 'Next', { type: 'button' });
  next.disabled = !links.next;
  next.addEventListener('click', () => go(1));
  const where = meta.last_page ? 'Page ' + meta.current_page + ' of ' + meta.last_page + ' (' + meta.total + ')'
    : 'Page ' + meta.current_page;
  nav.append(prev, el('span', where), next);
}

// ---- sign in

async function signIn(value) {
  sessionStorage.setItem(TOKEN_KEY, value);
  try {
    state.me = (await api('GET', '/me')).data;
  } catch (err) {
    state.me = null;
    return explain(err);
  }
  $('who-name').textContent = state.me.name + ' (' +
    (state.me.scopes.filter((x) => x.startsWith('account:')).join(', ') || 'no account scopes') + ')';
  notice('');
  $('scope-note').textContent = !can('account:read')
    ? 'This token lacks the account:read scope, so it cannot list or review migrations.'
    : !can('account:write')
      ? 'This token is read-only (no account:write): you can review runs but not start, execute or change them.'
      : '';
  $('show-start').disabled = !can('account:write') || !can('account:read');
  if (!can('account:read')) {
    show('runs');
    $('runs-table').hidden = true;
    return;
  }
  await loadRuns();
}

// ---- runs

async function loadRuns() {
  let body;
  try {
    body = await api('GET', '/migrations?per_page=20&page=' + state.runsPage);
  } catch (err) {
    show('runs');
    return explain(err);
  }
  show('runs');
  $('runs-table').hidden = false;
  const tbody = $('runs-table').tBodies[0];
  tbody.replaceChildren();
  for (const r of body.data) {
    const tr = el('tr');
    const started = when(r.created_at);
    const open = el('button', 'Open', { type: 'button', 'data-run': r.id,
      'aria-label': 'Open the ' + providerName(r.provider) + ' migration of ' + started.textContent });
    open.addEventListener('click', () => openRun(r.id));
    tr.append(cell(started, 'Started'), cell(providerName(r.provider), 'Provider'),
      cell(named(RUN_STATES, r.status), 'Status'), cell(String(r.total_resources), 'Resources'),
      cell(String(r.failed_resources), 'Failed'), cell(open));
    tbody.append(tr);
  }
  if (!body.data.length) emptyRow(tbody, 'No runs yet.');
  pager($('runs-pager'), body.links, body.meta, (d) => { state.runsPage += d; loadRuns(); });
}

// ---- start

function credFields() {
  const box = $('cred-fields');
  box.replaceChildren(el('legend', 'Credentials'));
  for (const [name, label, required, secret, hint] of CREDENTIALS[$('provider').value]) {
    const id = 'cred-' + name;
    box.append(el('label', label + (required === false ? ' (optional)' : ''), { for: id }));
    const input = el('input', null, { id, name, type: secret ? 'password' : 'text', autocomplete: 'off',
      spellcheck: 'false', 'data-api': 'credentials.' + name });
    input.required = required === true;
    box.append(input);
    if (hint) {
      box.append(el('p', hint, { id: id + '-hint', class: 'hint' }));
      input.setAttribute('aria-describedby', id + '-hint');
    }
  }
}

function clearFieldErrors() {
  for (const e of $('start-form').querySelectorAll('.field-error')) e.remove();
  for (const input of $('start-form').querySelectorAll('[aria-invalid]')) {
    input.removeAttribute('aria-invalid');
    const hint = $(input.id + '-hint');
    if (hint) input.setAttribute('aria-describedby', hint.id); else input.removeAttribute('aria-describedby');
  }
}

// A 422's field messages next to their fields, with the fields' labels; returns the first field marked.
function showFieldErrors(errors) {
  let first = null;
  for (const field of Object.keys(errors)) {
    const input = $('start-form').querySelector('[data-api="' + CSS.escape(field) + '"]');
    if (!input) continue;
    const msg = el('p', fieldLabel(field) + ': ' + fieldMessage(field, errors[field].join(' ')),
      { id: input.id + '-error', class: 'field-error' });
    (input.type === 'checkbox' ? input.parentElement : input).after(msg);
    input.setAttribute('aria-invalid', 'true');
    input.setAttribute('aria-describedby', (msg.id + ' ' + (input.getAttribute('aria-describedby') || '')).trim());
    first = first || input;
  }
  return first;
}

async function startRun(ev) {
  ev.preventDefault();
  notice('');
  clearFieldErrors();
  const credentials = {};
  for (const [name] of CREDENTIALS[$('provider').value]) {
    const v = $('cred-' + name).value;
    if (v !== '') credentials[name] = v;
  }
  const body = { provider: $('provider').value, credentials,
    options: { import_paused: $('import-paused').checked } };
  let r;
  try {
    r = await api('POST', '/migrations', body);
  } catch (err) {
    // every field keeps what was typed, so that one mistake is one correction
    explain(err);
    const first = err instanceof ApiError && err.status === 422 ? showFieldErrors(err.body.errors || {}) : null;
    if (first) first.focus();
    return;
  }
  for (const input of $('cred-fields').querySelectorAll('input')) input.value = '';
  await openRun(r.data.id);
  runNotice('Run started; it waits for the runner to read ' + providerName(r.data.provider) + '.', 'pending');
}

// ---- one run

function stopPolling() {
  if (state.timer) clearTimeout(state.timer);
  state.timer = null;
}

async function openRun(id) {
  notice('');
  state.run = { id };
  state.counts = {};
  state.plan = {};
  state.dropped = null;
  state.seen = null;
  state.finished = null;
  state.watched = false;
  $('run-finish').hidden = true;
  state.resPage = 1;
  state.logPage = 1;
  state.selected.clear();
  state.opened.clear();
  state.filter = {};
  $('filters').reset();
  $('dropped-all').setAttribute('aria-expanded', 'false');
  $('run-title').textContent = ''; // not the run shown before, until this one is read
  $('run-meta').replaceChildren();
  delete $('run').dataset.run;
  show('run');
  await refreshRun();
  $('run-title').focus();
}

// The run, its resource counts per status and its plan's per action. While the run is active it is read from the runs list (its row, filtered
// by its status and provider, is a few hundred bytes; the run detail carries up to 500 resources the page
// does not show); when the row is not there (the status moved on) the detail is read.
async function readRun(id) {
  const known = state.run;
  if (known && known.id === id && ACTIVE.includes(known.status)) {
    const list = await api('GET', '/migrations?per_page=100&status=' + known.status + '&provider=' + known.provider);
    const row = list.data.find((r) => r.id === id);
    // while active, only the failed count changes (excluding and including wait for review; the plan
    // shows at review)
    if (row) {
      return { run: row, counts: Object.assign({}, state.counts, { failed: row.failed_resources }),
        plan: state.plan, dropped: state.dropped };
    }
  }
  const body = await api('GET', '/migrations/' + id);
  return { run: body.data, counts: body.meta.resource_counts, plan: body.meta.action_counts || {},
    dropped: droppedOf(body) };
}

// From the run detail, once discovery is over: the fields that will not carry over (meta.dropped) and the
// kinds whose fields the provider has not listed yet (resources with dropped null, of the up to 500 the
// detail carries); null before.
function droppedOf(body) {
  if (!body.meta.dropped) return null;
  const unlisted = new Set(body.data.resources.filter((r) => r.dropped === null && r.status !== 'excluded')
    .map((r) => r.resource_type));
  return { rows: body.meta.dropped, unlisted: Array.from(unlisted).sort() };
}

async function refreshRun() {
  stopPolling();
  let read;
  try {
    read = await readRun(state.run.id);
  } catch (err) {
    return explain(err);
  }
  const { run, counts, plan, dropped } = read;
  state.run = run;
  state.counts = counts;
  state.plan = plan;
  state.dropped = dropped;
  if (state.noticeRun && (state.noticeRun.id !== run.id || state.noticeRun.status !== run.status)) notice('');
  $('run-title').textContent = providerName(run.provider) + ' migration';
  const started = when(run.created_at);
  $('run-meta').replaceChildren('Started ', started, ' · run ', el('code', run.id));
  $('run').dataset.run = run.id;
  $('run-status').textContent = 'Status: ' + named(RUN_STATES, run.status) +
    (run.error_message ? ' – ' + run.error_message : '');
  $('run-status').dataset.status = run.status;
  renderProgress(run, counts, plan);
  renderDropped(run);
  renderActions(run, counts);
  if (ACTIVE.includes(run.status)) state.timer = setTimeout(refreshRun, 1500);
  await finish(run, counts);
  // the resource and log pages are read again only when the run shows a change (a runner that waits on a
  // provider's rate limit changes nothing for minutes)
  const seen = JSON.stringify([run.status, run.stats, counts]);
  if (seen === state.seen) return;
  state.seen = seen;
  await Promise.all([loadResources(), loadLog()]);
}

// What the runner does now (stats.activity, while planning or importing): "Importing: 40 of 200, about
// 2 min left."
function activityText(a) {
  const what = { planning: 'Planning what each will become', importing: 'Importing' }[a.doing] || capital(a.doing);
  return what + ': ' + a.done + (a.total === undefined ? '' : ' of ' + a.total) + timeLeft(a) + '.';
}

// ", about 8 minutes left" from an activity's eta_s; '' when the runner cannot tell yet.
function timeLeft(a) {
  if (a.eta_s === null || a.eta_s === undefined) return '';
  return ', about ' + (a.eta_s < 90 ? plural(a.eta_s, 'second', 'seconds') : Math.round(a.eta_s / 60) + ' minutes') +
    ' left';
}

// A revert at work (stats.activity with doing "reverting"): "Reverting: 2 of 5 objects done, about 3 seconds
// left."; before the runner has taken it up, that it waits for the runner.
function revertingText(a) {
  if (!a || a.doing !== 'reverting') return 'Waiting for the runner to start the revert…';
  return 'Reverting: ' + a.done + ' of ' + plural(a.total, 'object', 'objects') + ' done' + timeLeft(a) + '.';
}

// What a revert did (stats.revert) in words: "9 created objects deleted, 2 put back as they were; 1 changed since
// and kept (see the log)." Only the ones not reverted that there are; those the log names send to it.
function revertWords(rv) {
  if (!rv) return 'The run was reverted.';
  if (!rv.objects) return 'The run had written nothing into your account: there was nothing to delete or put back.';
  const done = [plural(rv.deleted, 'created object', 'created objects') + ' deleted'];
  if (rv.restored) done.push(rv.restored + (rv.restored === 1 ? ' put back as it was' : ' put back as they were'));
  const not = [];
  if (rv.kept) not.push(rv.kept + ' changed since and kept');
  if (rv.left) not.push(rv.left + (rv.left === 1 ? ' imported again by a later run and left to it'
    : ' imported again by later runs and left to them'));
  if (rv.gone) not.push(rv.gone + ' deleted since');
  return done.join(', ') + (not.length ? '; ' + listOf(not) + (rv.kept || rv.left ? ' (see the log)' : '') : '') + '.';
}

function renderProgress(run, counts, plan) {
  const s = run.stats || {};
  const disc = s.discovered || {};
  const found = listOf(Object.keys(disc).filter((k) => disc[k] > 0).sort().map((k) => countOf(disc[k], k)));
  const bar = $('run-progress');
  let text;
  if (FINDING.includes(run.status)) {
    bar.removeAttribute('value'); // indeterminate while the provider is read
    if (run.status === 'pending') text = 'Waiting for the runner to read ' + providerName(run.provider) + '…';
    else if (s.activity && s.activity.doing === 'planning') text = 'Found ' + (found || 'nothing') + '.';
    else text = 'Reading ' + providerName(run.provider) + (found ? ': ' + found + ' so far' : '') + '…';
  } else if (run.status === 'awaiting_review') {
    bar.value = 0;
    text = 'Found ' + (found || 'nothing') + '. Planned: ' + (plan.create || 0) + ' to create, ' + (plan.update || 0) +
      ' to update, ' + (plan.skip || 0) + ' to skip, ' + plural(plan.conflict || 0, 'conflict', 'conflicts') +
      '; excluded ' + (counts.excluded || 0) + '.';
    if (plan.conflict > 0) text += ' Exclude the conflicts, or execute and choose what to do with them when the run pauses.';
  } else if (run.status === 'reverting') {
    const a = s.activity && s.activity.doing === 'reverting' ? s.activity : null;
    if (a && a.total > 0) bar.value = a.done / a.total; else bar.removeAttribute('value');
    text = revertingText(a);
  } else {
    bar.value = run.status === 'reverted' ? 1 : s.progress || 0;
    text = 'Found ' + (found || 'nothing') + '. ' + (run.status === 'reverted' ? 'Before the revert: imported '
      : 'Imported ') + (s.imported || 0) + ', skipped ' + (s.skipped || 0) + ', failed ' + (s.failed || 0) +
      ', excluded ' + (counts.excluded || 0) + '.';
  }
  if (s.activity && !['discovering', 'reverting'].includes(s.activity.doing)) text += ' ' + activityText(s.activity);
  if (s.waiting) text += ' Waiting for ' + providerName(s.waiting.provider) + ' until ' + when(s.waiting.until, true)
    .textContent + '.';
  if (run.options && run.options.import_paused) text += ' Monitors and heartbeats are imported paused.';
  $('run-summary').textContent = text;
}

// At review: the fields that will not carry over, per kind and field, the most first; the first 10 until all
// are asked for.
function renderDropped(run) {
  const d = state.dropped;
  $('run-dropped').hidden = run.status !== 'awaiting_review' || !d || (!d.rows.length && !d.unlisted.length);
  if ($('run-dropped').hidden) return;
  const all = $('dropped-all').getAttribute('aria-expanded') === 'true';
  $('dropped-list').replaceChildren(...(all ? d.rows : d.rows.slice(0, 10)).map((x) => el('li', x.field + ' (' +
    kindName(x.resource_type) + '): ' + plural(x.resources, 'resource', 'resources') + ' — ' + x.reason)));
  if (d.unlisted.length) {
    $('dropped-list').append(el('li', 'Not listed for this provider yet: ' +
      listOf(d.unlisted.map((k) => (KINDS[k] || [k, k])[1])) + '.'));
  }
  $('dropped-all').hidden = d.rows.length <= 10;
  $('dropped-all').textContent = all ? 'Show the first 10' : 'Show all ' + d.rows.length;
}

// ---- the finish: what the run did and what is left to do (GET …/report)

// The report is read once when the run reaches a final state (again only when it leaves it, e.g. for a retry,
// and comes back); a reverted run's finish says what the revert did, from the run itself. When the page saw the
// run at work (importing or reverting), the focus moves to the finish heading, unless the person is busy
// elsewhere on the page (the list, the filters, the log, a dialog): then it stays, and the status line
// (aria-live) says the run ended.
async function finish(run, counts) {
  if (run.status === 'reverted') {
    if (state.finished === run.status) return;
    state.finished = run.status;
    renderReverted(run);
    return finishShown();
  }
  const over = FINAL.includes(run.status) && (run.status.startsWith('completed') || counts.imported > 0);
  if (!over) {
    state.finished = null;
    $('run-finish').hidden = true;
    if (ACTIVE.includes(run.status)) state.watched = true;
    return;
  }
  if (state.finished === run.status) return;
  state.finished = run.status;
  let report;
  try {
    report = (await api('GET', '/migrations/' + run.id + '/report')).data;
  } catch (err) {
    state.finished = null;
    return explain(err);
  }
  if (!state.run || state.run.id !== run.id || $('run').hidden) return; // the page left the run meanwhile
  renderFinish(report);
  finishShown();
}

// The finish section has just been drawn: the focus goes to its heading when the page watched the run at work and
// the person is not busy elsewhere.
function finishShown() {
  const a = document.activeElement;
  const idle = !a || a === document.body || a === $('run-title') || $('run-actions').contains(a) ||
    $('resolve').contains(a);
  if (state.watched && idle && !document.querySelector('dialog[open]')) $('finish-title').focus();
  state.watched = false;
}

// "22 resources: 19 created, 2 updated, 1 skipped, 0 failed, 1 excluded." (excluded and not done only when some)
function outcomeWords(o) {
  const total = ['created', 'updated', 'skipped', 'failed', 'excluded', 'not_done'].reduce((n, k) => n + (o[k] || 0), 0);
  const parts = [o.created + ' created', o.updated + ' updated', o.skipped + ' skipped', o.failed + ' failed'];
  if (o.excluded) parts.push(o.excluded + ' excluded');
  if (o.not_done) parts.push(o.not_done + ' not done');
  return plural(total, 'resource', 'resources') + ': ' + parts.join(', ') + '.';
}

function renderFinish(report) {
  $('finish-title').textContent = FINISH_TITLES[report.status] || named(RUN_STATES, report.status);
  $('finish-outcomes').textContent = outcomeWords(report.outcomes);
  const groups = new Map(Object.keys(TASKS).map((t) => [t, []]));
  for (const t of report.todo) {
    if (!groups.has(t.task)) groups.set(t.task, []); // a task the API adds later, under its own name
    groups.get(t.task).push(t);
  }
  const box = $('finish-todo');
  box.replaceChildren();
  for (const [task, items] of groups) {
    if (!items.length) continue;
    const id = 'todo-' + task;
    const group = el('div', null, { class: 'todo-group', 'data-task': task });
    const list = el('ul', null, { 'aria-labelledby': id });
    list.append(...items.map((t) => el('li', t.say)));
    const heading = TASKS[task] ? TASKS[task].replace('the provider', providerName(report.provider))
      : capital(task.replace(/_/g, ' '));
    group.append(el('h4', heading, { id }), list);
    box.append(group);
  }
  if (!report.todo.length) box.append(el('p', 'Nothing left to do.'));
  $('finish-csv-row').hidden = false;
  $('run-finish').hidden = false;
}

// A reverted run's finish: what the revert did, from the run's stats.revert; no to-do list and no CSV (what the run
// imported is gone, but for the objects kept, which the log names).
function renderReverted(run) {
  $('finish-title').textContent = FINISH_TITLES.reverted;
  $('finish-outcomes').textContent = revertWords((run.stats || {}).revert);
  $('finish-todo').replaceChildren();
  $('finish-csv-row').hidden = true;
  $('run-finish').hidden = false;
}

// The report as CSV: read with the token in the Authorization header (never in the address), saved from a Blob
// object URL.
async function downloadCsv() {
  const run = state.run;
  let blob;
  try {
    const r = await fetch(API + '/migrations/' + run.id + '/report?format=csv',
      { headers: { Accept: 'text/csv', Authorization: 'Bearer ' + token() } });
    if (!r.ok) {
      let json = null;
      try { json = await r.json(); } catch (e) { json = null; }
      throw new ApiError(r.status, json);
    }
    blob = await r.blob();
  } catch (err) {
    return explain(err);
  }
  const url = URL.createObjectURL(blob);
  const a = el('a', null, { href: url, download: 'migration-' + run.provider + '-' + run.id + '.csv' });
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000); // the browser has taken the file long before
}

function renderActions(run, counts) {
  const write = can('account:write');
  const review = run.status === 'awaiting_review';
  $('act-execute').disabled = !write || !review;
  $('act-retry').disabled = !write || !(counts.failed > 0) ||
    ['cancelled', 'reverting', 'reverted'].includes(run.status);
  $('act-cancel').disabled = !write || !['pending', 'discovering', 'awaiting_review', 'executing',
    'paused_conflicts'].includes(run.status);
  $('act-delete').disabled = !can('account:delete');
  $('act-revert').disabled = !can('account:delete') || !(REVERTIBLE.includes(run.status) ||
    (FINAL.includes(run.status) && counts.imported > 0));
  $('exclude-selected').disabled = !write || !review;
  $('include-selected').disabled = !write || !review;
  $('resolve').hidden = run.status !== 'paused_conflicts' || !write;
}

function resourceQuery() {
  const p = new URLSearchParams({ per_page: '50', page: String(state.resPage) });
  for (const k of Object.keys(state.filter)) p.set(k, state.filter[k]);
  return p.toString();
}

// The applied filter in words: Type: Monitor, Name contains "Demo".
function filterWords() {
  return FILTERS.filter(([key]) => state.filter[key]).map(([key, id, label]) =>
    label + ': ' + (key === 'q' ? '“' + state.filter.q + '”' : $(id).querySelector('option[value="' +
      CSS.escape(state.filter[key]) + '"]').textContent)).join(', ');
}

async function loadResources() {
  let body;
  try {
    body = await api('GET', '/migrations/' + state.run.id + '/resources?' + resourceQuery());
  } catch (err) {
    return explain(err);
  }
  const tbody = $('resources-table').tBodies[0];
  // the list is drawn anew on every read: the focus stays on the control it was on (the row's checkbox or its
  // Details), and open details stay open
  const active = document.activeElement;
  const focused = active && tbody.contains(active) ? [active.closest('tr').dataset.id, active.dataset.control] : [];
  tbody.replaceChildren();
  for (const r of body.data) {
    const tr = el('tr', null, { 'data-id': r.id, 'data-status': r.status });
    const name = r.name || r.external_id;
    const box = el('input', null, { type: 'checkbox', 'aria-label': 'Select ' + name, 'data-control': 'select' });
    box.checked = state.selected.has(r.id);
    box.addEventListener('change', () => { if (box.checked) state.selected.set(r.id, r); else state.selected.delete(r.id); });
    const details = detailsRow(r);
    const more = el('button', 'Details', { type: 'button', class: 'details-toggle', 'aria-label': 'Details of ' + name,
      'aria-controls': details.id, 'aria-expanded': String(!details.hidden), 'data-control': 'details' });
    more.addEventListener('click', () => {
      details.hidden = !details.hidden;
      more.setAttribute('aria-expanded', String(!details.hidden));
      if (details.hidden) state.opened.delete(r.id); else state.opened.add(r.id);
    });
    tr.append(cell(box), cell(name, 'Name'), cell(capital(kindName(r.resource_type)), 'Type'),
      cell(r.action ? named(ACTIONS, r.action) : '–', 'Action'), cell(named(RESOURCE_STATES, r.status), 'Status'),
      cell(r.error_message || r.reason || '–', 'Reason'), cell(more));
    tbody.append(tr, details);
    if (String(r.id) === focused[0]) (focused[1] === 'details' ? more : box).focus();
  }
  const filtered = Object.keys(state.filter).length > 0;
  if (!body.data.length) {
    emptyRow(tbody, filtered ? 'No resources match the filter.'
      : FINDING.includes(state.run.status) ? 'Nothing found yet.' : 'The account had nothing to import.');
  }
  $('select-all').checked = false;
  pager($('resources-pager'), body.links, body.meta, (d) => { state.resPage += d; loadResources(); });
  renderBulk(filtered ? body.meta.total : 0);
}

// ---- what each resource becomes

// A duration in words: "5 minutes", "1 hour", "90 seconds".
function duration(s) {
  for (const [n, one, many] of [[86400, 'day', 'days'], [3600, 'hour', 'hours'], [60, 'minute', 'minutes']])
    if (s >= n && s % n === 0) return plural(s / n, one, many);
  return plural(s, 'second', 'seconds');
}

// One preview value in words (how: PREVIEW's second item; p: the whole preview, for the currency).
function previewValue(how, v, p) {
  if (v === NOT_SHOWN) return 'hidden';
  if (how === 'seconds') return duration(v);
  if (how === 'minutes') return duration(v * 60);
  if (how === 'days') return plural(v, 'day', 'days');
  if (how === 'years') return plural(v, 'year', 'years');
  if (how === 'yes') return v ? 'yes' : 'no';
  if (how === 'amount') return p.currency ? v + ' ' + p.currency : String(v);
  if (how === 'names') return v.join(', ') + ' (values hidden)';
  if (how === 'list' && Array.isArray(v)) return v.join(', ');
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

// "Ops (email ops@example.com)", "Ops (Slack)": an address the API does not show is left out.
function recipient(a) {
  return a.name + ' (' + named(CONTACT_TYPES, a.type) + (a.address && a.address !== NOT_SHOWN ? ' ' + a.address : '') +
    ')';
}

// "Night — the contact is left out of this run."; a contact not in the run has no name, only its id.
function notAlerted(a) {
  return (a.name || 'contact ' + a.external_id) + ' — ' + a.why.charAt(0).toLowerCase() + a.why.slice(1);
}

// The preview as "Label: value" lines, in the API's order; columns without a value are left out.
function previewLines(type, p) {
  const lines = [];
  for (const col of Object.keys(p)) {
    const v = p[col];
    const [label, how] = PREVIEW[type + '.' + col] || PREVIEW[col] || [col];
    if (col === 'alerts') lines.push('Alerts: ' + (v.length ? v.map(recipient).join(', ') : 'nobody'));
    else if (col === 'not_alerted') { if (v.length) lines.push('Not alerted: ' + v.map(notAlerted).join('; ')); }
    else if (v === null || col === 'keyword_up_when' || col === 'keyword_case_sensitive') continue; // see keyword
    else if (Array.isArray(v) && !v.length) continue;
    else if (col === 'keyword') {
      lines.push('Keyword: “' + v + '” must be ' + (p.keyword_up_when || 'present') +
        (p.keyword_case_sensitive ? ' (case-sensitive)' : ''));
    } else if (col === 'type' || col === 'kind') {
      lines.push(label + ': ' + named(type === 'monitor' ? MONITOR_TYPES : CONTACT_TYPES, v));
    } else lines.push(label + ': ' + previewValue(how, v, p));
  }
  return lines;
}

// The hidden row under a resource that its Details button opens: what the import will write for it, and
// which of the provider's fields will not carry over.
function detailsRow(r) {
  const list = el('ul', null, { class: 'preview' });
  if (r.preview) list.append(...previewLines(r.resource_type, r.preview).map((line) => el('li', line)));
  else list.append(el('li', 'Nothing is written to your account for this kind of resource.'));
  const lost = el('li', 'Will not carry over: ' + (r.dropped === null ? 'not listed for this provider yet.'
    : r.dropped.length ? '' : 'nothing; every field carries over.'));
  if (r.dropped && r.dropped.length) {
    lost.append(el('ul', null));
    lost.lastChild.append(...r.dropped.map((x) => el('li', x.field + ' — ' + x.reason)));
  }
  list.append(lost);
  const tr = el('tr', null, { class: 'details', id: 'details-' + r.id });
  tr.hidden = !state.opened.has(r.id);
  tr.append(el('td', null, { colspan: '7' }));
  tr.firstChild.append(list);
  return tr;
}

// "Exclude all N matching" and its twin, while a filter is applied and the run awaits review.
function renderBulk(matching) {
  state.matching = matching;
  $('bulk').hidden = !(matching > 0 && state.run.status === 'awaiting_review' && can('account:write'));
  $('exclude-matching').textContent = 'Exclude all ' + matching + ' matching';
  $('include-matching').textContent = 'Include all ' + matching + ' matching';
}

// Open a confirmation dialog. Escape closes it without a value, which leaves the last one in returnValue:
// clear that first, so that only a button's value can confirm.
function ask(id) {
  $(id).returnValue = '';
  $(id).showModal();
}

// Ask before a change: a title, paragraphs, the confirming button's label; then() runs on that button only.
function confirmChange(title, paragraphs, yes, then) {
  $('change-title').textContent = title;
  $('change-text').replaceChildren(...paragraphs.map((t) => el('p', t)));
  $('change-yes').textContent = yes;
  state.onConfirm = then;
  ask('confirm-change');
}

const changed = (verb) => (r) => plural(r.changed, 'resource', 'resources') + ' ' + verb + '.';

// Up to 10 pages of 100 of the run's resources that match query: { items, more } (more: pages left unread).
async function readPages(query) {
  const items = [];
  for (let page = 1; page <= 10; page++) {
    const body = await api('GET', '/migrations/' + state.run.id + '/resources?per_page=100&page=' + page + '&' + query);
    items.push(...body.data);
    if (!body.links.next) return { items, more: false };
  }
  return { items, more: true };
}

// The sentence naming the monitors and heartbeats that would alert none of these contacts (external ids) any
// more, leaving aside the ones excluded already or by the same change (leaving: resource ids); '' when none.
// Up to 1,000 of each kind are read.
async function lostAlerts(contacts, leaving) {
  const lost = [];
  let more = false;
  for (const type of ['monitor', 'heartbeat']) {
    const read = await readPages('resource_type=' + type);
    more = more || read.more;
    for (const r of read.items) {
      if (r.status !== 'excluded' && !leaving.has(r.id) && r.preview &&
        r.preview.alerts.some((a) => contacts.includes(a.external_id))) lost.push(r.name || r.external_id);
    }
  }
  if (!lost.length) return '';
  const names = lost.slice(0, 10).concat(lost.length > 10 ? [plural(lost.length - 10, 'other', 'others')] : [],
    more ? ['perhaps more beyond the first 1,000 read'] : []);
  return 'These monitors and heartbeats will no longer alert ' + (contacts.length === 1 ? 'it' : 'one or more of them') +
    ': ' + listOf(names) + '.';
}

// Exclude the selected resources; when they hold contacts that monitors or heartbeats alert, ask first.
async function excludeSelected() {
  const items = Array.from(state.selected.values());
  const contacts = items.filter((r) => r.resource_type === 'contact').map((r) => r.external_id);
  const go = () => act('POST', '/resources/exclude', { ids: selectedIds() }, changed('excluded'));
  let lost = '';
  try {
    if (contacts.length) lost = await lostAlerts(contacts, new Set(state.selected.keys()));
  } catch (err) {
    return explain(err);
  }
  if (!lost) return go();
  const what = contacts.length === items.length ? countOf(contacts.length, 'contact')
    : plural(items.length, 'resource', 'resources');
  confirmChange('Exclude ' + what + '?', [lost], 'Exclude', go);
}

// Exclude or include every resource the filter matches, after a dialog that states the count and the filter,
// and for an exclusion that takes contacts, the monitors and heartbeats that would lose them.
async function confirmMatching(verb) {
  const n = state.matching;
  const filter = Object.assign({}, state.filter);
  const text = [verb === 'Exclude'
    ? 'Every resource that matches ' + filterWords() + ' is left out of the import (those already excluded stay so).'
    : 'Every excluded resource that matches ' + filterWords() + ' is taken back into the import.'];
  if (verb === 'Exclude' && (!filter.resource_type || filter.resource_type === 'contact')) {
    const query = (type) => new URLSearchParams(Object.assign({}, filter, { resource_type: type })).toString();
    try {
      const contacts = (await readPages(query('contact'))).items.filter((r) => r.status !== 'excluded')
        .map((r) => r.external_id);
      const leaving = new Set(); // without a type, the filter's monitors and heartbeats go too
      for (const type of !filter.resource_type && contacts.length ? ['monitor', 'heartbeat'] : [])
        for (const r of (await readPages(query(type))).items) leaving.add(r.id);
      const lost = contacts.length ? await lostAlerts(contacts, leaving) : '';
      if (lost) text.push(lost);
    } catch (err) {
      return explain(err);
    }
  }
  const path = '/resources/' + verb.toLowerCase();
  confirmChange(verb + ' ' + plural(n, 'resource', 'resources') + '?', text, verb + ' ' + n,
    () => act('POST', path, filter, changed(verb.toLowerCase() + 'd')));
}

async function loadLog() {
  const q = 'errors_only=' + ($('errors-only').checked ? 'true' : 'false') + '&per_page=20&page=' + state.logPage;
  let body;
  try {
    body = await api('GET', '/migrations/' + state.run.id + '/logs?' + q);
  } catch (err) {
    return explain(err);
  }
  const ol = $('log');
  ol.replaceChildren();
  for (const l of body.data) {
    const li = el('li', null, { class: 'log-' + l.level });
    li.append(when(l.logged_at, true), ' ', el('strong', named(LEVELS, l.level)), ' ', el('span', l.message));
    ol.append(li);
  }
  if (!body.data.length) ol.append(el('li', 'Nothing logged.'));
  pager($('log-pager'), body.links, body.meta, (d) => { state.logPage += d; loadLog(); });
}

// A change to the run; its message holds while the run stays in the status the change put it in.
async function act(method, path, body, done) {
  notice('');
  let r = null;
  try {
    r = await api(method, '/migrations/' + state.run.id + path, body);
  } catch (err) {
    explain(err);
  }
  state.selected.clear();
  state.seen = null; // the action changed what the lists show
  await refreshRun();
  if (r) runNotice(done ? done(r) : r.message, r.data && r.data.status);
}

function selectedIds() {
  return Array.from(state.selected.keys());
}

// ---- wiring

function fillSelect(id, table) {
  for (const v of Object.keys(table)) $(id).append(el('option', table[v], { value: v }));
}

document.addEventListener('DOMContentLoaded', () => {
  fillSelect('f-status', RESOURCE_STATES);
  fillSelect('f-type', Object.fromEntries(Object.keys(KINDS).map((k) => [k, capital(KINDS[k][0])])));
  fillSelect('f-action', ACTIONS);
  fillSelect('provider', PROVIDER_NAMES);
  credFields();
  $('provider').addEventListener('change', () => { clearFieldErrors(); credFields(); });
  $('token-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const v = $('token').value.trim();
    $('token').value = '';
    signIn(v);
  });
  $('forget-token').addEventListener('click', () => {
    sessionStorage.removeItem(TOKEN_KEY);
    state.me = null;
    $('scope-note').textContent = '';
    notice('');
    show('login');
    $('token').focus();
  });
  $('show-start').addEventListener('click', () => { notice(''); show('start'); $('provider').focus(); });
  $('start-back').addEventListener('click', async () => { notice(''); await loadRuns(); $('show-start').focus(); });
  $('refresh-runs').addEventListener('click', loadRuns);
  $('start-form').addEventListener('submit', startRun);
  $('run-back').addEventListener('click', async () => {
    const id = state.run.id;
    state.runsPage = 1;
    await loadRuns();
    // back to the run's own Open button, else to the list's heading
    const open = $('runs-table').querySelector('button[data-run="' + CSS.escape(id) + '"]');
    (open || $('runs-title')).focus();
  });
  $('filters').addEventListener('submit', (ev) => {
    ev.preventDefault();
    state.filter = {};
    for (const [key, id] of FILTERS) if ($(id).value) state.filter[key] = $(id).value;
    state.resPage = 1;
    loadResources();
  });
  $('errors-only').addEventListener('change', () => { state.logPage = 1; loadLog(); });
  $('select-all').addEventListener('change', () => {
    for (const box of $('resources-table').tBodies[0].querySelectorAll('input[type=checkbox]')) {
      box.checked = $('select-all').checked;
      box.dispatchEvent(new Event('change'));
    }
  });
  $('act-execute').addEventListener('click', () => act('POST', '/execute'));
  $('act-retry').addEventListener('click', () => act('POST', '/retry-failed'));
  $('act-cancel').addEventListener('click', () => act('POST', '/cancel', null, () => 'Run cancelled.'));
  $('act-delete').addEventListener('click', () => {
    $('delete-or-revert').hidden = $('act-revert').disabled; // the other way, which takes the imports out too
    ask('confirm-delete');
  });
  $('act-revert').addEventListener('click', () => ask('confirm-revert'));
  $('confirm-revert').addEventListener('close', () => {
    if ($('confirm-revert').returnValue === 'revert') act('POST', '/revert');
  });
  $('confirm-delete').addEventListener('close', async () => {
    if ($('confirm-delete').returnValue !== 'delete') return;
    try {
      await api('DELETE', '/migrations/' + state.run.id);
      await loadRuns();
      notice('Run deleted.', 'info');
      $('runs-title').focus();
    } catch (err) {
      explain(err);
    }
  });
  $('exclude-selected').addEventListener('click', excludeSelected);
  $('finish-csv').addEventListener('click', downloadCsv);
  $('include-selected').addEventListener('click', () =>
    act('POST', '/resources/include', { ids: selectedIds() }, changed('included')));
  $('exclude-matching').addEventListener('click', () => confirmMatching('Exclude'));
  $('include-matching').addEventListener('click', () => confirmMatching('Include'));
  $('confirm-change').addEventListener('close', () => {
    if ($('confirm-change').returnValue === 'yes') state.onConfirm();
  });
  $('dropped-all').addEventListener('click', () => {
    $('dropped-all').setAttribute('aria-expanded', String($('dropped-all').getAttribute('aria-expanded') !== 'true'));
    renderDropped(state.run);
  });
  $('resolve-selected').addEventListener('click', () =>
    act('POST', '/resolve-conflicts', { strategy: $('strategy').value, resource_ids: selectedIds() }));
  $('resolve-all').addEventListener('click', () =>
    act('POST', '/resolve-conflicts', { strategy: $('strategy').value }));
  if (token()) signIn(token()); else $('token').focus();
});
