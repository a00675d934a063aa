// The tools' inputSchemas (tools/list) against docs/openapi.yaml: each tool
// is the x-mcp-tool of one REST operation, and its arguments are that
// operation's parameters: the path's run as "id", the query parameters and
// the body fields, plus x-mcp-tool-only-arguments. Names, required names,
// types, enums, formats, ranges (per_page up to x-tool-maximum), lengths,
// defaults, items and nested properties must be equal. No inputSchema may use
// a type array such as ["string","null"] (tool clients warn about them).
// Usage: OPENAPI_NODE_DIR=DIR node drift.mjs OPENAPI.yaml TOOLS.json
// TOOLS.json: the result of tools/list ({"tools":[...]}) for a token that sees
// every tool. Exit 0, or 1 with the list of differences.
import { readFileSync } from 'node:fs';
import { deref, loadDoc } from './lib.mjs';

const [docPath, toolsPath] = process.argv.slice(2);
if (!docPath || !toolsPath) {
	console.error('usage: node drift.mjs OPENAPI.yaml TOOLS.json');
	process.exit(2);
}
const doc = loadDoc(docPath);
const tools = JSON.parse(readFileSync(toolsPath, 'utf8')).tools;
const problems = [];
const COMPARED = ['type', 'format', 'enum', 'const', 'minimum', 'maximum', 'minLength', 'maxLength', 'default',
	'maxItems', 'items', 'properties', 'additionalProperties'];

// The facts of a schema that both views must share, $refs resolved, enums as
// sets; fromRest: the REST view, where x-tool-maximum is the tool's maximum.
function facts(schema, fromRest) {
	schema = deref(doc, schema);
	if (typeof schema !== 'object' || schema === null)
		return schema;
	const out = {};
	for (const k of COMPARED) {
		if (!(k in schema))
			continue;
		if (k === 'enum')
			out.enum = [...schema.enum].sort();
		else if (k === 'items' || k === 'additionalProperties')
			out[k] = facts(schema[k], fromRest);
		else if (k === 'properties')
			out.properties = Object.fromEntries(Object.entries(schema.properties)
				.map(([n, s]) => [n, facts(s, fromRest)]));
		else
			out[k] = schema[k];
	}
	if (fromRest && 'x-tool-maximum' in schema)
		out.maximum = schema['x-tool-maximum'];
	return out;
}

// Where a type array hides in a schema, as JSON pointers.
function typeArrays(schema, at) {
	if (Array.isArray(schema))
		return schema.flatMap((s, i) => typeArrays(s, `${at}/${i}`));
	if (typeof schema !== 'object' || schema === null)
		return [];
	return Object.entries(schema).flatMap(([k, v]) =>
		k === 'type' && Array.isArray(v) ? [`${at}/type`] : typeArrays(v, `${at}/${k}`));
}

// The arguments a tool should take, from its REST twin.
function restArguments(item, op) {
	const props = {}, required = [];
	for (const p of [...(item.parameters || []), ...(op.parameters || [])].map((x) => deref(doc, x))) {
		const name = p.in === 'path' ? 'id' : p.name;
		props[name] = facts(p.schema, true);
		if (p.required)
			required.push(name);
	}
	const body = op.requestBody && deref(doc, deref(doc, op.requestBody).content['application/json'].schema);
	for (const [name, s] of Object.entries((body && body.properties) || {}))
		props[name] = facts(s, true);
	required.push(...((body && body.required) || []));
	for (const [name, s] of Object.entries(op['x-mcp-tool-only-arguments'] || {}))
		props[name] = facts(s, true);
	return { props, required: required.sort() };
}

const stable = (v) => JSON.stringify(v, (k, x) =>
	x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort()) : x);

const twins = new Map();
for (const [template, item] of Object.entries(doc.paths))
	for (const [method, op] of Object.entries(item))
		if (op && typeof op === 'object' && op['x-mcp-tool'])
			twins.set(op['x-mcp-tool'], { where: `${method.toUpperCase()} ${template}`, item, op });

for (const tool of tools) {
	const s = tool.inputSchema;
	for (const at of typeArrays(s, ''))
		problems.push(`${tool.name}: inputSchema uses a type array at ${at}`);
	const twin = twins.get(tool.name);
	if (!twin) {
		problems.push(`${tool.name}: no operation of the description has x-mcp-tool: ${tool.name}`);
		continue;
	}
	twins.delete(tool.name);
	if (s.type !== 'object' || s.additionalProperties !== false)
		problems.push(`${tool.name}: inputSchema is not a closed object`);
	const want = restArguments(twin.item, twin.op);
	const got = Object.fromEntries(Object.entries(s.properties || {}).map(([n, x]) => [n, facts(x, false)]));
	for (const name of new Set([...Object.keys(want.props), ...Object.keys(got)])) {
		if (!(name in got))
			problems.push(`${tool.name}: no argument ${name} (${twin.where} has it)`);
		else if (!(name in want.props))
			problems.push(`${tool.name}: argument ${name} is not a parameter of ${twin.where}`);
		else if (stable(got[name]) !== stable(want.props[name]))
			problems.push(`${tool.name}: argument ${name} is ${stable(got[name])}; ${twin.where} says ` +
				stable(want.props[name]));
	}
	const req = [...(s.required || [])].sort();
	if (stable(req) !== stable(want.required))
		problems.push(`${tool.name}: required ${stable(req)}; ${twin.where} requires ${stable(want.required)}`);
}
for (const [name, { where }] of twins)
	problems.push(`${where} names x-mcp-tool ${name}, which tools/list does not have`);

console.log(`openapi drift: ${tools.length} tools compared with ${docPath}`);
if (problems.length === 0) {
	console.log('openapi drift: every inputSchema matches its operation');
	process.exit(0);
}
for (const p of problems)
	console.log(`- ${p}`);
process.exit(1);
