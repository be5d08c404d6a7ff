// `node scripts/rooms.mjs [folder]` (npm run rooms; the folder is nodes/ by default): the rooms of nodes/ (the folders a newcomer finds) and which room imports
// which, from the top down, with how many imports each arrow carries; it exits 1 when an import runs back up, from a
// room to one above it (CONTRIBUTING.md, "How the code is laid out"). `npm run lint` runs it.
import { relative, resolve } from 'node:path';

import { importGraph } from './import-graph.mjs';

/** The rooms, from the top floor down: a room imports only rooms on lower floors (and itself). */
const FLOORS = [
	['MailDelivery (the node)', 'MailDeliveryTrigger'],
	['MailDelivery/actions'],
	['MailDelivery/methods', 'MailDelivery/run'],
	['MailDelivery/helpers', 'MailDelivery/neverTwice'],
	['MailDelivery/items'],
	['shared/methods'],
	['shared'],
	['shared/transport'],
];

const nodes = resolve(process.argv[2] ?? 'nodes');
/** The room of a file: its folder under nodes/ two levels deep (the node's own files are the node's room). */
const roomOf = (file) => {
	const [top, second, ...rest] = relative(nodes, file).split('/');
	if (top === 'MailDelivery')
		return rest.length === 0 ? 'MailDelivery (the node)' : `MailDelivery/${second}`;
	if (top === 'MailDeliveryTrigger') return top;
	return rest.length === 0 ? top : `${top}/${second}`;
};
const floorOf = (room) => FLOORS.findIndex((rooms) => rooms.includes(room));

const arrows = new Map();
const unknown = new Set();
for (const [file, imports] of importGraph(nodes)) {
	const from = roomOf(file);
	if (floorOf(from) === -1) unknown.add(from);
	for (const imported of imports) {
		const to = roomOf(imported);
		if (to === from) continue;
		const key = `${from} -> ${to}`;
		arrows.set(key, (arrows.get(key) ?? 0) + 1);
	}
}
const upward = [];
for (const [floor, rooms] of FLOORS.entries()) {
	console.log(`floor ${FLOORS.length - floor}: ${rooms.join(', ')}`);
	for (const [key, count] of [...arrows].sort()) {
		const [from, to] = key.split(' -> ');
		if (!rooms.includes(from)) continue;
		const up = floorOf(to) <= floor;
		if (up) upward.push(key);
		console.log(`  ${from} -> ${to} (${count})${up ? '   RUNS BACK UP' : ''}`);
	}
}
if (unknown.size > 0)
	console.log(
		`Rooms on no floor (add them to FLOORS in scripts/rooms.mjs): ${[...unknown].join(', ')}`,
	);
if (upward.length > 0) console.log(`Imports that run back up: ${upward.join('; ')}`);
process.exitCode = upward.length > 0 || unknown.size > 0 ? 1 : 0;
