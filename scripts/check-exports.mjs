// Fails when the published code exports something nobody imports: an export is a promise that another
// file needs it, and a dead one hides what a module is for. Part of `npm run lint`.
// Reads imports as text: named imports and re-exports mark their names, namespace imports (`import * as`,
// `export * as`) mark the whole module, and the files n8n loads (package.json's n8n section) are used.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { root } from './ensure-deps.mjs';

const PUBLISHED = ['nodes', 'credentials'];
const READERS = [...PUBLISHED, 'test', 'bench', 'emulator', 'scripts'];

function filesUnder(folder) {
	const found = [];
	for (const name of readdirSync(folder)) {
		const full = path.join(folder, name);
		if (statSync(full).isDirectory()) found.push(...filesUnder(full));
		else if (/\.(ts|cts|mjs)$/.test(name) && !name.endsWith('.d.ts')) found.push(full);
	}
	return found;
}

/** The source file an import specifier names, without extension, or undefined for a package. */
function resolve(fromFile, specifier) {
	if (!specifier.startsWith('.')) return undefined;
	// Development files name the .cts file they import: stripped too, so the target is never looked into as a folder.
	const target = path.resolve(path.dirname(fromFile), specifier).replace(/\.(ts|cts|js|mjs)$/, '');
	for (const candidate of [target, path.join(target, 'index')]) {
		if (statSync(`${candidate}.ts`, { throwIfNoEntry: false })) return candidate;
	}
	return target;
}

const exportsOf = new Map();
for (const file of PUBLISHED.flatMap((folder) => filesUnder(path.join(root, folder)))) {
	const text = readFileSync(file, 'utf8');
	const names = [
		...text.matchAll(
			/^export (?:declare )?(?:async )?(?:function|const|let|class|interface|type|enum) ([A-Za-z_$][\w$]*)/gm,
		),
	].map((match) => match[1]);
	exportsOf.set(file.replace(/\.ts$/, ''), new Set(names));
}

const used = new Map([...exportsOf.keys()].map((module) => [module, new Set()]));
const useAll = (module) =>
	used.get(module) && exportsOf.get(module).forEach((name) => used.get(module).add(name));
for (const file of READERS.flatMap((folder) => filesUnder(path.join(root, folder)))) {
	const text = readFileSync(file, 'utf8');
	for (const [, names, specifier] of text.matchAll(
		/(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s+from\s+['"]([^'"]+)['"]/g,
	)) {
		const module = resolve(file, specifier);
		for (const part of names.split(',')) {
			const name = part
				.replace(/^\s*type\s+/, '')
				.split(/\s+as\s+/)[0]
				.trim();
			if (name) used.get(module)?.add(name);
		}
	}
	for (const [, specifier] of text.matchAll(
		/(?:import|export)\s+\*\s+as\s+\w+\s+from\s+['"]([^'"]+)['"]/g,
	))
		useAll(resolve(file, specifier));
	for (const [, names, specifier] of text.matchAll(
		/\{([^}]*)\}\s*=\s*await\s+import\(\s*['"]([^'"]+)['"]\s*\)/g,
	)) {
		const module = resolve(file, specifier);
		for (const part of names.split(',')) used.get(module)?.add(part.split(':')[0].trim());
	}
}
// The files n8n loads: their exported classes are n8n's entry points.
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
for (const entry of [...manifest.n8n.nodes, ...manifest.n8n.credentials])
	useAll(path.join(root, entry.replace(/^dist\//, '').replace(/\.js$/, '')));

const dead = [...exportsOf].flatMap(([module, names]) =>
	[...names]
		.filter((name) => !used.get(module).has(name))
		.map((name) => `${path.relative(root, module)}.ts: ${name}`),
);
if (dead.length > 0) {
	console.error(
		`Exported but imported nowhere (make them local, or remove them):\n  ${dead.join('\n  ')}`,
	);
	process.exit(1);
}
console.log(
	`Exports: every one of ${[...exportsOf.values()].reduce((sum, names) => sum + names.size, 0)} is imported somewhere.`,
);
