// `npm run verify`: every point of n8n's community node verification guidelines that a machine can check, named as
// the guidelines name it (docs.n8n.io: integrations/creating-nodes/build/reference/verification-guidelines), with
// n8n's own tools where n8n has one. What only people can do is listed at the end and in CONTRIBUTING.md
// ("Submitting for verification"). `--root DIR` checks another copy of the package (the tests break one point at a
// time in copies); `--only id,id` runs some points (`npm run lint` runs n8n-node-lint).
import { execFileSync, spawnSync } from 'node:child_process';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { root as projectRoot } from './ensure-deps.mjs';
import { LINES } from './n8n-install.mjs';

/** A point that does not hold: its message says what is wrong and where. */
class Unmet extends Error {}
const unmet = (message) => {
	throw new Unmet(message);
};

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const packageOf = (root) => readJson(path.join(root, 'package.json'));
const withoutColours = (text) => text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');

/** The package's own tools, from this checkout's node_modules (the copies the tests make link it). */
function toolPath(root, relative) {
	return path.join(root, 'node_modules', relative);
}

/** Runs `n8n-node <command>` in the package's root as `npx n8n-node <command>` runs it; the output comes back for the report. */
function n8nNode(root, args) {
	const result = spawnSync(
		process.execPath,
		[toolPath(root, '@n8n/node-cli/bin/n8n-node.mjs'), ...args],
		{ cwd: root, encoding: 'utf8' },
	);
	const output = withoutColours(`${result.stdout}${result.stderr}`);
	return { ok: result.status === 0, output };
}

/** The lines of an n8n-node report that say something (its spinner frames and box drawing left out). */
function findings(output, count = 40) {
	const lines = output
		.split('\n')
		.map((line) => line.replace(/^[│┌└◇◒◐◓◑■▲●\s]+/, '').trimEnd())
		.filter((line) => line.trim() !== '' && !/^(Building|Copying|n8n-node \w+ {2})/.test(line));
	return lines.slice(-count).join('\n');
}

function filesUnder(folder, test) {
	if (!existsSync(folder)) return [];
	return readdirSync(folder, { recursive: true })
		.map((name) => path.join(folder, String(name)))
		.filter((file) => statSync(file).isFile() && test(file));
}

const githubRepository = (value) => {
	const url = typeof value === 'string' ? value : value?.url;
	const match =
		/^(?:git\+)?https:\/\/github\.com\/([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/.exec(url ?? '') ??
		/^github:([\w.-]+)\/([\w.-]+)$/.exec(url ?? '');
	return match ? `${match[1]}/${match[2]}` : undefined;
};

/**
 * n8n-node lint exactly as `npx n8n-node lint` runs it, from the package's root: strict mode's check that
 * eslint.config.mjs is n8n's default, then `eslint .` with it, which lints every `.ts` file under the root with n8n's
 * rules for node code. The development code (emulator/, test/, bench/) is TypeScript in `.cts` files, which those
 * rules do not cover: see CONTRIBUTING.md, "Submitting for verification".
 */
function n8nNodeLint(root) {
	if (packageOf(root).n8n?.strict !== true)
		unmet('strict mode is off: package.json must say "n8n": { "strict": true }');
	const { ok, output } = n8nNode(root, ['lint']);
	if (!ok) unmet(findings(output.replaceAll(`${root}/`, '')));
	return "n8n-node lint in strict mode from the package's root: eslint.config.mjs is n8n's default, no finding";
}

/** `npm run build` is `n8n-node build`; what it made must be exactly what n8n loads. */
function n8nNodeBuild(root) {
	const { ok, output } = n8nNode(root, ['build']);
	if (!ok) unmet(findings(output));
	const { n8n } = packageOf(root);
	const listed = [...(n8n?.nodes ?? []), ...(n8n?.credentials ?? [])];
	if (!(n8n?.nodes?.length > 0)) unmet('package.json\'s "n8n" section lists no node');
	const missing = listed.filter((file) => !existsSync(path.join(root, file)));
	if (missing.length > 0)
		unmet(`package.json's "n8n" section names files the build did not make: ${missing.join(', ')}`);
	const dist = path.join(root, 'dist');
	const stray = filesUnder(dist, () => true)
		.map((file) => path.relative(root, file))
		.filter((file) => !/^dist\/(nodes|credentials)\//.test(file));
	if (stray.length > 0)
		unmet(
			`the build put files outside dist/nodes and dist/credentials, which npm would publish: ${stray.slice(0, 10).join(', ')}`,
		);
	return `n8n-node build made the ${listed.length} files package.json's "n8n" section names, and nothing outside dist/nodes and dist/credentials`;
}

/**
 * n8n's scanner (`npx @n8n/scan-community-package <package>`) without the registry: it lints the source the
 * package's provenance points at (package.json, nodes/, credentials/) and the compiled JavaScript of the published
 * tarball. Here the same analysis, n8n's own code, runs on this checkout and on the tarball `npm pack` makes of it.
 * The provenance part needs a published version: see CONTRIBUTING.md.
 */
async function scanner(root) {
	if (!existsSync(path.join(root, 'dist')))
		unmet('no dist/ to pack: the n8n-node build point must pass first');
	const work = mkdtempSync(path.join(os.tmpdir(), 'n8n-scan-'));
	try {
		const packed = JSON.parse(
			execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
				cwd: root,
				encoding: 'utf8',
				stdio: ['ignore', 'pipe', 'pipe'],
			}),
		)[0];
		const unpacked = path.join(work, 'package');
		mkdirSync(unpacked);
		execFileSync('tar', [
			'-xzf',
			path.join(work, packed.filename),
			'-C',
			unpacked,
			'--strip-components=1',
		]);
		const requireTool = createRequire(toolPath(root, '@n8n/scan-community-package/package.json'));
		const scannerModule = requireTool.resolve('@n8n/scan-community-package/scanner/scanner.mjs');
		// The scanner makes a folder for downloads when it loads (unused here): removed when verify exits.
		createRequire(scannerModule)('tmp').setGracefulCleanup();
		const { analyzePackage, SOURCE_FILE_PATTERNS } = await import(
			pathToFileURL(scannerModule).href
		);
		const source = await analyzePackage(root, SOURCE_FILE_PATTERNS);
		const tarball = await analyzePackage(unpacked, ['**/*.js', 'package.json']);
		const failed = [
			['sources', source],
			[`tarball ${packed.filename}`, tarball],
		].filter(([, result]) => !result.passed);
		if (failed.length > 0)
			unmet(
				failed
					.map(([what, result]) =>
						`${what}: ${result.message}\n${withoutColours(result.details ?? '')}`.trim(),
					)
					.join('\n')
					.replaceAll(unpacked, 'tarball')
					.replaceAll(root, '.'),
			);
		const { version } = readJson(toolPath(root, '@n8n/scan-community-package/package.json'));
		return `@n8n/scan-community-package ${version} passes on the sources and on ${packed.filename} (${packed.entryCount} files)`;
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}

function noRuntimeDependencies(root) {
	const manifest = packageOf(root);
	const problems = [];
	for (const field of [
		'dependencies',
		'optionalDependencies',
		'bundleDependencies',
		'bundledDependencies',
	]) {
		const value = manifest[field];
		const names = Array.isArray(value) ? value : Object.keys(value ?? {});
		if (names.length > 0) problems.push(`"${field}": ${names.join(', ')}`);
	}
	const peers = Object.keys(manifest.peerDependencies ?? {}).filter(
		(name) => name !== 'n8n-workflow',
	);
	if (peers.length > 0)
		problems.push(`"peerDependencies" other than n8n-workflow: ${peers.join(', ')}`);
	if (problems.length > 0)
		unmet(`package.json installs code beside the package: ${problems.join('; ')}`);
	return 'no dependencies, optional or bundled dependencies; n8n-workflow is the only peer';
}

function mitLicense(root) {
	const manifest = packageOf(root);
	if (manifest.license !== 'MIT')
		unmet(`package.json's "license" is ${JSON.stringify(manifest.license)}, not "MIT"`);
	const file = ['LICENSE', 'LICENSE.md', 'LICENSE.txt'].find((name) =>
		existsSync(path.join(root, name)),
	);
	if (!file) unmet('no LICENSE file');
	const text = readFileSync(path.join(root, file), 'utf8').replace(/\s+/g, ' ');
	const clauses = [
		'MIT License',
		'Permission is hereby granted, free of charge, to any person obtaining a copy',
		'The above copyright notice and this permission notice shall be included in all copies',
		'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND',
	];
	const absent = clauses.filter((clause) => !text.includes(clause));
	if (absent.length > 0) unmet(`${file} is not the MIT license: it lacks "${absent[0]}"`);
	return `"license": "MIT" and ${file} holds the MIT license`;
}

function sourceRepository(root) {
	const manifest = packageOf(root);
	const repository = githubRepository(manifest.repository);
	if (!repository)
		unmet(
			`"repository" must be a GitHub repository URL (https://github.com/<owner>/<name>.git), not ${JSON.stringify(manifest.repository)}`,
		);
	const base = `https://github.com/${repository}`;
	const homepage = manifest.homepage ?? '';
	if (!(homepage === base || homepage.startsWith(`${base}#`) || homepage.startsWith(`${base}/`)))
		unmet(`"homepage" (${JSON.stringify(manifest.homepage)}) is not on the repository ${base}`);
	const bugs = typeof manifest.bugs === 'string' ? manifest.bugs : manifest.bugs?.url;
	if (bugs !== `${base}/issues`)
		unmet(`"bugs" (${JSON.stringify(bugs)}) must be the repository's issues, ${base}/issues`);
	const author =
		typeof manifest.author === 'string'
			? {
					name: manifest.author.replace(/[<(].*$/, '').trim(),
					email: /<([^>]+)>/.exec(manifest.author)?.[1],
				}
			: (manifest.author ?? {});
	if (!author.name?.trim()) unmet('"author" has no name');
	if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(author.email ?? ''))
		unmet(`"author" has no valid email (${JSON.stringify(author.email)})`);
	return `repository, homepage and bugs name ${base}; author ${author.name} <${author.email}>`;
}

function provenance(root) {
	const workflow = path.join(root, '.github', 'workflows', 'publish.yml');
	if (!existsSync(workflow)) unmet('no .github/workflows/publish.yml publishes the package');
	const text = readFileSync(workflow, 'utf8');
	if (!/^\s*id-token:\s*write\b/m.test(text))
		unmet('publish.yml does not grant "id-token: write": npm cannot sign the provenance');
	if (
		!/npm publish\b[^\n]*--provenance/.test(text) &&
		packageOf(root).publishConfig?.provenance !== true
	)
		unmet(
			'neither publish.yml (npm publish --provenance) nor publishConfig.provenance asks for provenance',
		);
	return 'publish.yml publishes from GitHub Actions with an OIDC token and --provenance';
}

// What reads the environment or the file system from node code: Node's modules for it, `process` in any form, and
// n8n's own file helpers.
const FILE_MODULES = new Set([
	'fs',
	'fs/promises',
	'node:fs',
	'node:fs/promises',
	'process',
	'node:process',
]);
const FILE_HELPERS = new Set(['createReadStream', 'writeContentToFile', 'getStoragePath']);

function noEnvironmentOrFiles(root) {
	const ts = createRequire(toolPath(root, 'typescript/package.json'))('typescript');
	const problems = [];
	const sources = ['nodes', 'credentials'].flatMap((folder) =>
		filesUnder(path.join(root, folder), (file) => file.endsWith('.ts') && !file.endsWith('.d.ts')),
	);
	for (const file of sources) {
		const source = ts.createSourceFile(
			file,
			readFileSync(file, 'utf8'),
			ts.ScriptTarget.Latest,
			true,
		);
		const report = (node, what) => {
			const { line } = source.getLineAndCharacterOfPosition(node.getStart());
			problems.push(`${path.relative(root, file)}:${line + 1}: ${what}`);
		};
		const moduleName = (node) => (node && ts.isStringLiteralLike(node) ? node.text : undefined);
		const visit = (node) => {
			if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
				const name = moduleName(node.moduleSpecifier);
				if (FILE_MODULES.has(name)) report(node, `imports ${name}`);
			} else if (ts.isCallExpression(node)) {
				const callee = node.expression;
				const name = moduleName(node.arguments[0]);
				if (
					(callee.kind === ts.SyntaxKind.ImportKeyword ||
						(ts.isIdentifier(callee) && callee.text === 'require')) &&
					FILE_MODULES.has(name)
				)
					report(node, `loads ${name}`);
			} else if (ts.isIdentifier(node) && node.text === 'process') {
				const parent = node.parent;
				const isPropertyName =
					(ts.isPropertyAccessExpression(parent) && parent.name === node) ||
					(ts.isPropertyAssignment(parent) && parent.name === node);
				if (!isPropertyName) report(node, 'reads process (environment variables)');
			} else if (ts.isPropertyAccessExpression(node) && FILE_HELPERS.has(node.name.text)) {
				report(node, `calls n8n's file helper ${node.name.text}`);
			} else if (ts.isStringLiteralLike(node) && /\$env\b/.test(node.text)) {
				report(node, 'evaluates $env (environment variables) in an expression');
			}
			ts.forEachChild(node, visit);
		};
		visit(source);
	}
	if (sources.length === 0) unmet('no node code found under nodes/ and credentials/');
	if (problems.length > 0) unmet(problems.join('\n'));
	return `${sources.length} files of nodes/ and credentials/ read no environment variable and no file`;
}

/** The sections of n8n's community node README template (n8n-node new). */
const README_SECTIONS = [
	'Installation',
	'Operations',
	'Credentials',
	'Compatibility',
	'Usage',
	'Resources',
	'Version history',
];

function readmeSections(root) {
	const file = path.join(root, 'README.md');
	if (!existsSync(file)) unmet('no README.md');
	const sections = new Map(
		readFileSync(file, 'utf8')
			.split(/^(?=## )/m)
			.map((part) => [/^## +(.+?)\s*$/m.exec(part)?.[1].toLowerCase(), part]),
	);
	const absent = README_SECTIONS.filter((section) => !sections.has(section.toLowerCase()));
	if (absent.length > 0) unmet(`README.md has no "## ${absent.join('", "## ')}" section`);
	const versions = Object.values(LINES).map((line) => line.n8n);
	const unnamed = versions.filter((version) => !sections.get('compatibility').includes(version));
	if (unnamed.length > 0)
		unmet(
			`README.md's Compatibility section does not name n8n ${unnamed.join(', ')}, which the suites run (LINES in scripts/n8n-install.mjs)`,
		);
	return `README.md has n8n's sections (${README_SECTIONS.join(', ')}); Compatibility names n8n ${versions.join(' and ')}`;
}

function communityKeyword(root) {
	const { name, keywords } = packageOf(root);
	if (!/^(@[a-z0-9-~][a-z0-9-._~]*\/)?n8n-nodes-[a-z0-9-._~]+$/.test(name ?? ''))
		unmet(
			`the package name ${JSON.stringify(name)} does not start with n8n-nodes- (or @<scope>/n8n-nodes-)`,
		);
	if (!Array.isArray(keywords) || !keywords.includes('n8n-community-node-package'))
		unmet('"keywords" lacks n8n-community-node-package: n8n would not list the package');
	return `${name}, keyword n8n-community-node-package`;
}

/** The points, in the guidelines' words. `id` selects one with --only. */
export const POINTS = [
	{
		id: 'n8n-node-lint',
		guideline: 'Use the n8n-node tool',
		title: 'n8n-node lint (strict)',
		check: n8nNodeLint,
	},
	{
		id: 'n8n-node-build',
		guideline: 'Use the n8n-node tool',
		title: 'n8n-node build',
		check: n8nNodeBuild,
	},
	{
		id: 'scanner',
		guideline: 'Follow n8n best practices',
		title: "n8n's scanner on the packed tarball",
		check: scanner,
	},
	{
		id: 'no-runtime-dependencies',
		guideline: 'No external dependencies',
		title: 'no runtime dependencies',
		check: noRuntimeDependencies,
	},
	{
		id: 'mit-license',
		guideline: 'Package source verification',
		title: 'MIT license',
		check: mitLicense,
	},
	{
		id: 'repository',
		guideline: 'Package source verification',
		title: 'repository, homepage, bugs and author',
		check: sourceRepository,
	},
	{
		id: 'provenance',
		guideline: 'Package source verification',
		title: 'published from a GitHub Action with provenance',
		check: provenance,
	},
	{
		id: 'no-environment-or-files',
		guideline: 'No access to environment variables or file system',
		title: 'node code',
		check: noEnvironmentOrFiles,
	},
	{
		id: 'readme',
		guideline: 'Proper documentation',
		title: 'README sections',
		check: readmeSections,
	},
	{
		id: 'keyword',
		guideline: 'Standards',
		title: 'keyword n8n-community-node-package',
		check: communityKeyword,
	},
];

const MANUAL = [
	'Node Types: not an existing n8n node, not a logic or flow-control node',
	'Package source verification: the GitHub repository is public and matches npm (repository URL, author / maintainer)',
	'Package source verification: the published version came from publish.yml with provenance (npmjs.com shows it; the scanner checks it)',
	"Use English language only; Proper documentation: the README's content",
	"Submission: n8n's Creator Portal",
];

async function verify({ root = projectRoot, only } = {}) {
	const chosen = only ? POINTS.filter((point) => only.includes(point.id)) : POINTS;
	const unknown = (only ?? []).filter((id) => !POINTS.some((point) => point.id === id));
	if (unknown.length > 0)
		throw new Error(
			`No point named ${unknown.join(', ')}; the points: ${POINTS.map((p) => p.id).join(', ')}`,
		);
	console.log(`n8n's verification guidelines, checked in ${root}:`);
	let failed = 0;
	for (const point of chosen) {
		const label = `${point.guideline}: ${point.title}`;
		const started = Date.now();
		try {
			const detail = await point.check(root);
			console.log(
				`  ✓ ${label} (${Math.round((Date.now() - started) / 100) / 10} s)\n      ${detail}`,
			);
		} catch (error) {
			failed++;
			const message = error instanceof Unmet ? error.message : (error.stack ?? String(error));
			console.log(`  ✗ ${label}\n${message.replace(/^/gm, '      ')}`);
		}
	}
	if (!only)
		console.log(
			`Left to people (CONTRIBUTING.md, Submitting for verification):\n  - ${MANUAL.join('\n  - ')}`,
		);
	console.log(
		failed === 0
			? `All ${chosen.length} points met.`
			: `${failed} of ${chosen.length} points not met.`,
	);
	return failed === 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const option = (name) => {
		const index = process.argv.indexOf(name);
		return index === -1 ? undefined : process.argv[index + 1];
	};
	const root = option('--root') ? path.resolve(option('--root')) : projectRoot;
	const only = option('--only')
		?.split(',')
		.map((id) => id.trim());
	process.exitCode = (await verify({ root, only })) ? 0 : 1;
}
