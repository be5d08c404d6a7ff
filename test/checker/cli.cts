/**
 * npm run check-never-twice -- [--scope NAME] [--depth N] [--bound B] [--distinct-starts] [--only-twice]: the exhaustive checker (search.cts) over the scopes of
 * scopes.cts, each up to its depth (or N), printing how many states and transitions each covered, how long it took,
 * and the first history that breaks the promise, as steps a person reads. Exits 1 when one does.
 */
import { performance } from 'node:perf_hooks';

import { SCOPES } from './scopes.cts';
import { check, describe } from './search.cts';

const argument = (name: string) => {
	const index = process.argv.indexOf(`--${name}`);
	return index === -1 ? undefined : process.argv[index + 1];
};

async function main() {
	const only = argument('scope');
	const depth = argument('depth');
	const bound = argument('bound');
	const scopes = SCOPES.filter((scope) => !only || scope.name === only);
	if (scopes.length === 0) {
		console.error(
			`No scope named ${only}; the scopes: ${SCOPES.map((scope) => scope.name).join(', ')}`,
		);
		process.exit(2);
	}
	const started = performance.now();
	let broken = 0;
	for (const scope of scopes) {
		const config = {
			...scope.config,
			...(depth ? { depth: Number(depth) } : {}),
			...(bound ? { bound: Number(bound) } : {}),
			...(process.argv.includes('--distinct-starts') ? { distinctStarts: true } : {}),
			...(process.argv.includes('--only-twice') ? { onlyTwice: true } : {}),
		};
		console.log(`\n${scope.name}: ${scope.title} (depth ${config.depth})`);
		const coverage = await check(config, {
			progress: ({ states, transitions }) =>
				console.log(`  ${states} states, ${transitions} transitions so far`),
		});
		console.log(
			`  ${coverage.states} states, ${coverage.transitions} transitions, ${coverage.complete} complete histories, ${(coverage.ms / 1000).toFixed(1)} s`,
		);
		if (coverage.found) {
			broken++;
			console.log(
				`  BROKEN: ${coverage.found.violations.join('; ')}\n${await describe(config, coverage.found.history)}`,
			);
		} else console.log('  every history kept the promise');
		console.log(
			`  lone retries that did not send what nobody may have sent (liveness): ${coverage.stuck} state${coverage.stuck === 1 ? '' : 's'}`,
		);
		if (coverage.firstStuck)
			console.log(
				`  the first: ${coverage.firstStuck.violations[0]}\n${await describe(config, coverage.firstStuck.history)}`,
			);
	}
	console.log(
		`\n${scopes.length - broken} of ${scopes.length} scopes kept the promise, ${((performance.now() - started) / 1000).toFixed(1)} s`,
	);
	process.exit(broken > 0 ? 1 : 0);
}

void main();
