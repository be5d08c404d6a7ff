/**
 * The exhaustive checker's quick scopes (test/checker: every history of a small world up to a depth, on the node's
 * real retry code, one n8n process with kills and restarts, and two processes whose store writes lose each other's):
 * nobody twice everywhere, and in n8n's one process a lone retry sends what nobody may have sent.
 * `npm run check-never-twice` runs the deeper scopes; docs/reliability.md says what is modelled.
 */
import { SCOPES } from '../checker/scopes.cts';
import { check, describe as steps } from '../checker/search.cts';

for (const scope of SCOPES)
	test(`every history of the checker's scope "${scope.name}" up to ${scope.quickDepth} steps keeps the promise: ${scope.title}`, async () => {
		const config = { ...scope.config, depth: scope.quickDepth };
		const coverage = await check(config);
		const found = coverage.found && (await steps(config, coverage.found.history));
		expect(found ?? 'none').toBe('none');
		expect(coverage.states).toBeGreaterThan(100);
		// In n8n's one process a lone retry sends what nobody may have sent (liveness, beside the promise).
		if (scope.config.processes === 1 && scope.liveness) {
			const stuck = coverage.firstStuck && (await steps(config, coverage.firstStuck.history));
			expect(stuck ?? 'none').toBe('none');
		}
	}, 300_000);
