// End-to-end: the package as users get it. Packed, published to a local registry (verdaccio), installed into
// fresh n8n 2.x user folders by `npm install` in ~/.n8n/nodes and by n8n's own Install endpoint (the one its
// Community Nodes page calls), run in real n8n against the emulator, then updated to a patch version both
// ways (npm with n8n restarted; n8n's Update endpoint, hot), and uninstalled through n8n.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { root } from '../../scripts/ensure-deps.mjs';
import { cleanNpmEnv, paths } from '../../scripts/n8n-install.mjs';
import { PACKAGE_NAME, setupOwner, startN8n } from '../../scripts/n8n-runtime.mjs';
import { startRegistry } from '../../scripts/registry.mjs';
import {
	actionWorkflow,
	activate,
	createCredential,
	credentialData,
	eventually,
	freePort,
	runAction,
	startEmulatorProcess,
	triggerWorkflow,
} from './env.mjs';
import { installWithNpm, resolveN8nWorkflowAsN8nDoes } from './installers.mjs';

const line = '2';
const n8nPaths = paths(line);
const n8nPackageDir = path.join(n8nPaths.base, 'node_modules', 'n8n');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const scratch = mkdtempSync(path.join(tmpdir(), 'mail-delivery-install-'));
let registry;
let emulator;
let packed;

const nodesFolder = (instance) => path.join(instance.userFolder, '.n8n', 'nodes');
const WAYS = {
	npm: {
		label: 'npm install in ~/.n8n/nodes',
		restarts: true,
		install: async (instance, update) =>
			installWithNpm({
				userFolder: instance.userFolder,
				packageName: PACKAGE_NAME,
				registry: registry.url,
				update,
			}),
	},
	n8n: {
		label: "n8n's Install endpoint (Settings → Community Nodes)",
		restarts: false,
		install: async (instance, update) => {
			await instance.session.rest(update ? 'PATCH' : 'POST', '/community-packages', {
				name: PACKAGE_NAME,
			});
			return path.join(nodesFolder(instance), 'node_modules', PACKAGE_NAME);
		},
	},
};
// n8n's installer talks to another registry than the public one only with a licence feature; n8n started with
// E2E_TESTS=true lets a test turn that feature on (PATCH /rest/e2e/feature), so its real endpoints run here.
const N8N_INSTALLER_ENV = () => ({
	E2E_TESTS: 'true',
	N8N_COMMUNITY_PACKAGES_REGISTRY: registry.url,
	NPM_CONFIG_REGISTRY: registry.url,
});
const instances = {};

function pack(directory) {
	const [result] = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', scratch], {
			cwd: directory,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe'],
			env: cleanNpmEnv(),
		}),
	);
	return {
		file: path.join(scratch, result.filename),
		files: result.files.map((entry) => entry.path),
		version: result.version,
		entryCount: result.entryCount,
		unpackedSize: result.unpackedSize,
	};
}

/**
 * Publishes to the local registry. Without `--provenance=false`, npm would refuse as the package's
 * publishConfig asks it to (provenance needs a CI provider's OIDC token): that is the real release's guard.
 */
function publish(tarball) {
	execFileSync('npm', ['publish', tarball, '--ignore-scripts', '--provenance=false'], {
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
		env: cleanNpmEnv({ npm_config_userconfig: registry.userConfig }),
	});
}

async function startInstance(way) {
	const instance = instances[way];
	const extraEnv = way === 'n8n' ? N8N_INSTALLER_ENV() : {};
	instance.n8n = await startN8n({
		line,
		userFolder: instance.userFolder,
		port: instance.port,
		linkWorkingTree: false,
		extraEnv,
	});
	instance.session = await setupOwner(instance.n8n.baseUrl);
	if (way === 'n8n') {
		const answer = await fetch(`${instance.n8n.baseUrl}/rest/e2e/feature`, {
			method: 'PATCH',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ feature: 'feat:communityNodes:customRegistry', enabled: true }),
		});
		assert.ok(
			answer.ok,
			`n8n did not turn on its custom-registry feature: ${answer.status} ${await answer.text()}`,
		);
	}
	return instance;
}

const installedVersion = (packageDir) =>
	JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')).version;

async function callSavedSend(instance) {
	const answer = await fetch(`${instance.n8n.baseUrl}/webhook/${instance.savedHook}`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ email: `${instance.way}@example.org` }),
	});
	const text = await answer.text();
	return { status: answer.status, data: text ? JSON.parse(text) : text };
}

before(async () => {
	const started = Date.now();
	registry = await startRegistry({ port: await freePort(), packageName: PACKAGE_NAME });
	emulator = await startEmulatorProcess();
	packed = pack(root);
	// Published whatever it holds: the install tests show what a user would get from a faulty tarball too.
	publish(packed.file);
	console.log(
		`registry ready in ${registry.startupMs} ms; tarball ${path.basename(packed.file)}: ${packed.entryCount} files, ${packed.unpackedSize} bytes unpacked (${Date.now() - started} ms)`,
	);
});

after(async () => {
	for (const instance of Object.values(instances)) await instance.n8n?.stop();
	await emulator?.stop();
	await registry?.stop();
	for (const instance of Object.values(instances))
		rmSync(instance.userFolder, { recursive: true, force: true });
	rmSync(scratch, { recursive: true, force: true });
});

test("the tarball holds every file the n8n section names, and nothing of the build's own state", () => {
	const named = [...manifest.n8n.nodes, ...manifest.n8n.credentials];
	const missing = named.filter((file) => !packed.files.includes(file));
	assert.deepEqual(
		missing,
		[],
		`package.json's n8n section names ${missing.join(', ')}, which the tarball lacks`,
	);
	for (const node of manifest.n8n.nodes) {
		for (const icon of ['mailDelivery.svg', 'mailDelivery.dark.svg'])
			assert.ok(
				packed.files.includes(path.posix.join(path.posix.dirname(node), icon)),
				`${node}: icon ${icon} missing`,
			);
	}
	const buildState = packed.files.filter(
		(file) =>
			/tsbuildinfo$|\.d\.ts$|\.js\.map$/.test(file) ||
			file === 'dist/package.json' ||
			!/^(dist\/|package\.json$|README\.md$|LICENSE$)/.test(file),
	);
	assert.deepEqual(buildState, [], 'files that n8n does not need');
	assert.equal(manifest.dependencies, undefined, 'no runtime dependencies');
	assert.deepEqual(
		manifest.peerDependenciesMeta?.['n8n-workflow'],
		{ optional: true },
		'npm must not install its own n8n-workflow beside n8n',
	);
});

for (const [way, { label, install, restarts }] of Object.entries(WAYS)) {
	test(`${label}: n8n loads both nodes and all three credentials, with n8n's own n8n-workflow`, async () => {
		const instance = (instances[way] = {
			way,
			userFolder: mkdtempSync(path.join(tmpdir(), `mail-delivery-${way}-`)),
			port: await freePort(),
		});
		// npm installs with n8n stopped, then n8n starts; n8n's own installer runs inside a running n8n.
		if (!restarts) await startInstance(way);
		const started = Date.now();
		instance.packageDir = await install(instance, false);
		console.log(`${label}: installed in ${Date.now() - started} ms`);
		assert.equal(installedVersion(instance.packageDir), packed.version);
		assert.ok(
			!existsSync(path.join(nodesFolder(instance), 'node_modules', 'n8n-workflow')),
			'a second n8n-workflow was installed beside the package',
		);
		const resolved = resolveN8nWorkflowAsN8nDoes({
			nodeBin: n8nPaths.nodeBin,
			packageDir: instance.packageDir,
			n8nPackageDir,
		});
		assert.equal(
			resolved.package,
			resolved.n8n,
			'the package would load another n8n-workflow than n8n itself',
		);

		if (restarts) await startInstance(way);
		const get = async (route) =>
			(
				await fetch(`${instance.n8n.baseUrl}${route}`, {
					headers: { cookie: instance.session.cookie },
				})
			).json();
		const nodes = (await get('/types/nodes.json')).map((type) => type.name);
		const said =
			instance.n8n.output
				.join('')
				.split('\n')
				.filter((text) => text.includes(PACKAGE_NAME))
				.join('\n') || 'nothing about the package';
		for (const name of ['mailDelivery', 'mailDeliveryTrigger'])
			assert.ok(
				nodes.includes(`${PACKAGE_NAME}.${name}`),
				`n8n did not load ${name}; n8n said: ${said}`,
			);
		const credentialTypes = (await get('/types/credentials.json')).map((type) => type.name);
		for (const name of [
			'mailDeliverySignatureApi',
			'mailDeliveryClientCredentialsOAuth2Api',
			'mailDeliveryAuthCodeOAuth2Api',
		])
			assert.ok(credentialTypes.includes(name), name);
	});

	test(`${label}: an action workflow sends mail and a trigger round trip becomes an execution`, async () => {
		const instance = instances[way];
		assert.ok(instance?.session, 'n8n did not start');
		const credential = await createCredential(
			instance.session,
			'mailDeliverySignatureApi',
			credentialData(emulator, 'mailDeliverySignatureApi'),
		);
		instance.credential = credential;
		const mails = async () => (await emulator.control('GET', 'mails')).mails.length;

		// A saved, active workflow: the update test calls it again after n8n restarts on the new version.
		const { workflow, hookPath } = actionWorkflow({
			name: `installed send (${way})`,
			credential,
			parameters: {
				resource: 'transactionalMail',
				operation: 'send',
				senderMail: { __rl: true, mode: 'name', value: 'sender@example.com' },
				to: '={{ $json.body.email }}',
				contentSource: 'template',
				templateName: { __rl: true, mode: 'name', value: 'welcome' },
				// The template's {{name}} goes out empty: this send tests the install, not tags.
				options: { missingTagValues: 'send' },
			},
		});
		await activate(instance.session, workflow);
		instance.savedHook = hookPath;
		const before = await mails();
		const sent = await eventually(async () => {
			const answer = await callSavedSend(instance);
			return answer.status === 404 ? false : answer;
		}, "the saved workflow's webhook");
		assert.equal(sent.status, 200, JSON.stringify(sent.data).slice(0, 300));
		assert.equal(await mails(), before + 1);

		const state = async () => (await emulator.control('GET', 'state')).webhook;
		const prior = await state();
		const id = await activate(
			instance.session,
			triggerWorkflow({ name: `installed trigger (${way})`, credential }),
		);
		await eventually(
			async () =>
				String((await state()).transCallbackUrl).startsWith(`${instance.n8n.baseUrl}/webhook/`),
			'the trigger to register',
		);
		const recipients = ['ok@example.org', 'bounce@example.org'];
		const send = await runAction(instance, {
			name: `installed send for the trigger (${way})`,
			credential,
			parameters: {
				resource: 'transactionalMail',
				operation: 'send',
				senderMail: { __rl: true, mode: 'name', value: 'sender@example.com' },
				messageSource: 'definedHere',
				contentSource: 'html',
				content: '<p>x</p>',
				subject: 's',
				versionsMode: 'json',
				messageVersionsJson: JSON.stringify([{ to: recipients.map((email) => ({ email })) }]),
			},
		});
		assert.equal(send.status, 200, JSON.stringify(send.data).slice(0, 300));
		await emulator.control('POST', 'flush');
		const executions = await eventually(async () => {
			const found =
				(await instance.session.api('GET', `/executions?workflowId=${id}&includeData=true`)).data ??
				[];
			return found.length > 0 && found.every((execution) => execution.status === 'success')
				? found
				: false;
		}, 'the trigger execution');
		const items = executions.flatMap((execution) =>
			execution.data.resultData.runData['Mail Delivery Trigger'][0].data.main.flat(),
		);
		assert.deepEqual(items.map((item) => item.json.Email).sort(), [...recipients].sort());
		assert.ok(items.every((item) => /^\d{19}$/.test(item.json.MailSeqId)));
		await instance.session.api('POST', `/workflows/${id}/deactivate`);
		await eventually(
			async () => JSON.stringify(await state()) === JSON.stringify(prior),
			'the configuration to be restored',
		);
	});
}

test("a patch version, updated both ways (npm with n8n restarted, n8n's Update endpoint without): the saved workflows still run on it", async () => {
	// The same package with the next patch version, published as a release would be.
	const unpacked = path.join(scratch, 'next');
	mkdirSync(unpacked, { recursive: true });
	execFileSync('tar', ['-xzf', packed.file, '-C', unpacked, '--strip-components=1']);
	const next = JSON.parse(readFileSync(path.join(unpacked, 'package.json'), 'utf8'));
	const [major, minor, patch] = next.version.split('.').map(Number);
	next.version = `${major}.${minor}.${patch + 1}`;
	writeFileSync(path.join(unpacked, 'package.json'), JSON.stringify(next, null, 2));
	publish(pack(unpacked).file);

	for (const [way, { label, install, restarts }] of Object.entries(WAYS)) {
		const instance = instances[way];
		assert.ok(instance?.savedHook, `${label}: no saved workflow from the earlier tests`);
		if (restarts) await instance.n8n.stop();
		await install(instance, true);
		assert.equal(installedVersion(instance.packageDir), next.version, `${label}: not updated`);
		// n8n's installer records the exact version in the nodes folder's package.json (it reads it back on updates);
		// npm keeps the user's range (^x.y.z), which the new version satisfies.
		const recorded = JSON.parse(
			readFileSync(path.join(instance.userFolder, '.n8n', 'nodes', 'package.json'), 'utf8'),
		).dependencies[PACKAGE_NAME];
		assert.equal(recorded, way === 'n8n' ? next.version : `^${packed.version}`);
		if (restarts) await startInstance(way);
		const before = (await emulator.control('GET', 'mails')).mails.length;
		const sent = await eventually(
			async () => {
				const answer = await callSavedSend(instance);
				return answer.status === 404 ? false : answer;
			},
			`${label}: the saved workflow's webhook after the restart`,
			60_000,
		);
		assert.equal(sent.status, 200, `${label}: ${JSON.stringify(sent.data).slice(0, 300)}`);
		assert.equal((await emulator.control('GET', 'mails')).mails.length, before + 1);
	}
});

test("n8n's Uninstall endpoint removes the package: its nodes are no longer offered", async () => {
	const instance = instances.n8n;
	assert.ok(instance?.session, 'n8n did not start');
	await instance.session.rest(
		'DELETE',
		`/community-packages?name=${encodeURIComponent(PACKAGE_NAME)}`,
	);
	const get = async (route) =>
		(
			await fetch(`${instance.n8n.baseUrl}${route}`, {
				headers: { cookie: instance.session.cookie },
			})
		).json();
	const nodes = (await get('/types/nodes.json')).map((type) => type.name);
	assert.ok(
		!nodes.includes(`${PACKAGE_NAME}.mailDelivery`),
		'the node is still offered after uninstalling',
	);
	assert.ok(
		!existsSync(path.join(nodesFolder(instance), 'node_modules', PACKAGE_NAME)),
		'the package folder is still there',
	);
});
