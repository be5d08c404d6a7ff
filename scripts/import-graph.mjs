// The relative imports of a folder's TypeScript files (.ts, and .cts imported by file name; type-only included), as
// a map from each file to the files it imports: what scripts/import-cycles.mjs and scripts/rooms.mjs read.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export function importGraph(root) {
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
	return new Map(
		files.map((file) => {
			const text = readFileSync(file, 'utf8');
			const specs = [
				...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"](\.[^'"]+)['"]/gms),
			].map((m) => m[1]);
			return [file, [...new Set(specs.map((s) => resolveImport(file, s)).filter(Boolean))]];
		}),
	);
}
