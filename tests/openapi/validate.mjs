// Validate every recorded /api/v1 response against docs/openapi.yaml.
// Usage: OPENAPI_NODE_DIR=DIR node validate.mjs OPENAPI.yaml RESPONSES.jsonl
// RESPONSES.jsonl: one JSON object a line, {method, path, status, headers,
// body | text}, written by tests/integration/harness.py when
// MIGRATOR_RESPONSE_LOG is set. Each line is matched to its operation by
// path template and method; its status must be declared there, its headers
// and body must match the declared response. A path no operation serves, or a
// method its path does not serve, must get one of x-unrouted's responses.
// Every operation's success status must have been seen at least once (so a
// broken recording cannot pass). Exit 0, or 1 with a readable list.
import { readFileSync } from 'node:fs';
import { DOC_ID, deref, jsonPointer, loadDoc, makeAjv } from './lib.mjs';

const [docPath, logPath] = process.argv.slice(2);
if (!docPath || !logPath) {
	console.error('usage: node validate.mjs OPENAPI.yaml RESPONSES.jsonl');
	process.exit(2);
}
const doc = loadDoc(docPath);
const ajv = makeAjv(doc);
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

// Path templates under /api/v1 as regular expressions ("{run}": one segment).
const routes = Object.keys(doc.paths)
	.filter((t) => t.startsWith('/api/v1'))
	.map((t) => ({
		template: t,
		re: new RegExp('^' + t.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+') + '$'),
		item: doc.paths[t],
	}));

const compiled = new Map();
function validator(keys) {
	const ref = DOC_ID + jsonPointer(keys);
	if (!compiled.has(ref)) {
		const v = ajv.getSchema(ref);
		if (!v)
			throw new Error(`cannot compile ${ref}`);
		compiled.set(ref, v);
	}
	return compiled.get(ref);
}

function ajvText(errors) {
	return errors.map((e) => `${e.instancePath || '(root)'} ${e.message}` +
		(e.params && e.params.additionalProperty ? ` (${e.params.additionalProperty})` :
			e.params && e.params.unevaluatedProperty ? ` (${e.params.unevaluatedProperty})` :
				e.params && e.params.allowedValues ? ` (${e.params.allowedValues.join(', ')})` : '')).join('; ');
}

// The keys from the document root to a response object, following a $ref
// of the response itself (so its schema compiles by pointer).
function responseKeys(keys) {
	let node = doc;
	for (const k of keys)
		node = node[k];
	if (node && typeof node.$ref === 'string')
		return node.$ref.slice(2).split('/').map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
	return keys;
}

// Problems of one response r against the response at keys (an array).
function checkResponse(keys, r) {
	const problems = [];
	keys = responseKeys(keys);
	const resp = deref(doc, keys.reduce((n, k) => n[k], doc));
	for (const [name, h] of Object.entries(resp.headers || {})) {
		const header = deref(doc, h);
		const value = r.headers[name.toLowerCase()];
		if (value === undefined) {
			if (header.required)
				problems.push(`header ${name} missing`);
			continue;
		}
		const schema = deref(doc, header.schema);
		let v = value;
		if (schema.type === 'integer') {
			if (!/^-?[0-9]+$/.test(value)) {
				problems.push(`header ${name}: ${JSON.stringify(value)} is not an integer`);
				continue;
			}
			v = Number(value);
		}
		const hk = header === h ? [...keys, 'headers', name, 'schema'] : [...h.$ref.slice(2).split('/'), 'schema'];
		const check = validator(hk);
		if (!check(v))
			problems.push(`header ${name}: ${JSON.stringify(value)}: ${ajvText(check.errors)}`);
	}
	// a text answer the description declares (text/csv): its Content-Type, and a string body
	const text = resp.content && Object.keys(resp.content).find((t) => t !== 'application/json' &&
		(r.headers['content-type'] || '').startsWith(t));
	if (text !== undefined) {
		if (r.text === undefined && typeof r.body !== 'string')
			problems.push(`a ${text} body that is not text`);
		return problems;
	}
	const content = resp.content && resp.content['application/json'];
	if (!content) {
		if (r.body !== null || r.text !== undefined)
			problems.push('a body where the description declares none');
		return problems;
	}
	if (!/^application\/json\b/.test(r.headers['content-type'] || ''))
		problems.push(`Content-Type ${JSON.stringify(r.headers['content-type'])}, not application/json`);
	if (r.text !== undefined) {
		problems.push(`the body is not JSON: ${JSON.stringify(r.text.slice(0, 120))}`);
		return problems;
	}
	const check = validator([...keys, 'content', 'application/json', 'schema']);
	if (!check(r.body))
		problems.push(`body: ${ajvText(check.errors)}`);
	return problems;
}

const lines = readFileSync(logPath, 'utf8').split('\n').filter((l) => l.trim() !== '');
const failures = new Map(); // "what: problem" -> {count, example}
const seen = new Set();     // "METHOD template status"

function fail(what, problem, r) {
	const key = `${what}: ${problem}`;
	const f = failures.get(key) || { count: 0, example: r };
	f.count++;
	failures.set(key, f);
}

for (const line of lines) {
	const r = JSON.parse(line);
	const path = r.path.split('?')[0];
	const method = r.method.toLowerCase();
	const route = routes.find((x) => x.re.test(path));
	let what, keys;
	if (!route) {
		what = `${r.method} (no operation's path) ${r.status}`;
		keys = r.status === 405 ? null : ['x-unrouted', 'responses', String(r.status)];
	} else if (!METHODS.includes(method) || !route.item[method]) {
		what = `${r.method} ${route.template} (no such operation) ${r.status}`;
		keys = r.status === 404 ? null : ['x-unrouted', 'responses', String(r.status)];
		const allow = METHODS.filter((m) => route.item[m]).map((m) => m.toUpperCase()).sort().join(', ');
		const got = (r.headers.allow || '').split(/,\s*/).sort().join(', ');
		if (r.status === 405 && got !== allow)
			fail(what, `Allow ${JSON.stringify(r.headers.allow)}; the path serves ${allow}`, r);
	} else {
		what = `${r.method} ${route.template} ${r.status}`;
		keys = ['paths', route.template, method, 'responses', String(r.status)];
		seen.add(`${method} ${route.template} ${r.status}`);
	}
	if (keys === null || keys.reduce((n, k) => (n == null ? n : n[k]), doc) == null) {
		fail(what, 'status not declared', r);
		continue;
	}
	for (const p of checkResponse(keys, r))
		fail(what, p, r);
}

// Every operation under /api/v1 answered its success status at least once.
for (const { template, item } of routes)
	for (const m of METHODS.filter((x) => item[x])) {
		const ok = Object.keys(item[m].responses).filter((s) => /^2/.test(s));
		if (!ok.some((s) => seen.has(`${m} ${template} ${s}`)))
			fail(`${m.toUpperCase()} ${template}`, `no ${ok.join('/')} response was recorded`, null);
	}

console.log(`openapi: ${lines.length} responses checked against ${docPath}`);
if (failures.size === 0) {
	console.log('openapi: every response matches the description');
	process.exit(0);
}
console.log(`openapi: ${failures.size} kinds of mismatch:`);
for (const [key, { count, example }] of failures) {
	console.log(`- ${key} (${count}x)`);
	if (example) {
		const body = example.text !== undefined ? example.text : JSON.stringify(example.body);
		console.log(`    e.g. ${example.method} ${example.path} -> ${example.status} ` +
			`${body && body.length > 300 ? body.slice(0, 300) + '...' : body}`);
	}
}
process.exit(1);
