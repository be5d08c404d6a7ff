// `node scripts/import-cycles.mjs [folder] [--graph]` (default emulator): checks the folder's TypeScript import graph
// (.ts, and .cts imported by file name; relative imports, type-only included), prints it with --graph, and exits 1
// when it has a cycle. No dependencies, unlike madge. `npm run lint` runs it over nodes/ and emulator/.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
const args = process.argv.slice(2);
const root = resolve(args.find((arg) => !arg.startsWith('--')) ?? 'emulator');
const files = [];
const walk = (dir) => {
	for (const name of readdirSync(dir)) {
		const p = join(dir, name);
		if (statSync(p).isDirectory()) walk(p);
		else if (/\.c?ts$/.test(p)) files.push(p);
	}
};
walk(root);
const resolveImport = (from, spec) => {
	const base = resolve(dirname(from), spec);
	for (const candidate of [base, `${base}.ts`, join(base, 'index.ts')])
		if (files.includes(candidate)) return candidate;
	return undefined;
};
const graph = new Map(
	files.map((file) => {
		const text = readFileSync(file, 'utf8');
		const specs = [
			...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"](\.[^'"]+)['"]/gms),
		].map((m) => m[1]);
		return [file, [...new Set(specs.map((s) => resolveImport(file, s)).filter(Boolean))]];
	}),
);
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
