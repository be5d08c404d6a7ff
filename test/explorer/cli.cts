/**
 * npm run explore -- [--histories N] [--seed S] [--all]: a long run of the history explorer (explore.cts). Prints
 * the progress, the totals, and a failing history shrunk and printed as a test; exits 1 when one breaks the promise.
 * --all goes on after a failure with the next seed, until N histories ran, and prints each kind of failure once.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

process.env.N8N_USER_FOLDER ??= mkdtempSync(path.join(tmpdir(), 'mail-delivery-explore-'));
process.env.N8N_LOG_LEVEL ??= 'silent';

const argument = (name: string, fallback: number) => {
	const index = process.argv.indexOf(`--${name}`);
	return index === -1 ? fallback : Number(process.argv[index + 1]);
};

async function main() {
	const histories = argument('histories', 1000);
	let seed = argument('seed', Math.floor(Math.random() * 1_000_000));
	const all = process.argv.includes('--all');
	console.log(
		`Exploring ${histories} histories from seed ${seed}${all ? ', every kind of failure' : ''}`,
	);
	// Imported after the environment is set: n8n-core reads it as it loads.
	const { explore } = await import('./explore.cts');
	const started = performance.now();
	const seconds = () => Math.round((performance.now() - started) / 1000);
	const failures = new Map<string, string>();
	for (let ran = 0; ran < histories; seed++) {
		const result = await explore({ histories: histories - ran, seed }, (done) => {
			if (done % 100 === 0) console.log(`  seed ${seed}: ${done} histories, ${seconds()} s`);
		});
		ran += result.histories;
		console.log(
			`seed ${seed}: ${result.histories} histories, ${seconds()} s in all: ${JSON.stringify(result.totals)}`,
		);
		if (!result.failure) break;
		const kind = [
			...new Set([...result.failure.matchAll(/"do":"(\w+)"/g)].map((match) => match[1])),
		]
			.sort()
			.join(',');
		if (!failures.has(kind)) {
			failures.set(kind, result.failure);
			console.log(
				`\nA history broke the promise (seed ${seed}); shrunk, as a test:\n\n${result.failure}\n`,
			);
			console.log(`Again: npm run explore -- --histories ${histories} --seed ${seed}\n`);
		}
		if (!all) break;
	}
	if (failures.size > 0) process.exit(1);
	console.log(`Every history kept the promise (${seconds()} s).`);
	// Done: timers a history left (a wait's, a request's time-out) must not keep the command alive.
	process.exit(0);
}

void main();
