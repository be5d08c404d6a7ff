// npm run rooms (scripts/rooms.mjs): the rooms of nodes/ and their arrows; an import from a room to one above it
// fails the lint, naming the arrow.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';

const script = path.join(import.meta.dirname, '..', '..', 'scripts', 'rooms.mjs');
const folder = mkdtempSync(path.join(os.tmpdir(), 'rooms-test-'));
after(() => rmSync(folder, { recursive: true, force: true }));

/** A nodes/ folder of two rooms, items/ importing `imports` from helpers/. */
function tree(name, imports) {
	const nodes = path.join(folder, name);
	for (const room of ['helpers', 'items'])
		mkdirSync(path.join(nodes, 'MailDelivery', room), { recursive: true });
	writeFileSync(
		path.join(nodes, 'MailDelivery', 'helpers', 'tags.ts'),
		"import { read } from '../items/reader';\nexport const tags = read;\n",
	);
	writeFileSync(
		path.join(nodes, 'MailDelivery', 'items', 'reader.ts'),
		`${imports}export const read = 1;\n`,
	);
	return nodes;
}
const rooms = (nodes) => {
	try {
		return {
			code: 0,
			output: execFileSync(process.execPath, [script, nodes], { encoding: 'utf8' }),
		};
	} catch (error) {
		return { code: error.status, output: error.stdout };
	}
};

test('the project itself: every import runs down', () => {
	const { code, output } = rooms(path.join(import.meta.dirname, '..', '..', 'nodes'));
	assert.equal(code, 0, output);
	assert.match(output, /MailDelivery\/helpers -> MailDelivery\/items/);
});

test('an import from items/ up to helpers/ fails, naming the arrow', () => {
	const { code, output } = rooms(tree('up', "import { tags } from '../helpers/tags';\n"));
	assert.equal(code, 1);
	assert.match(output, /Imports that run back up: MailDelivery\/items -> MailDelivery\/helpers/);
});

test('the same rooms importing down only pass', () => {
	const { code, output } = rooms(tree('down', ''));
	assert.equal(code, 0, output);
});
