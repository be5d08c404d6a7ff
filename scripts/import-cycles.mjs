// `node scripts/import-cycles.mjs [folder] [--graph]` (default emulator): checks the folder's TypeScript import graph
// (.ts, and .cts imported by file name; relative imports, type-only included), prints it with --graph, and exits 1
// when it has a cycle. No dependencies, unlike madge. `npm run lint` runs it over nodes/ and emulator/.
import { relative, resolve } from 'node:path';

import { importGraph } from './import-graph.mjs';

const args = process.argv.slice(2);
const root = resolve(args.find((arg) => !arg.startsWith('--')) ?? 'emulator');
const graph = importGraph(root);
const files = [...graph.keys()];
const name = (f) => relative(resolve(root, '..'), f);
if (args.includes('--graph'))
	for (const [file, deps] of graph)
		console.log(`${name(file)} -> ${deps.map(name).join(', ') || '(none)'}`);
const state = new Map();
const cycles = [];
const visit = (file, stack) => {
	state.set(file, 'open');
	for (const dep of graph.get(file)) {
		if (state.get(dep) === 'open')
			cycles.push([...stack.slice(stack.indexOf(dep)), dep].map(name).join(' -> '));
		else if (!state.has(dep)) visit(dep, [...stack, dep]);
	}
	state.set(file, 'done');
};
for (const file of files) if (!state.has(file)) visit(file, [file]);
console.log(
	cycles.length
		? `Import cycles in ${name(root)}/:\n${cycles.join('\n')}`
		: `Imports of ${relative(process.cwd(), root)}/: no cycle.`,
);
process.exitCode = cycles.length ? 1 : 0;
