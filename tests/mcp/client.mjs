// The official MCP TypeScript SDK client (@modelcontextprotocol/sdk 1.32.2)
// driving migrator's tools through a whole run lifecycle over Streamable HTTP.
//
// Usage: node tests/mcp/client.mjs URL TOKEN
//   URL    the MCP endpoint, e.g. http://127.0.0.1:8080/mcp   (or $MCP_URL)
//   TOKEN  a token with mcp:use and account:read/write/delete (or $MCP_TOKEN)
// The SDK is loaded from $MCP_NODE_DIR/node_modules, else
// $MIGRATOR_BUILDDIR/mcp-node/node_modules (tests/mcp/setup.sh installs it).
//
// Steps: connect, tools/list (all thirteen tools), migration-create, then poll
// migration-get until the run is awaiting_review (a runner, or the test
// through SQL, moves it there; "CREATED <id>" on stdout says which run),
// migration-get, migration-resources, migration-resources-exclude and -include
// (one resource out and back in), migration-execute, migrations-list, migration-retry-failed
// (no failed resources: isError), migration-resolve-conflicts (not paused:
// isError), migration-cancel, migration-report (JSON and CSV), migration-revert
// without confirm (isError) and with it (reverting), migration-delete without confirm (isError,
// nothing deleted), migration-delete with confirm, migration-get (not found),
// and an unknown tool (JSON-RPC -32602). The SDK validates every
// structuredContent against the tool's outputSchema.
//
// Output: one "STEP {json}" line per call, "CREATED <id>", and finally
// "RESULT ok" (exit 0) or "RESULT failed: ..." (exit 1).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

function sdkDir() {
  const dirs = [];
  if (process.env.MCP_NODE_DIR) dirs.push(process.env.MCP_NODE_DIR);
  if (process.env.MIGRATOR_BUILDDIR) dirs.push(path.join(process.env.MIGRATOR_BUILDDIR, 'mcp-node'));
  dirs.push(path.dirname(new URL(import.meta.url).pathname));
  for (const d of dirs) {
    const p = path.join(d, 'node_modules', '@modelcontextprotocol', 'sdk');
    if (fs.existsSync(path.join(p, 'package.json'))) return p;
  }
  console.error(`@modelcontextprotocol/sdk not found in ${dirs.join(', ')}: run tests/mcp/setup.sh first`);
  process.exit(2);
}

const sdk = sdkDir();
const { Client } = await import(pathToFileURL(path.join(sdk, 'dist/esm/client/index.js')).href);
const { StreamableHTTPClientTransport } = await import(
  pathToFileURL(path.join(sdk, 'dist/esm/client/streamableHttp.js')).href);
const sdkVersion = JSON.parse(fs.readFileSync(path.join(sdk, 'package.json'), 'utf8')).version;

const url = new URL(process.argv[2] ?? process.env.MCP_URL ?? 'http://127.0.0.1:8080/mcp');
const token = process.argv[3] ?? process.env.MCP_TOKEN;
if (!token) {
  console.error('usage: node client.mjs URL TOKEN');
  process.exit(2);
}
const waitSeconds = Number(process.env.MCP_WAIT_SECONDS ?? 60);
const secret = `sdk-secret-${Date.now()}-${Math.random().toString(36).slice(2)}`;
const EXPECTED_TOOLS = ['migrations-list', 'migration-get', 'migration-create', 'migration-execute',
  'migration-retry-failed', 'migration-delete', 'migration-resolve-conflicts', 'migration-cancel',
  'migration-resources', 'migration-resources-exclude', 'migration-resources-include', 'migration-report',
  'migration-revert'];

const transport = new StreamableHTTPClientTransport(url, {
  requestInit: { headers: { Authorization: `Bearer ${token}` } },
});
const client = new Client({ name: 'migrator-sdk-test', version: '1.0.0' });
const transportErrors = [];
client.onerror = (e) => { transportErrors.push(String(e?.message ?? e)); };

const problems = [];
const seen = []; // every text the server sent back, to look for the secret

function expect(cond, what) {
  if (!cond) problems.push(what);
  return cond;
}

function errorBody(r) {
  try { return JSON.parse(r.content?.[0]?.text ?? ''); } catch { return null; }
}

async function call(name, args, want) {
  const r = await client.callTool({ name, arguments: args });
  seen.push(JSON.stringify(r));
  const body = r.isError ? errorBody(r) : r.structuredContent;
  console.log('STEP ' + JSON.stringify({ tool: name, isError: !!r.isError,
    code: r.isError ? body?.code ?? null : null, result: body }));
  if (want === 'ok') {
    expect(!r.isError, `${name}: expected success, got ${r.content?.[0]?.text}`);
    expect(r.structuredContent && typeof r.structuredContent === 'object',
      `${name}: no structuredContent`);
    expect(r.content?.length === 1 && r.content[0].type === 'text' &&
      JSON.stringify(JSON.parse(r.content[0].text)) === JSON.stringify(r.structuredContent),
      `${name}: the text item is not the structuredContent JSON`);
  } else {
    expect(r.isError === true, `${name}: expected isError with ${want}, got success`);
    expect(r.structuredContent === undefined, `${name}: an error result carries structuredContent`);
    expect(body?.code === want, `${name}: expected code ${want}, got ${body?.code}`);
  }
  return r;
}

try {
  await client.connect(transport);
  const info = client.getServerVersion();
  console.log('STEP ' + JSON.stringify({ connect: true, sdk: sdkVersion, serverInfo: info,
    capabilities: client.getServerCapabilities(), protocolVersion: transport.protocolVersion,
    sessionId: transport.sessionId ?? null }));
  expect(info?.name === 'migrator', `serverInfo.name ${info?.name}`);
  expect(transport.sessionId === undefined, 'the server issued a session id');

  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  console.log('STEP ' + JSON.stringify({ tools: names }));
  for (const n of EXPECTED_TOOLS) expect(names.includes(n), `tools/list lacks ${n}`);
  expect(names.length === EXPECTED_TOOLS.length, `tools/list has ${names.length} tools`);

  const created = await call('migration-create',
    { provider: 'uptimerobot', credentials: { api_key: secret } }, 'ok');
  const id = created.structuredContent?.data?.id;
  if (!id) throw new Error('migration-create returned no run id');
  console.log(`CREATED ${id}`);

  // Wait for discovery to finish (a runner, or the test through SQL).
  const deadline = Date.now() + waitSeconds * 1000;
  let status;
  for (;;) {
    const r = await client.callTool({ name: 'migration-get', arguments: { id } });
    status = r.structuredContent?.data?.status;
    if (status === 'awaiting_review' || Date.now() > deadline) break;
    await new Promise((res) => setTimeout(res, 200));
  }
  if (status !== 'awaiting_review') throw new Error(`run still ${status} after ${waitSeconds}s`);

  const got = await call('migration-get', { id }, 'ok');
  expect(Array.isArray(got.structuredContent?.data?.resources), 'migration-get: no resources array');
  expect(Array.isArray(got.structuredContent?.data?.logs), 'migration-get: no logs array');
  expect(typeof got.structuredContent?.meta?.resource_counts === 'object', 'migration-get: no resource_counts');

  // The review step: list every resource, leave one out and take it back.
  const listed = await call('migration-resources', { id, per_page: 50 }, 'ok');
  expect(Array.isArray(listed.structuredContent?.data), 'migration-resources: no data array');
  const some = listed.structuredContent.data.slice(0, 1).map((r) => r.id);
  const exc = await call('migration-resources-exclude', { id, ids: some }, 'ok');
  expect(exc.structuredContent?.changed === some.length, 'migration-resources-exclude: changed');
  const inc = await call('migration-resources-include', { id, ids: some }, 'ok');
  expect(inc.structuredContent?.changed === some.length, 'migration-resources-include: changed');

  const ex = await call('migration-execute', { id }, 'ok');
  expect(ex.structuredContent?.data?.status === 'executing', 'migration-execute: status not executing');
  await call('migration-execute', { id }, 'run_not_awaiting_review');

  const list = await call('migrations-list', { per_page: 5 }, 'ok');
  expect(list.structuredContent?.data?.some((r) => r.id === id), 'migrations-list: run not listed');
  expect(list.structuredContent?.meta?.per_page === 5, 'migrations-list: per_page not 5');

  await call('migration-retry-failed', { id }, 'no_failed_resources');
  await call('migration-resolve-conflicts', { id, strategy: 'skip' }, 'run_not_paused');
  const cancelled = await call('migration-cancel', { id }, 'ok');
  expect(cancelled.structuredContent?.data?.status === 'cancelled', 'migration-cancel: not cancelled');
  const report = await call('migration-report', { id }, 'ok');
  expect(typeof report.structuredContent?.data?.outcomes?.created === 'number', 'migration-report: no outcomes');
  const csv = await call('migration-report', { id, format: 'csv' }, 'ok');
  expect(csv.structuredContent?.csv?.startsWith('resource_id,'), 'migration-report: no CSV');
  await call('migration-revert', { id }, 'confirmation_required');
  const reverting = await call('migration-revert', { id, confirm: true }, 'ok');
  expect(reverting.structuredContent?.data?.status === 'reverting', 'migration-revert: not reverting');

  await call('migration-delete', { id }, 'confirmation_required');
  await call('migration-get', { id }, 'ok'); // still there
  const del = await call('migration-delete', { id, confirm: true }, 'ok');
  expect(del.structuredContent?.deleted === true, 'migration-delete: deleted is not true');
  await call('migration-get', { id }, 'not_found');

  try {
    await client.callTool({ name: 'no-such-tool', arguments: {} });
    expect(false, 'unknown tool: no error');
  } catch (e) {
    console.log('STEP ' + JSON.stringify({ tool: 'no-such-tool', rpcError: e.code ?? null }));
    expect(e.code === -32602, `unknown tool: expected McpError -32602, got ${e.code} ${e.message}`);
  }

  expect(!seen.some((t) => t.includes(secret)), 'a response contains the credentials');
  expect(transportErrors.length === 0, `transport errors: ${transportErrors.join('; ')}`);
  await client.close();
} catch (e) {
  problems.push(`${e?.code ?? ''} ${e?.message ?? e}`.trim());
  try { await client.close(); } catch { /* closing after a failure */ }
}

if (problems.length) {
  console.log('RESULT failed: ' + problems.join(' | '));
  process.exit(1);
}
console.log('RESULT ok');
process.exit(0);
