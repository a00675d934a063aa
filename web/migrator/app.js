// The review page: a client of the public /api/v1 API only. The token lives
// in sessionStorage (this tab); nothing else is stored. Every text from the
// API is set with textContent, never parsed as HTML.
'use strict';

const API = '/api/v1';
const TOKEN_KEY = 'migrator.token';
const ACTIVE = ['pending', 'discovering', 'executing'];
const RESOURCE_STATUSES = ['pending', 'running', 'imported', 'skipped', 'conflict', 'failed', 'excluded'];
const RESOURCE_TYPES = ['contact', 'hosting_client', 'hosting_contact', 'monitor', 'heartbeat',
  'maintenance_window', 'status_page', 'status_page_subscriber', 'hosting_service', 'hosting_addon',
  'hosting_domain', 'invoice', 'payment'];
const ACTIONS = ['create', 'update', 'skip', 'conflict'];
// Credential fields per provider (README "Credentials per provider"); secret ones are password inputs.
const PROVIDERS = {
  uptimerobot: [['api_key', 'API key', true, true]],
  pingdom: [['api_token', 'API token', true, true]],
  statuscake: [['api_token', 'API token', true, true]],
  better_stack: [['api_token', 'API token', true, true], ['team_name', 'Team name (global tokens)', false, false]],
  updown: [['api_key', 'API key', true, true]],
  healthchecks: [['api_key', 'API key', true, true], ['base_url', 'Base URL (self-hosted)', false, false]],
  cronitor: [['api_key', 'API key', true, true]],
  statuspage: [['api_key', 'API key', true, true], ['page_id', 'Page id (else every page)', false, false]],
  whmcs: [['url', 'WHMCS URL', true, false], ['api_identifier', 'API identifier', true, false],
    ['api_secret', 'API secret', true, true], ['access_key', 'Access key', false, true]],
};

const $ = (id) => document.getElementById(id);
const state = { me: null, runsPage: 1, run: null, resPage: 1, logPage: 1, timer: null, selected: new Set() };

function token() { return sessionStorage.getItem(TOKEN_KEY); }
function can(scope) { return !!state.me && state.me.scopes.includes(scope); }

function notice(text, kind) {
  const n = $('notice');
  n.textContent = text || '';
  n.hidden = !text;
  n.className = kind || 'error';
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

// A clear message for an API error; a rejected token sends the user back to sign in.
function explain(err) {
  if (!(err instanceof ApiError)) return notice('The service could not be reached: ' + err.message);
  if (err.status === 401) {
    sessionStorage.removeItem(TOKEN_KEY);
    show('login');
    return notice('The token was not accepted (missing, invalid or revoked). Paste a valid one.');
  }
  if (err.body.code === 'feature_disabled')
    return notice('The migrator module is disabled for this account. Ask an administrator to turn it on.');
  let text = err.message;
  const fields = err.body.errors || {};
  for (const f of Object.keys(fields)) text += ' ' + f + ': ' + fields[f].join(' ');
  notice(text);
}

function show(section) {
  for (const id of ['login', 'runs', 'start', 'run']) $(id).hidden = id !== section;
  $('who').hidden = section === 'login';
  if (section !== 'run') stopPolling();
}

function el(tag, text, attrs) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  for (const k of Object.keys(attrs || {})) e.setAttribute(k, attrs[k]);
  return e;
}

function emptyRow(tbody, text) {
  const tr = el('tr');
  tr.append(el('td', text, { colspan: '6' }));
  tbody.append(tr);
}

function when(iso) { return iso ? iso.replace('T', ' ').replace('Z', ' UTC') : '–'; }

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
  if (!can('account:read')) {
    show('runs');
    $('runs-table').hidden = true;
    $('show-start').disabled = true;
    return notice('This token lacks the account:read scope, so it cannot list or review migrations.');
  }
  if (!can('account:write'))
    notice('This token is read-only (no account:write): you can review runs but not start, execute or change them.',
      'info');
  $('show-start').disabled = !can('account:write');
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
    const open = el('button', 'Open', { type: 'button', 'aria-label': 'Open run from ' + r.provider + ' ' + r.id });
    open.addEventListener('click', () => openRun(r.id));
    const cell = el('td');
    cell.append(open);
    tr.append(el('td', when(r.created_at)), el('td', r.provider), el('td', r.status),
      el('td', r.total_resources), el('td', r.failed_resources), cell);
    tbody.append(tr);
  }
  if (!body.data.length) emptyRow(tbody, 'No runs yet.');
  pager($('runs-pager'), body.links, body.meta, (d) => { state.runsPage += d; loadRuns(); });
}

// ---- start

function credFields() {
  const box = $('cred-fields');
  box.replaceChildren(el('legend', 'Credentials'));
  for (const [name, label, required, secret] of PROVIDERS[$('provider').value]) {
    const id = 'cred-' + name;
    box.append(el('label', label + (required ? '' : ' (optional)'), { for: id }));
    const input = el('input', null, { id, name, type: secret ? 'password' : 'text', autocomplete: 'off',
      spellcheck: 'false' });
    input.required = required;
    box.append(input);
  }
}

async function startRun(ev) {
  ev.preventDefault();
  const credentials = {};
  for (const [name] of PROVIDERS[$('provider').value]) {
    const v = $('cred-' + name).value;
    if (v !== '') credentials[name] = v;
  }
  const body = { provider: $('provider').value, credentials,
    options: { import_paused: $('import-paused').checked } };
  for (const input of $('cred-fields').querySelectorAll('input')) input.value = '';
  try {
    const r = await api('POST', '/migrations', body);
    notice('Run started; discovery is queued.', 'info');
    await openRun(r.data.id);
  } catch (err) {
    explain(err);
  }
}

// ---- one run

function stopPolling() {
  if (state.timer) clearTimeout(state.timer);
  state.timer = null;
}

async function openRun(id) {
  state.run = { id };
  state.resPage = 1;
  state.logPage = 1;
  state.selected.clear();
  $('run-title').textContent = ''; // not the run shown before, until this one is read
  show('run');
  await refreshRun();
}

async function refreshRun() {
  stopPolling();
  let body;
  try {
    body = await api('GET', '/migrations/' + state.run.id);
  } catch (err) {
    return explain(err);
  }
  const run = body.data;
  state.run = run;
  $('run-title').textContent = run.provider + ' migration ' + run.id;
  $('run-status').textContent = 'Status: ' + run.status + (run.error_message ? ' – ' + run.error_message : '');
  $('run-status').dataset.status = run.status;
  renderProgress(run, body.meta.resource_counts);
  renderActions(run, body.meta.resource_counts);
  if (ACTIVE.includes(run.status)) state.timer = setTimeout(refreshRun, 1500);
  await Promise.all([loadResources(), loadLog()]);
}

function renderProgress(run, counts) {
  const s = run.stats || {};
  const disc = s.discovered || {};
  const found = Object.keys(disc).filter((k) => disc[k] > 0).map((k) => disc[k] + ' ' + k).join(', ');
  const bar = $('run-progress');
  let text;
  if (run.status === 'pending' || run.status === 'discovering') {
    bar.removeAttribute('value'); // indeterminate while the provider is read
    text = 'Discovering' + (found ? ': ' + found + ' so far' : '') + '…';
  } else {
    bar.value = run.status === 'awaiting_review' ? 0 : (s.progress || 0);
    text = 'Found ' + (found || 'nothing') + '. Imported ' + (s.imported || 0) + ', skipped ' + (s.skipped || 0) +
      ', failed ' + (s.failed || 0) + ', excluded ' + (counts.excluded || 0) + '.';
  }
  if (run.options && run.options.import_paused) text += ' Monitors and heartbeats are imported paused.';
  $('run-summary').textContent = text;
}

function renderActions(run, counts) {
  const write = can('account:write');
  const review = run.status === 'awaiting_review';
  $('act-execute').disabled = !write || !review;
  $('act-retry').disabled = !write || !(counts.failed > 0) || run.status === 'cancelled';
  $('act-cancel').disabled = !write || !['pending', 'discovering', 'awaiting_review', 'executing',
    'paused_conflicts'].includes(run.status);
  $('act-delete').disabled = !can('account:delete');
  $('exclude-selected').disabled = !write || !review;
  $('include-selected').disabled = !write || !review;
  $('resolve').hidden = run.status !== 'paused_conflicts' || !write;
}

function resourceQuery() {
  const p = new URLSearchParams({ per_page: '50', page: String(state.resPage) });
  for (const [key, id] of [['status', 'f-status'], ['resource_type', 'f-type'], ['action', 'f-action'],
    ['q', 'f-q']]) {
    if ($(id).value) p.set(key, $(id).value);
  }
  return p.toString();
}

async function loadResources() {
  let body;
  try {
    body = await api('GET', '/migrations/' + state.run.id + '/resources?' + resourceQuery());
  } catch (err) {
    return explain(err);
  }
  const tbody = $('resources-table').tBodies[0];
  tbody.replaceChildren();
  for (const r of body.data) {
    const tr = el('tr', null, { 'data-id': r.id, 'data-status': r.status });
    const box = el('input', null, { type: 'checkbox', 'aria-label': 'Select ' + (r.name || r.external_id) });
    box.checked = state.selected.has(r.id);
    box.addEventListener('change', () => { if (box.checked) state.selected.add(r.id); else state.selected.delete(r.id); });
    const cell = el('td');
    cell.append(box);
    tr.append(cell, el('td', r.name || r.external_id), el('td', r.resource_type), el('td', r.action || '–'),
      el('td', r.status), el('td', r.error_message || r.reason || ''));
    tbody.append(tr);
  }
  if (!body.data.length) emptyRow(tbody, 'No resources match.');
  $('select-all').checked = false;
  pager($('resources-pager'), body.links, body.meta, (d) => { state.resPage += d; loadResources(); });
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
    li.append(el('time', when(l.logged_at)), ' ', el('strong', l.level), ' ', el('span', l.message));
    ol.append(li);
  }
  if (!body.data.length) ol.append(el('li', 'Nothing logged.'));
  pager($('log-pager'), body.links, body.meta, (d) => { state.logPage += d; loadLog(); });
}

async function act(method, path, body, done) {
  try {
    const r = await api(method, '/migrations/' + state.run.id + path, body);
    notice(done || (r && r.message) || 'Done.', 'info');
  } catch (err) {
    explain(err);
  }
  state.selected.clear();
  await refreshRun();
}

function selectedIds() {
  return Array.from(state.selected);
}

// ---- wiring

function fillSelect(id, values) {
  for (const v of values) $(id).append(el('option', v, { value: v }));
}

document.addEventListener('DOMContentLoaded', () => {
  fillSelect('f-status', RESOURCE_STATUSES);
  fillSelect('f-type', RESOURCE_TYPES);
  fillSelect('f-action', ACTIONS);
  fillSelect('provider', Object.keys(PROVIDERS));
  credFields();
  $('provider').addEventListener('change', credFields);
  $('token-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const v = $('token').value.trim();
    $('token').value = '';
    signIn(v);
  });
  $('forget-token').addEventListener('click', () => {
    sessionStorage.removeItem(TOKEN_KEY);
    state.me = null;
    notice('');
    show('login');
    $('token').focus();
  });
  $('show-start').addEventListener('click', () => { show('start'); $('provider').focus(); });
  $('start-back').addEventListener('click', loadRuns);
  $('refresh-runs').addEventListener('click', loadRuns);
  $('start-form').addEventListener('submit', startRun);
  $('run-back').addEventListener('click', () => { state.runsPage = 1; loadRuns(); });
  $('filters').addEventListener('submit', (ev) => { ev.preventDefault(); state.resPage = 1; loadResources(); });
  $('errors-only').addEventListener('change', () => { state.logPage = 1; loadLog(); });
  $('select-all').addEventListener('change', () => {
    for (const box of $('resources-table').tBodies[0].querySelectorAll('input[type=checkbox]')) {
      box.checked = $('select-all').checked;
      box.dispatchEvent(new Event('change'));
    }
  });
  $('act-execute').addEventListener('click', () => act('POST', '/execute'));
  $('act-retry').addEventListener('click', () => act('POST', '/retry-failed'));
  $('act-cancel').addEventListener('click', () => act('POST', '/cancel', null, 'Run cancelled.'));
  $('act-delete').addEventListener('click', () => $('confirm-delete').showModal());
  $('confirm-delete').addEventListener('close', async () => {
    if ($('confirm-delete').returnValue !== 'delete') return;
    try {
      await api('DELETE', '/migrations/' + state.run.id);
      notice('Run deleted.', 'info');
      await loadRuns();
    } catch (err) {
      explain(err);
    }
  });
  $('exclude-selected').addEventListener('click', () => act('POST', '/resources/exclude', { ids: selectedIds() }));
  $('include-selected').addEventListener('click', () => act('POST', '/resources/include', { ids: selectedIds() }));
  $('resolve-selected').addEventListener('click', () =>
    act('POST', '/resolve-conflicts', { strategy: $('strategy').value, resource_ids: selectedIds() }));
  $('resolve-all').addEventListener('click', () =>
    act('POST', '/resolve-conflicts', { strategy: $('strategy').value }));
  if (token()) signIn(token()); else $('token').focus();
});
