// The query parameters of docs/openapi.yaml against a live service: for every
// GET operation under /api/v1, each query parameter's edges as described
// (integer minimum and maximum, every enum value, booleans, text lengths) are
// accepted, and one step past each edge is a 422 naming that parameter. So
// REST's validation cannot drift from the description either (the tools'
// view is drift.mjs).
// Usage: OPENAPI_NODE_DIR=DIR node probe.mjs OPENAPI.yaml BASE_URL TOKEN RUN_ID
// RUN_ID: a run of the token's owner. Exit 0, or 1 with the list of differences.
import { deref, loadDoc } from './lib.mjs';

const [docPath, base, token, run] = process.argv.slice(2);
if (!docPath || !base || !token || !run) {
	console.error('usage: node probe.mjs OPENAPI.yaml BASE_URL TOKEN RUN_ID');
	process.exit(2);
}
const doc = loadDoc(docPath);
const problems = [];
let requests = 0;

// [value, accepted] pairs at and just past the edges of a schema.
function cases(schema) {
	switch (schema.type) {
	case 'integer':
		return [[schema.minimum, true], [schema.minimum - 1, false], [schema.maximum, true],
			[schema.maximum + 1, false], ['1x', false]];
	case 'boolean':
		return [['true', true], ['false', true], ['1', true], ['0', true], ['maybe', false]];
	case 'string':
		if (schema.enum)
			return [...schema.enum.map((v) => [v, true]), [schema.enum[0] + '_not', false]];
		return [['é'.repeat(schema.maxLength), true], ['é'.repeat(schema.maxLength + 1), false]];
	default:
		throw new Error(`no probe for a query parameter of type ${schema.type}`);
	}
}

for (const [template, item] of Object.entries(doc.paths)) {
	const op = item.get;
	if (!template.startsWith('/api/v1') || !op)
		continue;
	const path = template.replace(/\{[^}]+\}/g, run);
	for (const param of (op.parameters || []).map((p) => deref(doc, p)).filter((p) => p.in === 'query')) {
		const schema = deref(doc, param.schema);
		for (const [value, accepted] of cases(schema)) {
			const url = `${base}${path}?${param.name}=${encodeURIComponent(value)}`;
			const r = await fetch(url, { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } });
			// a text answer (format=csv) is checked by its status alone
			const body = (r.headers.get('content-type') || '').startsWith('application/json') ? await r.json() :
				await r.text();
			requests++;
			const what = `GET ${template} ${param.name}=${JSON.stringify(value).slice(0, 40)}`;
			if (accepted && r.status !== 200)
				problems.push(`${what}: ${r.status} ${JSON.stringify(body).slice(0, 200)}; the description allows it`);
			else if (!accepted && (r.status !== 422 || !body.errors || !body.errors[param.name]))
				problems.push(`${what}: ${r.status}, not a 422 on ${param.name}; the description does not allow it`);
			else if (!accepted && schema.enum &&
				!schema.enum.every((v) => body.errors[param.name].join(' ').includes(v)))
				problems.push(`${what}: the message does not name every allowed value: ${body.errors[param.name]}`);
		}
	}
}

console.log(`openapi probe: ${requests} requests`);
if (problems.length === 0) {
	console.log('openapi probe: every query parameter is validated as described');
	process.exit(0);
}
for (const p of problems)
	console.log(`- ${p}`);
process.exit(1);
