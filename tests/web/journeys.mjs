// Browser journeys through the review page (web/migrator/), driven by
// playwright-core in Debian's chromium against the real stack that
// tests/integration/test_web.py set up (lighttpd + migrator.fcgi + MariaDB +
// runner + fake providers). One journey per run of this script:
//
//   node journeys.mjs JOURNEY     env: WEB_NODE_DIR (where tests/web/setup.sh installed playwright-core and
//                                 axe-core), BASE (http://127.0.0.1:PORT), TOKEN, SHOTS (folder), KEY (the
//                                 fake account's key), FAKE (the fake providers' base URL), VIEWPORT
//                                 (desktop: 1280 px wide, the zone Asia/Kolkata; phone: 360 px, America/New_York)
//
// Prints "STEP ..." lines and "RESULT {json}" at the end; exits 1 on the first
// expectation that does not hold (with a screenshot FAILED-<journey>.png).
// "RUNNER on" / "RUNNER off" ask the test to start or stop its background
// runner, and "HOOK name" to take its own step of that name (a check or a
// change in the database); the journey goes on when a line comes back on stdin.
//
// At each main screen, screen() checks what holds on every one: axe-core finds
// no WCAG 2.1 A or AA violation, and at 360 px the page does not scroll sideways.
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const require = createRequire(join(process.env.WEB_NODE_DIR, 'package.json'));
const { chromium } = require('playwright-core');
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

const journey = process.argv[2];
const { BASE, TOKEN, SHOTS, KEY, FAKE } = process.env;
const VIEWPORT = process.env.VIEWPORT || 'desktop';
const PHONE = VIEWPORT === 'phone';
// the zone's short name as en-US writes it, which the page's times must show
const ZONE = PHONE ? ['America/New_York', /\bE[SD]T\b/] : ['Asia/Kolkata', /GMT\+5:30/];
const TIMEOUT = 60000;
mkdirSync(SHOTS, { recursive: true });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
const context = await browser.newContext({
  viewport: PHONE ? { width: 360, height: 740 } : { width: 1280, height: 900 },
  isMobile: PHONE, hasTouch: PHONE, locale: 'en-US', timezoneId: ZONE[0],
});
const page = await context.newPage();
const consoleErrors = [];
// Script errors and CSP violations count; an HTTP error status the page handles (403, 422, a missing favicon)
// does not.
page.on('console', (m) => {
  if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) consoleErrors.push(m.text());
});
page.on('pageerror', (e) => consoleErrors.push(String(e)));
const result = { screens: [] };
const stdin = createInterface({ input: process.stdin })[Symbol.asyncIterator]();

function step(what) { console.log('STEP ' + what); }
function expect(cond, what) { if (!cond) throw new Error('expected: ' + what); }

async function runner(on) {
  console.log('RUNNER ' + (on ? 'on' : 'off'));
  await stdin.next();
}

async function hook(name) {
  console.log('HOOK ' + name);
  await stdin.next();
}

// A main screen: a screenshot, no sideways scrolling on a phone, no axe violation of WCAG 2.1 A/AA.
async function screen(name) {
  await page.screenshot({ path: join(SHOTS, `${journey}-${VIEWPORT}-${name}.png`), fullPage: true });
  if (PHONE) {
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width <= 360, `${name}: nothing wider than the 360 px screen (scrollWidth ${width})`);
  }
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a',
      'wcag21aa'] } });
    return r.violations.map((v) => v.id + ' (' + v.nodes.map((n) => n.target.join(' ')).join(', ') + ')');
  });
  expect(violations.length === 0, `${name}: no WCAG 2.1 A/AA violation: ${violations.join(' | ')}`);
  result.screens.push(name);
}

// The contrast of the focused control's ring and of every visible control's border against what is behind
// them (WCAG 1.4.11 asks 3:1; axe does not measure these).
async function nonTextContrast() {
  return page.evaluate(() => {
    const rgb = (c) => c.match(/[\d.]+/g).map(Number);
    const lum = (c) => {
      const f = (v) => { const x = v / 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; };
      const [r, g, b] = rgb(c);
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
    const behind = (e) => {
      for (let n = e.parentElement; n; n = n.parentElement) {
        const c = getComputedStyle(n).backgroundColor;
        if (rgb(c)[3] !== 0) return c;
      }
      return 'rgb(255, 255, 255)';
    };
    const a = document.activeElement;
    const s = getComputedStyle(a);
    const borders = [...document.querySelectorAll('input[type=text], input[type=password], input[type=search], select')]
      .filter((i) => i.offsetParent).map((i) => [i.id, ratio(getComputedStyle(i).borderTopColor, behind(i))]);
    return { focused: a.id, ring: s.outlineStyle === 'none' ? 0 : ratio(s.outlineColor, behind(a)), borders };
  });
}

async function signIn(token) {
  await page.goto(BASE + '/migrator/');
  await screen('sign-in');
  await page.getByRole('textbox', { name: 'Personal access token' }).fill(token);
  await page.keyboard.press('Enter'); // the form is usable by keyboard
  await page.waitForSelector('#who:not([hidden])');
  const stored = await page.evaluate(() => sessionStorage.getItem('migrator.token'));
  expect(stored === token, 'the token is kept in sessionStorage');
  expect(await page.evaluate(() => localStorage.length) === 0, 'nothing in localStorage');
}

async function waitStatus(status) {
  await page.waitForFunction((s) => document.getElementById('run-status').dataset.status === s, status,
    { timeout: TIMEOUT });
}

// The message shown at the top once the action that shows it has finished.
async function waitNotice(message) {
  await page.waitForFunction((m) => document.getElementById('notice').textContent === m, message, { timeout: TIMEOUT });
}

async function text(selector) { return (await page.locator(selector).textContent()).trim(); }

// The run's heading takes the focus when a run opens (keyboard and screen reader users start there).
async function expectRunFocused() {
  await page.waitForFunction(() => document.activeElement.id === 'run-title', null, { timeout: TIMEOUT });
}

// Times are the browser's local ones with the zone's name; the UTC value stays in datetime.
async function expectLocalTimes(selector) {
  const times = await page.locator(selector).evaluateAll((ts) => ts.map((t) => [t.textContent, t.dateTime]));
  expect(times.length > 0, 'times in ' + selector);
  for (const [shown, iso] of times) {
    expect(ZONE[1].test(shown), `a local time with its zone (${ZONE[0]}): ${shown}`);
    expect(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/.test(iso), 'the UTC time in datetime: ' + iso);
  }
}

async function openStart(provider) {
  await page.getByRole('button', { name: 'Start a migration' }).click();
  await page.getByRole('combobox', { name: 'Provider' }).selectOption(provider);
}

async function fill(fields) {
  for (const [label, value] of fields) await page.getByRole('textbox', { name: label }).fill(value);
}

// Start a run from the form; returns when the run's page shows it.
async function startRun(provider, fields, paused) {
  await openStart(provider);
  await fill(fields);
  if (paused) await page.locator('#import-paused').check();
  await screen('start-form');
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  result.run = await shownRun();
  // credentials are never shown again
  expect(!(await page.content()).includes(fields[0][1]), 'the key is not on the page after the start');
  await expectRunFocused();
}

// The id of the run the page shows, once it has read it.
async function shownRun() {
  await page.waitForFunction(() => !document.getElementById('run').hidden && document.getElementById('run').dataset.run,
    null, { timeout: TIMEOUT });
  return page.locator('#run').getAttribute('data-run');
}

async function rowByName(name) {
  return page.locator('#resources-table tbody tr', { has: page.locator('td', { hasText: name }) }).first();
}

async function filter(values) {
  for (const [label, value] of values) {
    if (label === 'Name contains') await page.getByRole('searchbox', { name: label }).fill(value);
    else await page.getByRole('combobox', { name: label, exact: true }).selectOption(value);
  }
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
}

async function waitRows(n) {
  await page.waitForFunction((k) => document.querySelectorAll('#resources-table tbody tr[data-id]').length === k, n,
    { timeout: TIMEOUT });
}

// A GET of the API with the journey's token, as the page would make it.
async function apiGet(path) {
  return page.evaluate(async ([p, t]) => (await fetch('/api/v1' + p, { headers: { Authorization: 'Bearer ' + t } }))
    .json(), [path, TOKEN]);
}

function listOf(items) { return new Intl.ListFormat('en', { type: 'conjunction' }).format(items); }

// Open a resource's details with the keyboard; returns the text they show, once they are within the screen.
async function openDetails(name) {
  const button = page.getByRole('button', { name: 'Details of ' + name, exact: true });
  expect(await button.getAttribute('aria-expanded') === 'false', 'the details start closed');
  await button.focus();
  await page.keyboard.press('Enter');
  expect(await button.getAttribute('aria-expanded') === 'true', 'Details says it is open');
  const details = page.locator('#' + await button.getAttribute('aria-controls'));
  expect(await details.isVisible(), 'the details of ' + name + ' show');
  const right = await details.evaluate((e) => e.getBoundingClientRect().right);
  expect(right <= page.viewportSize().width, 'the details end within the screen: ' + right);
  return details.textContent();
}

// "Will not carry over" in a resource's details, from the item's dropped.
function droppedText(item) {
  return 'Will not carry over: ' + (item.dropped === null ? 'not listed for this provider yet.'
    : item.dropped.length ? item.dropped.map((x) => x.field + ' — ' + x.reason).join('')
      : 'nothing; every field carries over.');
}

// Back to the list: the focus returns to the Open button of the run just left.
async function backToRuns() {
  await page.getByRole('button', { name: 'All runs' }).click();
  await page.waitForFunction((id) => document.activeElement.dataset.run === id, result.run, { timeout: TIMEOUT });
}

// The report's to-do tasks and the headings of their groups on the page, in the page's order.
const TASK_HEADINGS = [['ping', 'Point your jobs at their new checks'],
  ['add_address', 'Add the addresses the provider does not show'], ['enter_again', 'Enter these logins again'],
  ['add_by_hand', 'Add by hand'], ['retry', 'Retry or add by hand']];

// A CSV text (RFC 4180) as rows of cells.
function csvRows(textIn) {
  const rows = [];
  let row = [], cell = '', quoted = false;
  for (let i = 0; i < textIn.length; i++) {
    const c = textIn[i];
    if (quoted) {
      if (c === '"' && textIn[i + 1] === '"') { cell += '"'; i++; } else if (c === '"') quoted = false; else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(cell); cell = ''; } else if (c === '\r' && textIn[i + 1] === '\n') {
      row.push(cell); rows.push(row); row = []; cell = ''; i++;
    } else cell += c;
  }
  if (cell !== '' || row.length) { row.push(cell); rows.push(row); }
  return rows;
}

// The finish section of a run that ended while the page showed it: the focus on its heading, the outcomes and
// the to-do list as the API's report has them, and the CSV saved from the page (the token in the Authorization
// header, never in the address), a row per resource of the run.
async function expectFinish(run, heading) {
  await page.waitForSelector('#run-finish:not([hidden])', { timeout: TIMEOUT });
  await page.waitForFunction(() => document.activeElement.id === 'finish-title', null, { timeout: TIMEOUT });
  expect(await text('#finish-title') === heading, 'the finish heading: ' + await text('#finish-title'));
  const report = (await apiGet('/migrations/' + run + '/report')).data;
  const o = report.outcomes;
  const total = Object.values(o).reduce((n, k) => n + k, 0);
  const outcomes = await text('#finish-outcomes');
  const want = `${total} ${total === 1 ? 'resource' : 'resources'}: ${o.created} created, ${o.updated} updated, ` +
    `${o.skipped} skipped, ${o.failed} failed` + (o.excluded ? `, ${o.excluded} excluded` : '') +
    (o.not_done ? `, ${o.not_done} not done` : '') + '.';
  expect(outcomes === want, `the outcomes as the report counts them: ${outcomes} (want ${want})`);
  const groups = await page.locator('#finish-todo .todo-group').evaluateAll((gs) => gs.map((g) =>
    [g.querySelector('h4').textContent, [...g.querySelectorAll('li')].map((li) => li.textContent)]));
  const provider = await text('#run-title').then((t) => t.replace(/ migration$/, ''));
  const wanted = TASK_HEADINGS.map(([task, h]) => [h.replace('the provider', provider),
    report.todo.filter((t) => t.task === task).map((t) => t.say)])
    .filter(([, items]) => items.length);
  expect(JSON.stringify(groups) === JSON.stringify(wanted), 'the to-do groups as the report has them: ' +
    JSON.stringify(groups) + ' want ' + JSON.stringify(wanted));
  if (!report.todo.length) expect((await text('#finish-todo')) === 'Nothing left to do.', 'nothing left to do');
  await screen('finish');
  // the CSV, saved from the page
  const counts = (await apiGet('/migrations/' + run)).meta.resource_counts;
  const resources = Object.values(counts).reduce((n, k) => n + k, 0);
  const asked = page.waitForRequest((r) => r.url().includes('/report?format=csv'), { timeout: TIMEOUT });
  const saved = page.waitForEvent('download', { timeout: TIMEOUT });
  await page.getByRole('button', { name: 'Download as CSV' }).click();
  const request = await asked;
  expect(request.headers().authorization === 'Bearer ' + TOKEN && !request.url().includes(TOKEN),
    'the CSV is read with the token in the Authorization header, not in the address');
  const download = await saved;
  expect(download.url().startsWith('blob:'), 'saved from a Blob object URL: ' + download.url());
  expect(download.suggestedFilename().endsWith('.csv'), 'a .csv file: ' + download.suggestedFilename());
  const rows = csvRows(readFileSync(await download.path(), 'utf8'));
  expect(rows[0].join(',') === 'resource_id,resource_type,external_id,name,outcome,account_id,to_do',
    'the CSV starts with its header: ' + rows[0].join(','));
  expect(rows.length - 1 === resources && resources === total, `a CSV row per resource: ${rows.length - 1} of ` +
    `${resources} (report: ${total})`);
  result.finish = { outcomes: o, todo: report.todo.length, rows: rows.length - 1 };
}

const journeys = {
  // Start, watch discovery, review, exclude one monitor, execute, watch it complete.
  async happy() {
    await signIn(TOKEN);
    await screen('runs');
    step('signed in');
    await startRun('uptimerobot', [['API key', KEY]], false);
    step('started ' + result.run);
    await waitStatus('awaiting_review');
    expect(await text('#run-title') === 'UptimeRobot migration', 'the heading names the provider');
    expect(await text('#run-status') === 'Status: Awaiting review', 'the status in words');
    const found = await text('#run-summary');
    for (const n of ['2 contacts', '1 heartbeat', '6 monitors', '1 status page', 'Planned: 10 to create',
      '0 conflicts; excluded 0.'])
      expect(found.includes(n), `the summary counts ${n}: ${found}`);
    await expectLocalTimes('#run-meta time');
    await screen('review');
    await filter([['Type', 'monitor'], ['Name contains', 'Monitor 2']]);
    await waitRows(1);
    const row = await rowByName('Monitor 2');
    result.excluded = await row.getAttribute('data-id');
    expect((await row.locator('td').nth(2).textContent()) === 'Monitor', 'type column');
    await row.locator('input[type=checkbox]').check();
    await page.getByRole('button', { name: 'Exclude selected' }).click();
    await page.waitForSelector(`#resources-table tr[data-id="${result.excluded}"][data-status="excluded"]`);
    await waitNotice('1 resource excluded.');
    step('excluded ' + result.excluded);
    await filter([['Name contains', ''], ['Type', '']]);
    await page.getByRole('button', { name: 'Execute' }).click();
    await waitStatus('completed');
    const summary = await text('#run-summary');
    expect(summary.includes('excluded 1'), 'summary counts the exclusion: ' + summary);
    await expectFinish(result.run, 'Done');
    expect(await page.locator('[data-task=ping] li').count() === 1, 'the imported heartbeat is to be pinged');
    expect(await page.locator('#run-progress').evaluate((e) => e.value) === 1, 'progress bar full');
    expect(await page.locator('#notice').isHidden(), 'no message about the execution once it completed');
    // reasons are shown
    const reasons = await page.locator('#resources-table tbody td:nth-child(6)').allTextContents();
    expect(reasons.some((r) => r.startsWith('New: no monitor')), 'a reason is shown');
    await screen('completed');
    // every column of the resource list, Status and Reason too, is on the screen without scrolling sideways
    const right = await page.locator('#resources-table tbody td').evaluateAll((tds) =>
      Math.max(...tds.map((td) => td.getBoundingClientRect().right)));
    expect(right <= page.viewportSize().width, 'the resource cells end within the screen: ' + right);
    await expectLocalTimes('#log time');
    await backToRuns();
    const row0 = page.locator('#runs-table tbody tr').first();
    expect((await row0.locator('td').nth(1).textContent()) === 'UptimeRobot', 'the provider by name');
    expect((await row0.locator('td').nth(2).textContent()) === 'Completed', 'the status in words');
    await expectLocalTimes('#runs-table time');
    step('completed');
  },

  // What a resource becomes (its details) and what will not carry over, on UptimeRobot and Healthchecks runs;
  // a contact excluded after a dialog names the monitors and heartbeats that alert it (read from the API).
  async preview() {
    await signIn(TOKEN);
    await startRun('uptimerobot', [['API key', KEY]], false);
    await waitStatus('awaiting_review');
    const items = (await apiGet('/migrations/' + result.run + '/resources?per_page=100')).data;
    const checks = items.filter((r) => ['monitor', 'heartbeat'].includes(r.resource_type));
    const alerting = (c) => checks.filter((m) => m.preview.alerts.some((a) => a.external_id === c.external_id));
    const contact = items.find((r) => r.resource_type === 'contact' && alerting(r).length > 0);
    expect(contact, 'a contact of the fake account alerted by a monitor: ' + JSON.stringify(items));
    const monitor = items.find((r) => r.resource_type === 'monitor' && alerting(contact).includes(r));
    const shown = await openDetails(monitor.name);
    const p = monitor.preview;
    const minutes = p.interval_s / 60;
    for (const part of ['URL: ' + p.url, 'Check interval: ' + minutes + (minutes === 1 ? ' minute' : ' minutes'),
      'Alerts: ' + p.alerts[0].name + ' (', droppedText(monitor)].concat(p.request_body ? ['Request body: hidden'] : []))
      expect(shown.includes(part), `the details show ${part}: ${shown}`);
    for (const a of p.alerts) expect(shown.includes(a.name + ' ('), 'the alert names ' + a.name + ': ' + shown);
    expect(!shown.includes('(not shown)'), 'a secret reads "hidden"');
    await screen('details');
    // the contact: a dialog names what alerts it; Cancel changes nothing, Exclude excludes it
    const names = alerting(contact).map((m) => m.name);
    await page.getByRole('checkbox', { name: 'Select ' + contact.name, exact: true }).check();
    await page.getByRole('button', { name: 'Exclude selected' }).click();
    await page.waitForSelector('#confirm-change[open]', { timeout: TIMEOUT });
    expect(await text('#change-title') === 'Exclude 1 contact?', 'the dialog counts the contact');
    const warning = await text('#change-text');
    expect(warning.startsWith('These monitors and heartbeats will no longer alert it: ') &&
      names.every((n) => warning.includes(n)) && warning.split(', ').length === names.length,
      `the dialog names ${listOf(names)}: ${warning}`);
    await screen('exclude-contact');
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    expect(await page.locator('#confirm-change').evaluate((d) => !d.open), 'Cancel closes the dialog');
    expect(await page.locator(`#resources-table tr[data-id="${contact.id}"]`).getAttribute('data-status') !==
      'excluded', 'Cancel changes nothing');
    await page.getByRole('button', { name: 'Exclude selected' }).click();
    await page.waitForSelector('#confirm-change[open]', { timeout: TIMEOUT });
    await page.getByRole('button', { name: 'Exclude', exact: true }).click();
    await waitNotice('1 resource excluded.');
    result.contact = contact.id;
    // the details stay open and now say the monitor will not alert it
    await page.waitForFunction(([id, n]) => (document.getElementById('details-' + id) || {}).textContent
      .includes('Not alerted: ' + n + ' — the contact is left out of this run.'), [monitor.id, contact.name],
    { timeout: TIMEOUT });
    // every contact by filter: the dialog names what alerts the one still in the run
    const other = items.find((r) => r.resource_type === 'contact' && r.id !== contact.id);
    await filter([['Type', 'contact']]);
    await page.getByRole('button', { name: 'Exclude all 2 matching' }).click();
    await page.waitForSelector('#confirm-change[open]', { timeout: TIMEOUT });
    const matching = await text('#change-text');
    const otherNames = alerting(other).map((m) => m.name);
    expect(matching.includes('Type: Contact') && (otherNames.length
      ? matching.includes('will no longer alert it: ') && otherNames.every((n) => matching.includes(n))
      : !matching.includes('no longer alert')), `the dialog names ${listOf(otherNames)}: ${matching}`);
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    // a Healthchecks run: the fields that will not carry over, summed up before execute
    await page.getByRole('button', { name: 'All runs' }).click();
    await openStart('healthchecks');
    await fill([['API key', 'demo-key-00000000000000000000000'],
      ['Healthchecks address (self-hosted) (optional)', FAKE + '/healthchecks']]);
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    const hc = await shownRun();
    await waitStatus('awaiting_review');
    const rows = (await apiGet('/migrations/' + hc)).meta.dropped;
    expect(rows.some((x) => x.field === 'badge_url'), 'the API lists badge_url: ' + JSON.stringify(rows));
    const lines = await page.locator('#dropped-list li').allTextContents();
    const want = rows.slice(0, 10).map((x) => `${x.field} (${x.resource_type}): ${x.resources} ` +
      (x.resources === 1 ? 'resource' : 'resources') + ' — ' + x.reason);
    expect(lines.slice(0, want.length).join('\n') === want.join('\n'), 'the summary lists what will not carry over: ' +
      lines.join(' | '));
    expect(await page.locator('#dropped-all').isVisible() === rows.length > 10, 'show all only past 10');
    const beat = (await apiGet('/migrations/' + hc + '/resources?resource_type=heartbeat')).data[0];
    const beatShown = await openDetails(beat.name);
    expect(beatShown.includes('Ping URL: hidden') && beatShown.includes(droppedText(beat)),
      'the heartbeat hides its ping URL and lists its dropped fields: ' + beatShown);
    await screen('dropped');
    // imported: its heartbeats are to be pinged anew, its integrations given the addresses Healthchecks hides
    await page.getByRole('button', { name: 'Execute' }).click();
    await waitStatus('completed');
    result.healthchecks = hc;
    await expectFinish(hc, 'Done');
    for (const task of ['ping', 'add_address'])
      expect(await page.locator(`[data-task=${task}] li`).count() > 0, 'the to-do list has ' + task);
  },

  // States and their messages, the empty list's words, and every match excluded and included by filter.
  // The runner works only while the journey lets it, so each state is seen for sure.
  async states() {
    await signIn(TOKEN);
    await startRun('uptimerobot', [['API key', KEY]], false);
    expect(await text('#run-status') === 'Status: Queued', 'a queued run in words');
    await waitNotice('Run started; it waits for the runner to read UptimeRobot.');
    expect(await text('#resources-table tbody') === 'Nothing found yet.', 'nothing found before discovery');
    await screen('queued');
    await runner(true);
    await waitStatus('awaiting_review');
    expect(await page.locator('#notice').isHidden(), 'the start message went when discovery began');
    await runner(false);
    await filter([['Type', 'invoice']]);
    await page.waitForFunction(() => document.querySelector('#resources-table tbody').textContent ===
      'No resources match the filter.', null, { timeout: TIMEOUT });
    expect(await page.locator('#bulk').isHidden(), 'nothing to exclude when nothing matches');
    await filter([['Type', 'monitor']]);
    await waitRows(6);
    await page.getByRole('button', { name: 'Exclude all 6 matching' }).click();
    expect(await text('#change-title') === 'Exclude 6 resources?', 'the confirmation states the count');
    expect((await text('#change-text')).includes('Type: Monitor'), 'and the filter');
    await screen('exclude-matching');
    await page.getByRole('button', { name: 'Exclude 6' }).click();
    await waitNotice('6 resources excluded.');
    await page.waitForFunction(() => document.querySelectorAll('#resources-table tr[data-status=excluded]').length
      === 6, null, { timeout: TIMEOUT });
    await page.getByRole('button', { name: 'Include all 6 matching' }).click();
    await page.getByRole('button', { name: 'Include 6' }).click();
    await waitNotice('6 resources included.');
    await filter([['Type', 'status_page']]);
    await waitRows(1);
    await page.getByRole('button', { name: 'Exclude all 1 matching' }).click();
    expect(await text('#change-title') === 'Exclude 1 resource?', 'one resource, singular');
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    expect(await page.locator('#resources-table tr[data-status=excluded]').count() === 0, 'Cancel changes nothing');
    await page.getByRole('button', { name: 'Exclude all 1 matching' }).click();
    await page.getByRole('button', { name: 'Exclude 1' }).click();
    await waitNotice('1 resource excluded.');
    await filter([['Type', '']]);
    await page.getByRole('button', { name: 'Execute' }).click();
    await waitStatus('executing');
    expect(await text('#run-status') === 'Status: Importing', 'executing in words');
    await waitNotice('Execution queued.');
    // someone typing in the filter while the run ends keeps the focus there; the finish shows all the same
    await page.getByRole('searchbox', { name: 'Name contains' }).focus();
    await runner(true);
    await waitStatus('completed');
    await page.waitForSelector('#run-finish:not([hidden])', { timeout: TIMEOUT });
    expect(await page.evaluate(() => document.activeElement.id) === 'f-q', 'the focus stays in the filter');
    expect(await page.locator('#notice').isHidden(), 'the execution message went when the run completed');
    expect((await text('#run-summary')).includes('excluded 1'), 'the status page stayed excluded');
    await screen('completed');
  },

  // The start form: a 422 keeps what was typed and names the field by its label next to it; then WHMCS and
  // a self-hosted Healthchecks against the fakes.
  async startform() {
    await signIn(TOKEN);
    await openStart('whmcs');
    await screen('start-whmcs');
    await page.getByRole('textbox', { name: 'WHMCS URL' }).focus();
    await page.keyboard.press('Tab'); // the focus ring shows for the keyboard
    const c = await nonTextContrast();
    expect(c.focused === 'cred-api_identifier' && c.ring >= 3, 'the focus ring has 3:1 or more: ' + JSON.stringify(c));
    for (const [id, ratio] of c.borders) expect(ratio >= 3, `the border of ${id} has 3:1 or more: ${ratio}`);
    await fill([['WHMCS URL', 'ftp://billing.example.com'], ['API identifier', 'demo-id'],
      ['API secret', 'demo-secret']]);
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    const url = page.getByRole('textbox', { name: 'WHMCS URL' });
    await page.waitForSelector('#cred-url[aria-invalid=true]');
    const error = await text('#cred-url-error');
    expect(error.startsWith('WHMCS URL: This field is not an allowed URL'), 'the error names the label: ' + error);
    expect(await url.getAttribute('aria-describedby') === 'cred-url-error cred-url-hint', 'the error describes it');
    expect(await page.evaluate(() => document.activeElement.id) === 'cred-url', 'the focus is on the field');
    expect(!(await page.locator('main').textContent()).includes('credentials.'), 'no API field names');
    for (const [label, value] of [['WHMCS URL', 'ftp://billing.example.com'], ['API identifier', 'demo-id'],
      ['API secret', 'demo-secret']])
      expect(await page.getByRole('textbox', { name: label }).inputValue() === value, label + ' keeps its value');
    await screen('start-error');
    await url.fill('');
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await page.waitForFunction(() => (document.getElementById('cred-url-error') || {}).textContent ===
      'WHMCS URL: This field is required.', null, { timeout: TIMEOUT });
    await url.fill(FAKE + '/whmcs');
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    result.whmcs = await shownRun();
    await waitStatus('awaiting_review');
    const found = await text('#run-summary');
    expect(found.includes('3 hosting clients') && found.includes('5 invoices'), 'WHMCS found: ' + found);
    await screen('whmcs-review');
    await page.getByRole('button', { name: 'All runs' }).click();
    await openStart('healthchecks');
    await fill([['API key', 'demo-key-00000000000000000000000'],
      ['Healthchecks address (self-hosted) (optional)', FAKE + '/healthchecks']]);
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    result.healthchecks = await shownRun();
    await waitStatus('awaiting_review');
    expect(await text('#run-title') === 'Healthchecks.io migration', 'the provider by name');
    expect((await text('#run-summary')).includes('3 heartbeats'), 'self-hosted Healthchecks found its checks');
  },

  // What the runner does and waits for, on runs the test made (no runner works on them); an active run is
  // read in full once, then from its row in the runs list.
  async activity() {
    await signIn(TOKEN);
    const reads = [];
    page.on('request', (r) => reads.push(new URL(r.url()).pathname + new URL(r.url()).search));
    await page.getByRole('button', { name: /^Open the Pingdom migration/ }).click();
    await waitStatus('executing');
    const id = await page.locator('#run').getAttribute('data-run');
    expect(await text('#run-status') === 'Status: Importing', 'executing in words');
    await page.waitForFunction(() => document.getElementById('run-summary').textContent.includes(
      'Importing: 40 of 200, about 8 minutes left.'), null, { timeout: TIMEOUT });
    expect(await page.locator('#run-progress').evaluate((e) => e.value) === 0.2, 'the progress bar at 20 %');
    await page.waitForRequest((r) => r.url().includes('/api/v1/migrations?per_page=100&status=executing&provider=pingdom'),
      { timeout: TIMEOUT });
    await page.waitForRequest((r) => r.url().includes('/api/v1/migrations?per_page=100&status=executing&provider=pingdom'),
      { timeout: TIMEOUT });
    expect(reads.filter((u) => u === '/api/v1/migrations/' + id).length === 1, 'the run detail was read once: ' +
      reads.join(' '));
    await screen('importing');
    await page.getByRole('button', { name: 'All runs' }).click();
    await page.getByRole('button', { name: /^Open the StatusCake migration/ }).click();
    await waitStatus('discovering');
    const summary = await text('#run-summary');
    expect(summary.startsWith('Reading StatusCake: 50 monitors so far… Waiting for StatusCake until Jan 1, 2030'),
      'the wait in words: ' + summary);
    expect(ZONE[1].test(summary), 'the wait in local time with its zone: ' + summary);
    await screen('waiting');
  },

  // The plan finds objects already in the account; resolve them with overwrite, execute again.
  async conflicts() {
    await signIn(TOKEN);
    await startRun('uptimerobot', [['API key', KEY]], false);
    await waitStatus('awaiting_review');
    const plan = await text('#run-summary');
    expect(plan.includes('3 to create, 0 to update, 0 to skip, 1 conflict;') &&
      plan.includes('execute and choose what to do with them'), 'the plan at review names the conflict: ' + plan);
    await page.getByRole('button', { name: 'Execute' }).click();
    await waitStatus('paused_conflicts');
    expect(await text('#run-status') === 'Status: Paused on conflicts', 'the status in words');
    await filter([['Status', 'conflict']]);
    await page.waitForSelector('#resources-table tbody tr[data-status=conflict]');
    const reason = await page.locator('#resources-table tbody tr[data-status=conflict] td:nth-child(6)').first()
      .textContent();
    expect(reason.startsWith('Exists: monitor'), 'the conflict says what exists: ' + reason);
    await screen('conflicts');
    await page.getByRole('combobox', { name: 'Strategy' }).selectOption('overwrite');
    await page.getByRole('button', { name: 'Resolve all' }).click();
    await waitStatus('awaiting_review');
    await page.getByRole('button', { name: 'Execute' }).click();
    await waitStatus('completed');
    await screen('completed');
  },

  // A run whose imports failed: read the errors, retry them.
  async retry() {
    await signIn(TOKEN);
    await page.getByRole('button', { name: /^Open the UptimeRobot migration of / }).first().click();
    await waitStatus('completed_with_errors');
    await expectRunFocused();
    expect(await text('#run-status') === 'Status: Completed with errors', 'the status in words');
    // a run opened after it ended shows its finish, and the focus stays on the run's heading
    await page.waitForSelector('#run-finish:not([hidden])', { timeout: TIMEOUT });
    expect(await text('#finish-title') === 'Done, with errors', 'the finish heading names the errors');
    const failed = (await apiGet('/migrations/' + await shownRun() + '/report')).data.todo
      .filter((t) => t.task === 'retry').map((t) => t.say);
    expect(failed.length === 2 && JSON.stringify(await page.locator('[data-task=retry] li').allTextContents()) ===
      JSON.stringify(failed), 'the failed ones are to retry or add by hand: ' + failed.join(' | '));
    expect(await text('[data-task=retry] h4') === 'Retry or add by hand', 'the retry group in words');
    await expectRunFocused();
    await page.locator('#errors-only').check();
    await page.waitForFunction(() => [...document.querySelectorAll('#log li')].every((li) =>
      li.classList.contains('log-error')));
    await screen('errors');
    await page.getByRole('button', { name: 'Retry failed' }).click();
    await waitStatus('completed');
    expect(await page.getByRole('button', { name: 'Retry failed' }).isDisabled(), 'nothing left to retry');
    // read again once the run ended again: nothing failed any more
    await expectFinish(await shownRun(), 'Done');
    expect(await page.locator('[data-task=retry]').count() === 0, 'nothing to retry in the to-do list');
    await screen('retried');
  },

  // Cancel a run while it discovers, then delete it (with the confirmation).
  async cancel() {
    await signIn(TOKEN);
    await startRun('uptimerobot', [['API key', KEY]], true);
    await waitStatus('discovering');
    await page.getByRole('button', { name: 'Cancel run' }).click();
    await waitStatus('cancelled');
    await waitNotice('Run cancelled.');
    await screen('cancelled');
    await page.getByRole('button', { name: 'Delete run' }).click();
    await screen('confirm-delete');
    await page.getByRole('button', { name: 'Keep it' }).click();
    expect(!(await page.locator('#run').isHidden()), 'Keep it keeps the run');
    await page.getByRole('button', { name: 'Delete run' }).click();
    await page.locator('#confirm-yes').click();
    await page.waitForSelector('#runs:not([hidden])');
    await waitNotice('Run deleted.');
    expect(await page.evaluate(() => document.activeElement.id) === 'runs-title', 'the focus is on the list');
    await screen('deleted');
  },

  // Undo an import. The test imported a small UptimeRobot account and changed one monitor since, in the
  // database, and made a completed Pingdom run; no runner works until the journey asks for one. A token without
  // account:delete (WRITER) is not offered the revert. On the Pingdom
  // run, reverted meanwhile by another client, the page's revert is refused and says why. On the UptimeRobot run
  // a dialog says what a revert does and how a delete differs; Escape and "Don't revert" change nothing (the test
  // checks the database); "Revert" starts it, the page follows it (the test writes a runner's progress halfway),
  // and once reverted the finish says in words what was deleted and what was kept, which the log names.
  async revert() {
    const revert = page.getByRole('button', { name: 'Revert run…' });
    // without account:delete, no revert (nor delete)
    await signIn(process.env.WRITER);
    await page.getByRole('button', { name: /^Open the UptimeRobot migration/ }).click();
    await waitStatus('completed');
    expect(await revert.isDisabled() && await page.getByRole('button', { name: 'Delete run' }).isDisabled(),
      'a token without account:delete cannot revert');
    await page.getByRole('button', { name: 'Forget token' }).click();
    await signIn(TOKEN);
    await page.getByRole('button', { name: /^Open the Pingdom migration/ }).click();
    await waitStatus('completed');
    const other = await shownRun();
    expect(!(await revert.isDisabled()), 'a completed run can be reverted');
    const behind = await page.evaluate(async ([p, t]) => (await fetch('/api/v1' + p,
      { method: 'POST', headers: { Authorization: 'Bearer ' + t } })).status,
    ['/migrations/' + other + '/revert', TOKEN]);
    expect(behind === 202, 'another client reverts the run: ' + behind);
    await revert.click();
    await page.waitForSelector('#confirm-revert[open]', { timeout: TIMEOUT });
    await page.getByRole('button', { name: 'Revert', exact: true }).click();
    await waitNotice('The run is reverting already.');
    result.refused = await text('#notice');
    expect(await page.locator('#notice').getAttribute('class') === 'error', 'the refusal reads as an error');
    await waitStatus('reverting');
    expect(await text('#run-status') === 'Status: Reverting', 'reverting in words');
    expect(await revert.isDisabled(), 'a run being reverted offers no revert');
    expect(await text('#notice') === result.refused, 'the refusal stays');
    await screen('refused');

    await page.getByRole('button', { name: 'All runs' }).click();
    await page.getByRole('button', { name: /^Open the UptimeRobot migration/ }).click();
    await waitStatus('completed');
    result.run = await shownRun();
    await page.waitForSelector('#run-finish:not([hidden])', { timeout: TIMEOUT });
    expect(await text('#finish-title') === 'Done', 'the finish of the import');
    // the delete dialog names the other way, which takes the imports out of the account too
    await page.getByRole('button', { name: 'Delete run' }).click();
    expect(await page.locator('#delete-or-revert').isVisible(), 'the delete dialog points to "Revert run…"');
    await page.getByRole('button', { name: 'Keep it' }).click();
    // the revert dialog, by keyboard: Escape, then "Don't revert", ask for nothing
    const posts = [];
    page.on('request', (r) => { if (r.method() !== 'GET') posts.push(r.method() + ' ' + r.url()); });
    await revert.focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('#confirm-revert[open]', { timeout: TIMEOUT });
    expect(await page.evaluate(() => document.activeElement.textContent) === "Don't revert",
      'the focus starts on the safe choice');
    const said = (await text('#revert-text')).replace(/\s+/g, ' ');
    for (const part of ['what the run created is deleted', 'what it overwrote is put back as it was',
      'Objects changed since the import are kept as they are', 'the log names each one',
      'Deleting the run instead keeps everything it imported in your account'])
      expect(said.includes(part), `the dialog says ${part}: ${said}`);
    await screen('confirm-revert');
    await page.keyboard.press('Escape');
    expect(await page.locator('#confirm-revert').evaluate((d) => !d.open), 'Escape closes the dialog');
    expect(await page.evaluate(() => document.activeElement.id) === 'act-revert', 'the focus is back on Revert');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#confirm-revert[open]', { timeout: TIMEOUT });
    await page.getByRole('button', { name: "Don't revert" }).click();
    expect(await page.locator('#confirm-revert').evaluate((d) => !d.open), '"Don\'t revert" closes the dialog');
    expect(posts.length === 0, 'no revert was asked for: ' + posts.join(' '));
    expect((await apiGet('/migrations/' + result.run)).data.status === 'completed', 'the run is as it was');
    await hook('untouched');
    // the revert
    await revert.click();
    await page.getByRole('button', { name: 'Revert', exact: true }).click();
    await waitStatus('reverting');
    await page.waitForFunction(() => /^Reverting: \d+ objects? the run wrote will be deleted or put back\.$/
      .test(document.getElementById('notice').textContent), null, { timeout: TIMEOUT });
    result.notice = await text('#notice');
    expect(posts.length === 1 && posts[0].endsWith('/api/v1/migrations/' + result.run + '/revert'),
      'one revert asked for: ' + posts.join(' '));
    expect(await text('#run-summary') === 'Waiting for the runner to start the revert…', 'waiting for the runner: ' +
      await text('#run-summary'));
    expect(await page.locator('#run-finish').isHidden(), 'the import\'s finish goes while the run is reverted');
    for (const name of ['Revert run…', 'Retry failed', 'Cancel run'])
      expect(await page.getByRole('button', { name }).isDisabled(), name + ' is disabled while reverting');
    await hook('halfway');
    const a = (await apiGet('/migrations/' + result.run)).data.stats.activity;
    const progress = `Reverting: ${a.done} of ${a.total} objects done, about ${a.eta_s} seconds left.`;
    await page.waitForFunction((w) => document.getElementById('run-summary').textContent === w, progress,
      { timeout: TIMEOUT });
    expect(await page.locator('#run-progress').evaluate((e) => e.value) === a.done / a.total,
      'the progress bar at done of total');
    await screen('reverting');
    await runner(true);
    await waitStatus('reverted');
    // watched at work: the focus lands on the finish, which says what the revert did
    await page.waitForSelector('#run-finish:not([hidden])', { timeout: TIMEOUT });
    await page.waitForFunction(() => document.activeElement.id === 'finish-title', null, { timeout: TIMEOUT });
    expect(await text('#finish-title') === 'Reverted', 'the finish heading: ' + await text('#finish-title'));
    const rv = (await apiGet('/migrations/' + result.run)).data.stats.revert;
    expect(rv.restored === 0 && rv.left === 0 && rv.gone === 0 && rv.kept === 1, 'stats.revert: ' + JSON.stringify(rv));
    const done = await text('#finish-outcomes');
    expect(done === `${rv.deleted} created objects deleted; 1 changed since and kept (see the log).`,
      'what the revert did in words: ' + done);
    expect(await page.locator('#finish-csv').isHidden() && (await text('#finish-todo')) === '',
      'no to-do list and no CSV for the imports that are gone');
    expect((await text('#run-summary')).includes('Before the revert: imported 5,'), 'the import, before the revert: ' +
      await text('#run-summary'));
    expect(await page.locator('#notice').isHidden(), 'the revert message went when the run was reverted');
    for (const name of ['Revert run…', 'Retry failed'])
      expect(await page.getByRole('button', { name }).isDisabled(), name + ' is not offered on a reverted run');
    // the log names what was kept, and ends with the revert's summary, both warnings
    const warnings = await page.locator('#log li.log-warning').allTextContents();
    const kept = new RegExp('Warning Not reverted: monitor "Edited by hand" \\(no\\. \\d+\\) was changed since the ' +
      'import, or something changed since uses it: it is kept as it is\\.$');
    expect(warnings.some((w) => kept.test(w)), 'the log names the monitor kept: ' + warnings.join(' | '));
    const sum = 'Run reverted: 4 objects deleted, 0 put back as they were; 1 changed since and kept, 0 left to later ' +
      'runs, 0 already gone.';
    expect(warnings.some((w) => w.endsWith(sum)), 'the log sums the revert up: ' + warnings.join(' | '));
    await expectLocalTimes('#log time');
    await page.getByRole('button', { name: 'Delete run' }).click();
    expect(await page.locator('#delete-or-revert').isHidden(), 'no revert to point to once reverted');
    await page.getByRole('button', { name: 'Keep it' }).click();
    await screen('reverted');
    await backToRuns();
    const listed = page.locator('#runs-table tbody tr', { has: page.locator(`button[data-run="${result.run}"]`) });
    expect((await listed.locator('td').nth(2).textContent()) === 'Reverted', 'the list says reverted');
    // the other run: reverted by the runner too, with nothing to take out
    await page.getByRole('button', { name: /^Open the Pingdom migration/ }).click();
    await waitStatus('reverted');
    await page.waitForSelector('#run-finish:not([hidden])', { timeout: TIMEOUT });
    expect(await text('#finish-outcomes') === 'The run had written nothing into your account: there was nothing to ' +
      'delete or put back.', 'a revert with nothing to do in words: ' + await text('#finish-outcomes'));
    await expectRunFocused();
  },

  // The module is switched off for this user: a clear message, nothing else.
  async flagoff() {
    await signIn(TOKEN);
    await page.waitForFunction(() => document.getElementById('notice').textContent.includes('disabled'));
    result.notice = await page.locator('#notice').textContent();
    await screen('disabled');
  },

  // A read-only token reviews a run, all of what will not carry over too, but cannot change it.
  async readonly() {
    await signIn(TOKEN);
    await page.waitForFunction(() => document.getElementById('scope-note').textContent.includes('read-only'));
    expect(await page.getByRole('button', { name: 'Start a migration' }).isDisabled(), 'no starts');
    await page.getByRole('button', { name: /^Open the updown\.io migration/ }).first().click();
    await waitStatus('awaiting_review');
    for (const name of ['Execute', 'Exclude selected', 'Cancel run', 'Delete run'])
      expect(await page.getByRole('button', { name }).isDisabled(), name + ' is disabled');
    const rows = await page.locator('#resources-table tbody tr[data-id]').count();
    expect(rows > 0, 'the resources are listed');
    // what will not carry over: the first 10 of the 12 fields, then all, then the first 10 again; and the
    // monitors the test made without a field list
    const dropped = () => page.locator('#dropped-list li').allTextContents();
    const unlisted = 'Not listed for this provider yet: monitors.';
    let lines = await dropped();
    expect(lines.length === 11 && lines[0] === 'f01 (heartbeat): 12 resources — Reason 1.' && lines[10] === unlisted,
      'the first 10 fields, the most first: ' + lines.join(' | '));
    await page.getByRole('button', { name: 'Show all 12' }).click();
    expect(await page.locator('#dropped-all').getAttribute('aria-expanded') === 'true', 'the toggle says it is open');
    lines = await dropped();
    expect(lines.length === 13 && lines[11] === 'f12 (heartbeat): 1 resource — Reason 12.',
      'all 12 fields: ' + lines.join(' | '));
    await page.getByRole('button', { name: 'Show the first 10' }).click();
    expect((await dropped()).length === 11, 'the first 10 again');
    result.notice = await page.locator('#scope-note').textContent();
    expect(await page.locator('#scope-note').isVisible(), 'the note stays on the run');
    await screen('readonly');
  },
};

try {
  if (!journeys[journey]) throw new Error('unknown journey ' + journey);
  await journeys[journey]();
  expect(consoleErrors.length === 0, 'no console errors: ' + consoleErrors.join(' | '));
  const csp = await page.evaluate(async () => (await fetch('/migrator/')).headers.get('content-security-policy'));
  result.csp = csp;
  console.log('RESULT ' + JSON.stringify(result));
} catch (err) {
  await page.screenshot({ path: join(SHOTS, `FAILED-${journey}-${VIEWPORT}.png`), fullPage: true }).catch(() => {});
  console.log('FAILED ' + err.message);
  console.log('RESULT ' + JSON.stringify(result));
  process.exitCode = 1;
} finally {
  await browser.close();
  process.stdin.destroy();
}
