/**
 * `node -r ./bench/register.js bench/item-references.cts`: what a one-field reference ({{ $json.email }})
 * costs per item, read from the item (nodes/MailDelivery/items/itemReferences.ts) and through n8n's
 * getNodeParameter with each engine of the main line's n8n under Node 24 (the probe the differential test uses).
 * One line; a figure, never a test.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import { compileItemReading, readFromItem } from '../nodes/MailDelivery/items/itemReferences';
import { installedN8n } from '../test/harness/n8nInstall.cts';

const ITEMS = 10_000;
const REFERENCE = '{{ $json.email }}';
const root = path.join(__dirname, '..');
const items = Array.from({ length: ITEMS }, (_, i) => ({
	email: `recipient${i}@example.org`,
	name: `Recipient ${i}`,
	orderId: 100_000 + i,
}));

function fastMicroseconds() {
	const reading = compileItemReading(REFERENCE)!;
	const rounds: number[] = [];
	let read = 0;
	for (let round = 0; round < 21; round++) {
		const started = performance.now();
		for (const json of items) if (readFromItem(reading, json)) read++;
		rounds.push(((performance.now() - started) * 1000) / ITEMS);
	}
	if (read !== 21 * ITEMS) throw new Error('the fast path did not answer every item');
	return rounds.sort((a, b) => a - b)[10];
}

const n8n = installedN8n('2');

function n8nMilliseconds() {
	const child = spawnSync(
		n8n.nodeBin,
		[path.join(root, 'test/harness/parameter-probe.cjs'), path.join(n8n.base, 'node_modules')],
		{
			input: JSON.stringify({
				engines: ['vm', 'quickjs', 'legacy'],
				parameters: [`=${REFERENCE}`],
				items: items.map((json) => ({
					$: 'object',
					prototype: 'Object',
					v: Object.entries(json),
				})),
			}),
			encoding: 'utf8',
			maxBuffer: 256 * 1024 * 1024,
		},
	);
	const printed = child.stdout.split('\n').find((row) => row.startsWith('PROBE '));
	if (!printed) throw new Error(`n8n ${n8n.version} did not run: ${child.stderr}`);
	const byEngine = JSON.parse(printed.slice('PROBE '.length)) as Record<
		string,
		{ elapsedMs: number }
	>;
	return Object.entries(byEngine).map(
		([engine, run]) => `${(run.elapsedMs / ITEMS).toFixed(3)} ms (${engine})`,
	);
}

const fast = fastMicroseconds();
const throughN8n = n8nMilliseconds();
console.log(
	`${REFERENCE} for ${ITEMS.toLocaleString('en')} items, per item: read from the item ${fast.toFixed(2)} µs; ` +
		`n8n's getNodeParameter ${throughN8n.join(' / ')} (n8n ${n8n.version}, Node 24)`,
);
