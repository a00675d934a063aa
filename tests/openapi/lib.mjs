// Shared by validate.mjs and drift.mjs: docs/openapi.yaml loaded into a plain
// object, $ref resolution inside it, and an Ajv (JSON Schema 2020-12, the
// dialect of OpenAPI 3.1) that knows the whole document.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

// The packages live in $OPENAPI_NODE_DIR (tests/openapi/setup.sh), never in
// the source tree.
const nodeDir = process.env.OPENAPI_NODE_DIR;
if (!nodeDir) {
	console.error('OPENAPI_NODE_DIR is not set (the folder tests/openapi/setup.sh printed)');
	process.exit(2);
}
const require = createRequire(join(nodeDir, 'package.json'));
const YAML = require('yaml');
const Ajv2020 = require('ajv/dist/2020.js').default;
const addFormats = require('ajv-formats').default;

export const DOC_ID = 'openapi.json';

// The description as a plain object (YAML aliases expanded).
export function loadDoc(path) {
	return YAML.parse(readFileSync(path, 'utf8'), { maxAliasCount: -1 });
}

// The object a local $ref ("#/a/b") points to.
export function pointer(doc, ref) {
	if (!ref.startsWith('#/'))
		throw new Error(`only local references are used here: ${ref}`);
	let node = doc;
	for (const raw of ref.slice(2).split('/')) {
		const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
		if (node == null || !(key in node))
			throw new Error(`dangling reference ${ref}`);
		node = node[key];
	}
	return node;
}

// Follow $ref until an object without one (components/responses, headers...).
export function deref(doc, node) {
	while (node && typeof node === 'object' && typeof node.$ref === 'string')
		node = pointer(doc, node.$ref);
	return node;
}

// The JSON pointer text of a path of keys.
export function jsonPointer(keys) {
	return '#/' + keys.map((k) => String(k).replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

// An Ajv holding the document, so that any schema inside it can be compiled
// by pointer with its references resolved.
export function makeAjv(doc) {
	const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
	addFormats(ajv);
	ajv.addSchema(doc, DOC_ID);
	return ajv;
}
