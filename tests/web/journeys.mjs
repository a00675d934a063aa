// Browser journeys through the review page (web/migrator/), driven by
// playwright-core in Debian's chromium against the real stack that
// tests/integration/test_web.py set up (lighttpd + migrator.fcgi + MariaDB +
// runner + fake providers). One journey per run of this script:
//
//   node journeys.mjs JOURNEY     env: WEB_NODE_DIR (where tests/web/setup.sh installed playwright-core),
//                                 BASE (http://127.0.0.1:PORT), TOKEN, SHOTS (folder), KEY (the fake
//                                 account's key)
//
// Prints "STEP ..." lines and "RESULT {json}" at the end; exits 1 on the first
// expectation that does not hold (with a screenshot FAILED-<journey>.png).
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const { chromium } = createRequire(join(process.env.WEB_NODE_DIR, 'package.json'))('playwright-core');

const journey = process.argv[2];
const { BASE, TOKEN, SHOTS, KEY } = process.env;
const TIMEOUT = 60000;
mkdirSync(SHOTS, { recursive: true });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
const consoleErrors = [];
// Script errors and CSP violations count; an HTTP error status the page handles (403, a missing favicon) does not.
page.on('console', (m) => {
  if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) consoleErrors.push(m.text());
});
page.on('pageerror', (e) => consoleErrors.push(String(e)));
const result = {};

function step(what) { console.log('STEP ' + what); }
async function shot(name) { await page.screenshot({ path: join(SHOTS, `${journey}-${name}.png`), fullPage: true }); }
function expect(cond, what) { if (!cond) throw new Error('expected: ' + what); }

async function signIn(token) {
  await page.goto(BASE + '/migrator/');
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

async function startRun(provider, fields, paused) {
  await page.getByRole('button', { name: 'Start a migration' }).click();
  await page.getByRole('combobox', { name: 'Provider' }).selectOption(provider);
  for (const [label, value] of fields) {
    const input = page.getByRole('textbox', { name: label });
    await input.fill(value);
  }
  if (paused) await page.locator('#import-paused').check();
  await shot('start-form');
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await page.waitForSelector('#run:not([hidden])');
  // credentials are never shown again
  expect(!(await page.content()).includes(fields[0][1]), 'the key is not on the page after the start');
  // the section shows before the run's first read fills its title
  await page.waitForFunction(() => / migration [0-9a-f-]{36}$/.test(document.getElementById('run-title').textContent),
    null, { timeout: TIMEOUT });
  result.run = (await page.locator('#run-title').textContent()).split(' ').pop();
}

async function rowByName(name) {
  return page.locator('#resources-table tbody tr', { has: page.locator('td', { hasText: name }) }).first();
}

const journeys = {
  // Start, watch discovery, review, exclude one monitor, execute, watch it complete.
  async happy() {
    await signIn(TOKEN);
    step('signed in');
    await startRun('uptimerobot', [['API key', KEY]], false);
    step('started ' + result.run);
    await waitStatus('awaiting_review');
    await shot('review');
    await page.getByRole('combobox', { name: 'Type' }).selectOption('monitor');
    await page.getByRole('searchbox', { name: 'Name contains' }).fill('Monitor 2');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForFunction(() => document.querySelectorAll('#resources-table tbody tr[data-id]').length === 1);
    const row = await rowByName('Monitor 2');
    result.excluded = await row.getAttribute('data-id');
    expect((await row.locator('td').nth(2).textContent()) === 'monitor', 'type column');
    await row.locator('input[type=checkbox]').check();
    await page.getByRole('button', { name: 'Exclude selected' }).click();
    await page.waitForSelector(`#resources-table tr[data-id="${result.excluded}"][data-status="excluded"]`);
    step('excluded ' + result.excluded);
    await page.getByRole('searchbox', { name: 'Name contains' }).fill('');
    await page.getByRole('combobox', { name: 'Type' }).selectOption('');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByRole('button', { name: 'Execute' }).click();
    await waitStatus('completed');
    const summary = await page.locator('#run-summary').textContent();
    expect(summary.includes('excluded 1'), 'summary counts the exclusion: ' + summary);
    expect(await page.locator('#run-progress').evaluate((e) => e.value) === 1, 'progress bar full');
    // reasons are shown
    const reasons = await page.locator('#resources-table tbody td:nth-child(6)').allTextContents();
    expect(reasons.some((r) => r.startsWith('New: no monitor')), 'a reason is shown');
    await shot('completed');
    step('completed');
  },

  // The plan finds objects already in the account; resolve them with overwrite, execute again.
  async conflicts() {
    await signIn(TOKEN);
    await startRun('uptimerobot', [['API key', KEY]], false);
    await waitStatus('awaiting_review');
    await page.getByRole('button', { name: 'Execute' }).click();
    await waitStatus('paused_conflicts');
    await page.getByRole('combobox', { name: 'Status', exact: true }).selectOption('conflict');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForSelector('#resources-table tbody tr[data-status=conflict]');
    const reason = await page.locator('#resources-table tbody tr[data-status=conflict] td:nth-child(6)').first()
      .textContent();
    expect(reason.startsWith('Exists: monitor'), 'the conflict says what exists: ' + reason);
    await shot('conflicts');
    await page.getByRole('combobox', { name: 'Strategy' }).selectOption('overwrite');
    await page.getByRole('button', { name: 'Resolve all' }).click();
    await waitStatus('awaiting_review');
    await page.getByRole('button', { name: 'Execute' }).click();
    await waitStatus('completed');
    await shot('completed');
  },

  // A run whose imports failed: read the errors, retry them.
  async retry() {
    await signIn(TOKEN);
    await page.getByRole('button', { name: /^Open run/ }).first().click();
    await waitStatus('completed_with_errors');
    await page.locator('#errors-only').check();
    await page.waitForFunction(() => [...document.querySelectorAll('#log li')].every((li) =>
      li.classList.contains('log-error')));
    await shot('errors');
    await page.getByRole('button', { name: 'Retry failed' }).click();
    await waitStatus('completed');
    expect(await page.getByRole('button', { name: 'Retry failed' }).isDisabled(), 'nothing left to retry');
    await shot('retried');
  },

  // Cancel a run while it discovers, then delete it (with the confirmation).
  async cancel() {
    await signIn(TOKEN);
    await startRun('uptimerobot', [['API key', KEY]], true);
    await waitStatus('discovering');
    await page.getByRole('button', { name: 'Cancel run' }).click();
    await waitStatus('cancelled');
    await shot('cancelled');
    await page.getByRole('button', { name: 'Delete run' }).click();
    await page.getByRole('button', { name: 'Keep it' }).click();
    expect(!(await page.locator('#run').isHidden()), 'Keep it keeps the run');
    await page.getByRole('button', { name: 'Delete run' }).click();
    await page.locator('#confirm-yes').click();
    await page.waitForSelector('#runs:not([hidden])');
    await page.waitForFunction(() => document.getElementById('notice').textContent === 'Run deleted.');
    await shot('deleted');
  },

  // The module is switched off for this user: a clear message, nothing else.
  async flagoff() {
    await signIn(TOKEN);
    await page.waitForFunction(() => document.getElementById('notice').textContent.includes('disabled'));
    result.notice = await page.locator('#notice').textContent();
    await shot('disabled');
  },

  // A read-only token reviews a run but cannot change it.
  async readonly() {
    await signIn(TOKEN);
    await page.waitForFunction(() => document.getElementById('notice').textContent.includes('read-only'));
    expect(await page.getByRole('button', { name: 'Start a migration' }).isDisabled(), 'no starts');
    await page.getByRole('button', { name: /^Open run/ }).first().click();
    await waitStatus('awaiting_review');
    for (const name of ['Execute', 'Exclude selected', 'Cancel run', 'Delete run'])
      expect(await page.getByRole('button', { name }).isDisabled(), name + ' is disabled');
    const rows = await page.locator('#resources-table tbody tr[data-id]').count();
    expect(rows > 0, 'the resources are listed');
    result.notice = await page.locator('#notice').textContent();
    await shot('readonly');
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
  await page.screenshot({ path: join(SHOTS, `FAILED-${journey}.png`), fullPage: true }).catch(() => {});
  console.log('FAILED ' + err.message);
  console.log('RESULT ' + JSON.stringify(result));
  process.exitCode = 1;
} finally {
  await browser.close();
}
