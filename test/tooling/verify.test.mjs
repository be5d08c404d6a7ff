// `npm run verify` fails, naming the point, when any one of n8n's verification points is broken: each test copies
// the package to a temporary folder, breaks one point there and runs verify on the copy (only the points it
// concerns, so the run stays short; the whole of verify runs on the real tree in `npm test`).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import {
	appendFileSync,
	cpSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	realpathSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { root } from '../../scripts/ensure-deps.mjs';
import { LINES } from '../../scripts/n8n-install.mjs';
import { POINTS } from '../../scripts/verify.mjs';

const VERIFY = path.join(root, 'scripts', 'verify.mjs');
const COPIED = [
	'package.json',
	'LICENSE',
	'README.md',
	'eslint.config.mjs',
	'tsconfig.json',
	'.npmrc',
	'.github',
	'nodes',
	'credentials',
	'dist',
];
const CHEAP = POINTS.filter(
	(point) => !['n8n-node-lint', 'n8n-node-build', 'scanner'].includes(point.id),
).map((point) => point.id);
const labelOf = (id) => {
	const point = POINTS.find((candidate) => candidate.id === id);
	return `${point.guideline}: ${point.title}`;
};

const copies = [];
/** A copy of the package (dist/ as built, node_modules linked) that a test may break. */
function copyOfPackage() {
	const copy = mkdtempSync(path.join(os.tmpdir(), 'verify-copy-'));
	copies.push(copy);
	for (const name of COPIED)
		cpSync(path.join(root, name), path.join(copy, name), { recursive: true });
	symlinkSync(realpathSync(path.join(root, 'node_modules')), path.join(copy, 'node_modules'));
	return copy;
}
after(() => copies.forEach((copy) => rmSync(copy, { recursive: true, force: true })));

function verify(copy, ids) {
	const result = spawnSync(process.execPath, [VERIFY, '--root', copy, '--only', ids.join(',')], {
		encoding: 'utf8',
	});
	return { status: result.status, output: `${result.stdout}${result.stderr}` };
}
const editJson = (file, change) =>
	writeFileSync(file, JSON.stringify(change(JSON.parse(readFileSync(file, 'utf8'))), null, '\t'));
const editText = (file, change) => writeFileSync(file, change(readFileSync(file, 'utf8')));

/** Verify, run on the copy, fails, marks exactly `id` as not met, and says `why`. */
function assertNames(copy, id, why, ids = [id]) {
	const { status, output } = verify(copy, ids);
	assert.equal(status, 1, `verify should fail:\n${output}`);
	assert.ok(output.includes(`✗ ${labelOf(id)}`), `verify should name "${labelOf(id)}":\n${output}`);
	for (const other of ids.filter((other) => other !== id))
		assert.ok(
			output.includes(`✓ ${labelOf(other)}`),
			`"${labelOf(other)}" should still pass:\n${output}`,
		);
	assert.match(output, why);
}

before(() => {
	if (!existsSync(path.join(root, 'dist')))
		execFileSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' });
});

describe('verify on an intact copy', () => {
	test('meets every point that needs no build', () => {
		const { status, output } = verify(copyOfPackage(), CHEAP);
		assert.equal(status, 0, output);
		for (const id of CHEAP) assert.ok(output.includes(`✓ ${labelOf(id)}`), output);
	});
});

describe('verify names the one point that is broken', () => {
	test("Use the n8n-node tool: eslint.config.mjs changed from n8n's default", () => {
		const copy = copyOfPackage();
		editText(
			path.join(copy, 'eslint.config.mjs'),
			(text) => `${text}\nexport const extra = [{ rules: { 'no-console': 'off' } }];\n`,
		);
		assertNames(
			copy,
			'n8n-node-lint',
			/Strict mode violation: eslint\.config\.mjs has been modified/,
		);
	});

	test('Use the n8n-node tool: strict mode turned off', () => {
		const copy = copyOfPackage();
		editJson(path.join(copy, 'package.json'), (manifest) => ({
			...manifest,
			n8n: { ...manifest.n8n, strict: false },
		}));
		assertNames(copy, 'n8n-node-lint', /strict mode is off/);
	});

	test('Use the n8n-node tool: node code n8n-node lint refuses', () => {
		const copy = copyOfPackage();
		appendFileSync(
			path.join(copy, 'nodes', 'MailDelivery', 'MailDelivery.node.ts'),
			'\nexport const startedAt = setTimeout(() => undefined, 1);\n',
		);
		assertNames(copy, 'n8n-node-lint', /no-restricted-globals/);
	});

	test('Use the n8n-node tool: development code in a .ts file, which n8n-node lint reads from the root', () => {
		// The copy holds the package alone; that the real tree's development code passes is `npm run verify` on
		// the real root, in `npm test`.
		const copy = copyOfPackage();
		mkdirSync(path.join(copy, 'test'));
		// A test helper as .cts (how the project writes development code) stays out of n8n's node rules…
		writeFileSync(path.join(copy, 'test', 'helper.cts'), 'export const wait = setTimeout;\n');
		assert.equal(verify(copy, ['n8n-node-lint']).status, 0);
		// …and the same helper as .ts is linted as node code, as n8n lints the root.
		writeFileSync(path.join(copy, 'test', 'helper.ts'), 'export const wait = setTimeout;\n');
		assertNames(copy, 'n8n-node-lint', /test\/helper\.ts[\s\S]*no-restricted-globals/);
	});

	test('Use the n8n-node tool: node code that does not compile', () => {
		const copy = copyOfPackage();
		appendFileSync(
			path.join(copy, 'nodes', 'MailDelivery', 'MailDelivery.node.ts'),
			'\nexport const count: number = "one";\n',
		);
		assertNames(copy, 'n8n-node-build', /TypeScript build failed|not assignable/);
	});

	test("Follow n8n best practices: the tarball's JavaScript fails n8n's scanner", () => {
		const copy = copyOfPackage();
		appendFileSync(
			path.join(copy, 'dist', 'nodes', 'MailDelivery', 'MailDelivery.node.js'),
			'\nsetTimeout(() => undefined, 1);\n',
		);
		assertNames(
			copy,
			'scanner',
			/tarball n8n-nodes-mail-delivery-[\d.]+\.tgz: ESLint violations found[\s\S]*setTimeout/,
		);
	});

	test('No external dependencies: a runtime dependency', () => {
		const copy = copyOfPackage();
		editJson(path.join(copy, 'package.json'), (manifest) => ({
			...manifest,
			dependencies: { lodash: '4.17.21' },
		}));
		assertNames(copy, 'no-runtime-dependencies', /"dependencies": lodash/, CHEAP);
	});

	test('Package source verification: a license field other than MIT', () => {
		const copy = copyOfPackage();
		editJson(path.join(copy, 'package.json'), (manifest) => ({ ...manifest, license: 'ISC' }));
		assertNames(copy, 'mit-license', /"license" is "ISC"/, CHEAP);
	});

	test('Package source verification: a LICENSE file that is not MIT', () => {
		const copy = copyOfPackage();
		writeFileSync(path.join(copy, 'LICENSE'), 'Apache License\nVersion 2.0, January 2004\n');
		assertNames(copy, 'mit-license', /LICENSE is not the MIT license/, CHEAP);
	});

	test('Package source verification: bugs on another repository', () => {
		const copy = copyOfPackage();
		editJson(path.join(copy, 'package.json'), (manifest) => ({
			...manifest,
			bugs: { url: 'https://github.com/someone-else/n8n-nodes-mail-delivery/issues' },
		}));
		assertNames(copy, 'repository', /"bugs" .* must be the repository's issues/, CHEAP);
	});

	test('Package source verification: homepage elsewhere', () => {
		const copy = copyOfPackage();
		editJson(path.join(copy, 'package.json'), (manifest) => ({
			...manifest,
			homepage: 'https://example.com/mail-delivery',
		}));
		assertNames(copy, 'repository', /"homepage" .* is not on the repository/, CHEAP);
	});

	test('Package source verification: an author without email', () => {
		const copy = copyOfPackage();
		editJson(path.join(copy, 'package.json'), (manifest) => ({
			...manifest,
			author: { name: manifest.author.name },
		}));
		assertNames(copy, 'repository', /"author" has no valid email/, CHEAP);
	});

	test('Package source verification: a publish workflow without an OIDC token', () => {
		const copy = copyOfPackage();
		editText(path.join(copy, '.github', 'workflows', 'publish.yml'), (text) =>
			text.replace(/^\s*id-token: write.*$/m, ''),
		);
		assertNames(copy, 'provenance', /does not grant "id-token: write"/, CHEAP);
	});

	test('No access to environment variables or file system: node code reading an environment variable', () => {
		const copy = copyOfPackage();
		appendFileSync(
			path.join(copy, 'nodes', 'shared', 'dates.ts'),
			'\nexport const zone = process.env.TZ;\n',
		);
		assertNames(
			copy,
			'no-environment-or-files',
			/nodes\/shared\/dates\.ts:\d+: reads process/,
			CHEAP,
		);
	});

	test('No access to environment variables or file system: node code reading a file', () => {
		const copy = copyOfPackage();
		appendFileSync(
			path.join(copy, 'credentials', 'common.ts'),
			"\nexport { readFileSync } from 'node:fs';\n",
		);
		assertNames(
			copy,
			'no-environment-or-files',
			/credentials\/common\.ts:\d+: imports node:fs/,
			CHEAP,
		);
	});

	test('Proper documentation: a README without its Compatibility section', () => {
		const copy = copyOfPackage();
		editText(path.join(copy, 'README.md'), (text) =>
			text.replace(/^## Compatibility$/m, '## Versions'),
		);
		assertNames(copy, 'readme', /no "## Compatibility" section/, CHEAP);
	});

	test('Proper documentation: a Compatibility section that does not name the n8n the suites run', () => {
		const copy = copyOfPackage();
		editText(path.join(copy, 'README.md'), (text) => text.replaceAll(LINES[2].n8n, '2.40.0'));
		assertNames(copy, 'readme', new RegExp(`does not name n8n ${LINES[2].n8n}`), CHEAP);
	});

	test('Standards: no n8n-community-node-package keyword', () => {
		const copy = copyOfPackage();
		editJson(path.join(copy, 'package.json'), (manifest) => ({
			...manifest,
			keywords: manifest.keywords.filter((keyword) => keyword !== 'n8n-community-node-package'),
		}));
		assertNames(copy, 'keyword', /lacks n8n-community-node-package/, CHEAP);
	});
});
