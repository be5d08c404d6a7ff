/**
 * The fast reading of item references (nodes/MailDelivery/items/itemReferences.ts) against n8n itself: for a
 * corpus of stored parameter values × items, whatever readFromItem answers must be what n8n's
 * getNodeParameter returns for the same value and item (type and value: -0, NaN, undefined), with every
 * engine of every n8n line the package supports. Jest's own n8n (2.41, Node 20) runs legacy and quickjs
 * in-process; line 2's n8n under Node 24 runs vm (n8n 2.x's default), quickjs and legacy; line 1's n8n legacy.
 * Where engines disagree, readFromItem must leave the value to n8n.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

import fc from 'fast-check';
import * as core from 'n8n-core';
import * as n8nWorkflow from 'n8n-workflow';

import { compileItemReading, readFromItem } from '../../nodes/MailDelivery/items/itemReferences';
import { installedN8n } from '../harness/n8nInstall.cts';

// The probe is plain JavaScript (it also runs as a script under other Node.js versions): required, typed here.
const { encode, decode, probe } = require('../harness/parameter-probe.cjs') as {
	encode: (value: unknown) => unknown;
	decode: (value: unknown) => unknown;
	probe: (
		modules: object,
		run: { engine: string; parameters: string[]; items: unknown[] },
	) => Promise<EngineRun>;
};

interface EngineRun {
	engine: string;
	results: unknown[][];
	received: unknown[];
}

const MISSING = Symbol('missing');

/** Leaf values: each gives one item holding it at every path the shapes read. */
const VALUES: unknown[] = [
	'',
	'Ada',
	'ada@example.org',
	'Grâce Hopper ✓ 日本語 🎉',
	'=starts with an equals sign',
	'{{ $json.v }}',
	'{{orderId}}',
	'back\\slash \\\\ two',
	'line\nbreak\ttab',
	'  spaced  ',
	'nul \u0000 inside',
	'lone \ud800 surrogate',
	'x'.repeat(5000),
	0,
	-0,
	NaN,
	Infinity,
	-Infinity,
	1,
	-1,
	42,
	1.5,
	0.1 + 0.2,
	-1.5e-10,
	1e-7,
	123e-20,
	1e21,
	123456789012345680000,
	2 ** 53 + 2,
	Number.MAX_SAFE_INTEGER,
	Number.MAX_VALUE,
	Number.MIN_VALUE,
	true,
	false,
	null,
	MISSING,
	{ k: 'x' },
	{},
	['a', 'b'],
	[],
	[{ k: 'x' }],
	new Date('2026-01-02T03:04:05.000Z'),
];

/** Keys the shapes name, beside `v`: spaces, dots, brackets, quotes, unicode, words JavaScript reserves. */
const KEYS = [
	'v',
	'first name',
	'a.b',
	'a[b]',
	'q"uote',
	"s'quote",
	'back\\slash',
	'prénom',
	'名前',
	'class',
	'default',
	'new',
	'null',
	'undefined',
	'NaN',
	'globalThis',
	'this',
	'window',
	'self',
	'eval',
	'E',
	'___n8n_data',
	'__sanitize',
	'process',
	'isProxy',
	'__isObject',
	'__n8nType',
	'0',
];

function itemWith(value: unknown) {
	const item: Record<string, unknown> = {};
	const put = (target: Record<string, unknown>, key: string) => {
		if (value !== MISSING) target[key] = value;
	};
	for (const key of KEYS) put(item, key);
	const customer: Record<string, unknown> = {};
	put(customer, 'email');
	put(customer, 'first name');
	item.customer = customer;
	item.list = value === MISSING ? [] : [value];
	const c: Record<string, unknown> = {};
	put(c, 'c');
	item.deep = { a: { b: c } };
	return item;
}

/** Items whose own shape, not a leaf value, decides: steps missing or not objects, special own keys. */
const SHAPE_ITEMS: Array<Record<string, unknown>> = [
	{},
	{ customer: null, list: null, deep: null },
	{ customer: 'text', list: 'abc', deep: 7 },
	{ customer: [], list: {}, deep: { a: [] } },
	{ customer: { email: { nested: 1 } }, list: [[1]], deep: { a: { b: null } } },
	{ customer: Object.assign(Object.create(null), { email: 'null-prototype@example.org' }) },
	{ list: ['a', , 'c'] },
	JSON.parse(
		'{"__proto__": "own proto", "constructor": "own constructor", "toString": "own toString", "hasOwnProperty": "own", "valueOf": 5, "v": "with special keys"}',
	),
	{ customer: JSON.parse('{"__proto__": {"email": "through proto"}}') },
	{ customer: Object.create({ email: 'inherited' }) },
	{
		customer: Object.defineProperty({}, 'email', { get: () => 'getter', enumerable: true }),
	},
];

const ITEMS = [...VALUES.map(itemWith), ...SHAPE_ITEMS];

/** Shapes people write or n8n's drag and drop makes: readFromItem must answer them for plain values. */
const COMMON = [
	'{{ $json.v }}',
	'{{$json.v}}',
	'{{   $json.v   }}',
	'{{\n\t$json.v\n}}',
	'{{ $json["first name"] }}',
	"{{ $json['first name'] }}",
	'{{ $json.customer.email }}',
	'{{ $json.customer["first name"] }}',
	'{{ $json.list[0] }}',
	'{{ $json.deep.a.b.c }}',
	'{{ $json["a.b"] }}',
	'{{ $json["a[b]"] }}',
	'{{ $json["q\\"uote"] }}',
	"{{ $json['s\\'quote'] }}",
	'{{ $json["back\\\\slash"] }}',
	'{{ $json.prénom }}',
	'{{ $json.名前 }}',
	'Hello {{ $json.v }}',
	'{{ $json.v }} ',
	'{{ $json.v }}!',
	'{{ $json.v }} {{ $json["first name"] }} <{{ $json.customer.email }}>',
	'{{ $json.v }}{{ $json.v }}',
	'Only text',
	'',
	'<p>__mailDeliveryTag0123456789abcdefx0__, {{ $json.v }}</p>',
];

/** Shapes rarer or stranger: compared whenever readFromItem answers them. */
const EDGES = [
	'{{ $json.class }}',
	'{{ $json.default }}',
	'{{ $json.new }}',
	'{{ $json.null }}',
	'{{ $json.undefined }}',
	'{{ $json.NaN }}',
	'{{ $json.globalThis }}',
	'{{ $json["globalThis"] }}',
	'{{ $json.this }}',
	'{{ $json.window }}',
	'{{ $json.self }}',
	'{{ $json.eval }}',
	'{{ $json.E }}',
	'{{ $json.___n8n_data }}',
	'{{ $json.__sanitize }}',
	'{{ $json.process }}',
	'{{ $json.isProxy }}',
	'{{ $json.__isObject }}',
	'{{ $json.__n8nType }}',
	'{{ $json[0] }}',
	'{{ $json["0"] }}',
	'{{ $json.list[1] }}',
	'{{ $json.customer }}',
	'{{ $json.list }}',
	'{{ $json.valueOf }}',
	'{{ $json["v"] }}x{{ $json.list[0] }}',
	'=x {{ $json.v }}',
	'a\\\\b {{ $json.v }}',
	'\\\\{{ $json.v }}',
	'\\{{ $json.v }}',
	'\\\\\\{{ $json.v }} {{ $json.v }}',
	'{{ $json.v }} \\\\ trailing \\\\',
	'x {{ $json.v }} y \\{{ z }}',
	'{{ $json.v }}b\\{{',
	'abc{{',
	'abc}}',
	'{{ $json.v }}}',
	'{{ $json["a\\}}b"] }}',
	'{{ $json.v }}\n{{ $json.v }}',
	'text (with parentheses) {{ $json.v }}',
	'🎉 unicode text ✓ {{ $json.v }} 日本',
	'nul \u0000 in text {{ $json.v }}',
	'lone \udc00 in text {{ $json.v }}',
	'\\ (backslash and parenthesis) {{ $json.v }}',
];

/** Shapes that must stay n8n's: compileItemReading refuses them. */
const REFUSED = [
	'{{ $json }}',
	'{{ $json.v.toUpperCase() }}',
	'{{ $json.v + 1 }}',
	"{{ $('Source').item.json.v }}",
	'{{ $input.item.json.v }}',
	'{{ $node["Source"].json.v }}',
	'{{ $now }}',
	'{{ $json.constructor }}',
	'{{ $json["__proto__"] }}',
	'{{ $json.__proto__ }}',
	'{{ $json.toString }}',
	'{{ $json.hasOwnProperty }}',
	'{{ $json.prototype }}',
	'{{ $json.customer.constructor }}',
	'{{ $json["a" + "b"] }}',
	'{{ $json[`v`] }}',
	'{{ $json?.v }}',
	'{{ $json.v ?? "" }}',
	'{{ $json.v // comment }}',
	'{{ $json.$ }}',
	'{{ $json["a\\nb"] }}',
	'{{ $json[01] }}',
	'{{ $json . v }}',
	'{{ v }}',
	'{{ $json.v }} the.constructor',
	'Hi {{ $json.v',
	'\\{{',
];

/**
 * Texts made at random (always the same ones: a fixed seed) from the pieces where n8n's two splitters, its
 * escapes and its template builder could part ways with compileItemReading.
 */
const RANDOM = fc.sample(
	fc
		.array(
			fc.constantFrom(
				'{{ $json.v }}',
				'{{$json["first name"]}}',
				'{{ $json.customer.email }}',
				'{{ $json.v.length }}',
				'{{',
				'}}',
				'{',
				'}',
				'\\',
				'\\\\',
				'a',
				' ',
				'"',
				"'",
				'(',
				')',
				'.toUpperCase()',
				'\n',
				'é',
			),
			{ minLength: 1, maxLength: 8 },
		)
		.map((pieces) => pieces.join('')),
	{ seed: 30, numRuns: 150 },
);

const SHAPES = [...COMMON, ...EDGES, ...RANDOM];
const PARAMETERS = [...SHAPES, ...REFUSED].map((shape) => `=${shape}`);
const encodedItems = ITEMS.map(encode);

/** Compares every answer of readFromItem, on the items n8n was given, with n8n's result. */
function check(label: string, run: EngineRun, items: unknown[]) {
	expect(run.engine).toBe(label.split(' ').at(-1));
	// The probe received the items as they were sent (n8n copied nothing in between).
	expect(run.received).toEqual(encodedItems);
	// One line per shape that differs: how many items, and the first of them.
	const mismatches = new Map<string, string>();
	SHAPES.forEach((shape, k) => {
		const reading = compileItemReading(shape);
		if (!reading) return;
		let count = 0;
		let first = '';
		items.forEach((item, i) => {
			const fast = readFromItem(reading, item as never);
			if (!fast) return;
			const mine = JSON.stringify(encode(fast.value));
			const n8n = JSON.stringify(run.results[k][i]);
			if (mine === n8n) return;
			if (count++ === 0) first = `item ${i}: fast ${mine.slice(0, 60)}, n8n ${n8n.slice(0, 100)}`;
		});
		if (count > 0) mismatches.set(shape, `${count} items, first ${first}`);
	});
	expect(Object.fromEntries(mismatches)).toEqual({});
}

describe("readFromItem gives n8n's own result", () => {
	test.each(['legacy'])("jest's n8n 2.41 (Node 20), %s", async (engine) => {
		// In-process, n8n gets the items themselves: getters, inherited fields and holes included.
		const run = await probe(
			{ workflow: n8nWorkflow, core },
			{ engine, parameters: PARAMETERS, items: ITEMS },
		);
		check(`jest ${engine}`, run, ITEMS);
	});

	const lines = [
		{ line: '2' as const, engines: ['vm', 'quickjs', 'legacy'] },
		{ line: '1' as const, engines: ['legacy'] },
	];
	describe.each(lines)('n8n line $line', ({ line, engines }) => {
		let byEngine: Record<string, EngineRun>;
		beforeAll(() => {
			// Installed once for the end-to-end suites too (minutes the first time).
			const installed = installedN8n(line);
			const child = spawnSync(
				installed.nodeBin,
				[
					path.join(__dirname, '..', 'harness', 'parameter-probe.cjs'),
					path.join(installed.base, 'node_modules'),
				],
				{
					input: JSON.stringify({ engines, parameters: PARAMETERS, items: encodedItems }),
					encoding: 'utf8',
					maxBuffer: 256 * 1024 * 1024,
				},
			);
			const answer = child.stdout.split('\n').find((row) => row.startsWith('PROBE '));
			if (!answer) throw new Error(`the probe failed on line ${line}: ${child.stderr}`);
			byEngine = JSON.parse(answer.slice('PROBE '.length));
		}, 900_000);

		test.each(engines)('%s', (engine) => {
			check(`line ${line} ${engine}`, byEngine[engine], encodedItems.map(decode));
		});
	});
});

describe('readFromItem answers what it can prove', () => {
	/** Plain leaf values, each with its item; NUL and lone surrogates fall back (QuickJS changes them). */
	const plain = VALUES.flatMap((value, i) =>
		value === null || value === MISSING || typeof value !== 'object'
			? [{ value, item: ITEMS[i] }]
			: [],
	);
	const changedByAnEngine = ['nul \u0000 inside', 'lone \ud800 surrogate'];

	test.each(COMMON)('%j is read from plain items', (shape) => {
		const reading = compileItemReading(shape);
		expect(reading).toBeDefined();
		const leftToN8n = plain.filter(
			({ item }) => readFromItem(reading!, item as never) === undefined,
		);
		expect(leftToN8n.map(({ value }) => value)).toEqual(
			shape.includes('$json') ? changedByAnEngine : [],
		);
	});

	test.each(REFUSED)('%j stays with n8n', (shape) => {
		expect(compileItemReading(shape)).toBeUndefined();
	});

	test('a value is never an object shared with the item', () => {
		for (const shape of SHAPES) {
			const reading = compileItemReading(shape);
			if (!reading) continue;
			for (const item of ITEMS) {
				const fast = readFromItem(reading, item as never);
				if (fast) expect(fast.value === null || typeof fast.value !== 'object').toBe(true);
			}
		}
	});
});
