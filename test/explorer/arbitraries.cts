/**
 * Random histories (fast-check arbitraries; fast-check shrinks a failing one to a short one) and a history printed
 * as a test to paste into test/workflows/never-twice.test.cts.
 */
import fc from 'fast-check';

import type { Fault } from '../../emulator/types.cts';
import type { Hold } from '../harness/n8n.cts';
import type { Setup, Step } from './history.cts';

const FAULTS: Fault[] = [
	'network',
	'badGateway',
	'tooManyRequests',
	'internalError',
	'resetAfter',
	'hang',
];

export const setupArbitrary: fc.Arbitrary<Setup> = fc
	.constantFrom<Setup['operation']>('send', 'send', 'upsert', 'upsert', 'sendAndWait')
	.chain((operation) =>
		fc.record({
			operation: fc.constant(operation),
			items:
				operation === 'send'
					? fc.constantFrom(1, 3, 150, 250)
					: operation === 'upsert'
						? fc.constantFrom(1, 3, 12)
						: fc.constant(1),
			parallel: fc.constantFrom(1, 4),
			continueOnError: fc.boolean(),
			retryOnFail: fc.constantFrom(0, 0, 2, 3),
			saveProgress: fc.boolean(),
			startMinute: fc.constantFrom(1, 30, 59),
			ranBefore: fc.boolean(),
		}),
	);

const holdArbitrary: fc.Arbitrary<Hold> = fc.oneof(
	fc.record({
		point: fc.constant({ at: 'gate' as const }),
		then: fc.constantFrom<Hold['then']>('kill', 'stop', 'pause'),
	}),
	fc
		.record({
			index: fc.integer({ min: 1, max: 3 }),
			reached: fc.boolean(),
			then: fc.constantFrom<Hold['then']>('kill', 'stop', 'pause'),
		})
		// A paused request is held before it leaves.
		.map(({ index, reached, then }) => ({
			point: { at: 'request' as const, index, reached: reached && then !== 'pause' },
			then,
		})),
	fc.record({
		point: fc.record({ at: fc.constant('write' as const), index: fc.integer({ min: 1, max: 4 }) }),
		then: fc.constantFrom<Hold['then']>('kill', 'stop'),
	}),
);

const earlier = fc.integer({ min: 1, max: 6 });
const maybeHold = fc.option(holdArbitrary, { nil: undefined, freq: 2 });

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
	{
		weight: 3,
		arbitrary: fc.record(
			{ do: fc.constant('start' as const), hold: maybeHold, gateWaits: fc.boolean() },
			{ requiredKeys: ['do'] },
		),
	},
	{
		weight: 4,
		arbitrary: fc.record(
			{
				do: fc.constant('retry' as const),
				of: earlier,
				savedWorkflow: fc.boolean(),
				hold: maybeHold,
			},
			{ requiredKeys: ['do', 'of', 'savedWorkflow'] },
		),
	},
	{
		weight: 1,
		arbitrary: fc.record(
			{ do: fc.constant('resume' as const), of: earlier, hold: maybeHold },
			{ requiredKeys: ['do', 'of'] },
		),
	},
	{ weight: 2, arbitrary: fc.record({ do: fc.constant('release' as const), of: earlier }) },
	{ weight: 1, arbitrary: fc.record({ do: fc.constant('kill' as const), of: earlier }) },
	{
		weight: 2,
		arbitrary: fc.record({
			do: fc.constant('fault' as const),
			fault: fc.constantFrom(...FAULTS),
			skip: fc.integer({ min: 0, max: 3 }),
		}),
	},
	{ weight: 1, arbitrary: fc.constant({ do: 'recreateNode' as const }) },
	{ weight: 1, arbitrary: fc.constant({ do: 'renameNode' as const }) },
	{
		weight: 1,
		arbitrary: fc.record({ do: fc.constant('redoAfterACrash' as const), on: fc.boolean() }),
	},
	{
		weight: 1,
		arbitrary: fc.record({
			do: fc.constant('laterRuns' as const),
			count: fc.integer({ min: 1, max: 3 }),
		}),
	},
	{ weight: 2, arbitrary: fc.record({ do: fc.constant('pushOut' as const), of: earlier }) },
	{
		weight: 1,
		arbitrary: fc.record({
			do: fc.constant('clock' as const),
			minutes: fc.constantFrom(1, 30, 61, 24 * 60, 25 * 60),
		}),
	},
);

export const historyArbitrary = fc.tuple(
	setupArbitrary,
	fc.array(stepArbitrary, { minLength: 1, maxLength: 10 }),
);

/** A failing history as a test to paste into test/workflows/never-twice.test.cts. */
export function asTest(title: string, setup: Setup, steps: Step[], violations: string[]) {
	const lines = steps.map((step) => `\t\t\t${JSON.stringify(step)},`).join('\n');
	return [
		`test(${JSON.stringify(title)}, async () => {`,
		`\t// ${violations.join('\n\t// ')}`,
		`\tawait neverTwice(`,
		`\t\t${JSON.stringify(setup)},`,
		`\t\t[`,
		lines,
		`\t\t],`,
		`\t);`,
		`});`,
	].join('\n');
}
