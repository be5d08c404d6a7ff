/**
 * What n8n's getNodeParameter returns for stored parameter values and items, through n8n's own engine
 * (WorkflowExecute running Source → Probe; the probe node calls getNodeParameter for every parameter and
 * item and keeps what it got in memory, so -0, NaN and undefined survive). Plain JavaScript, so one probe
 * serves every n8n it is given: jest's own n8n-core in-process, and as a script n8n 2.x under Node 24 (its
 * `vm` engine needs isolated-vm there) and n8n 1.x: `node parameter-probe.cjs <n8n's node_modules>` reads
 * {engines, parameters, items} (encoded) on stdin and prints `PROBE <json>` with results by engine.
 */
'use strict';

/** Values as tagged JSON, with what JSON loses kept: -0, NaN, ±Infinity, undefined, own "__proto__" keys. */
function encode(value) {
	switch (typeof value) {
		case 'undefined':
			return { $: 'undefined' };
		case 'number':
			if (Number.isNaN(value)) return { $: 'NaN' };
			if (Object.is(value, -0)) return { $: '-0' };
			if (!Number.isFinite(value)) return { $: String(value) };
			return value;
		case 'string':
		case 'boolean':
			return value;
		case 'bigint':
			return { $: 'bigint', v: String(value) };
		case 'function':
			return { $: 'function' };
		case 'symbol':
			return { $: 'symbol' };
	}
	if (value === null) return null;
	if (Array.isArray(value)) return { $: 'array', v: Array.from(value, encode) };
	if (value instanceof Date) return { $: 'Date', v: value.toISOString() };
	const prototype = Object.getPrototypeOf(value);
	return {
		$: 'object',
		prototype: prototype === null ? null : (prototype.constructor?.name ?? '?'),
		v: Object.keys(value).map((key) => [key, encode(value[key])]),
	};
}

function decode(value) {
	if (value === null || typeof value !== 'object') return value;
	switch (value.$) {
		case 'undefined':
			return undefined;
		case 'NaN':
			return NaN;
		case '-0':
			return -0;
		case 'Infinity':
			return Infinity;
		case '-Infinity':
			return -Infinity;
		case 'bigint':
			return BigInt(value.v);
		case 'array':
			return value.v.map(decode);
		case 'Date':
			return new Date(value.v);
		case 'object': {
			const object = value.prototype === null ? Object.create(null) : {};
			for (const [key, field] of value.v)
				Object.defineProperty(object, key, {
					value: decode(field),
					enumerable: true,
					writable: true,
					configurable: true,
				});
			return object;
		}
	}
	throw new Error(`cannot decode ${JSON.stringify(value)}`);
}

/** A thrown error as a result: its class and message. */
const failure = (error) => ({
	$: 'error',
	name: error?.constructor?.name,
	message: error?.message,
});

/**
 * Runs Source → Probe in n8n with `parameters` (stored values, "=" for expressions) as the probe's
 * parameters p0…pN, for `items`, under `engine`. Returns results[parameter][item], encoded, the engine n8n
 * says it used, the items' JSON as the probe received it, and the time all getNodeParameter calls took.
 */
async function probe({ workflow: n8nWorkflow, core }, { engine, parameters, items }) {
	const { Expression, Workflow, NodeHelpers } = n8nWorkflow;
	if (engine === 'legacy') Expression.setExpressionEngine?.('legacy');
	else
		await Expression.initExpressionEngine({
			engine,
			poolSize: 1,
			maxCodeCacheSize: 1024,
			bridgeTimeout: 5000,
			bridgeMemoryLimit: 128,
		});
	const results = parameters.map(() => []);
	let received = [];
	let elapsedMs = 0;
	const description = (name, properties) => ({
		displayName: name,
		name,
		group: ['transform'],
		version: 1,
		description: name,
		defaults: { name },
		inputs: ['main'],
		outputs: ['main'],
		properties,
	});
	const types = {
		source: {
			description: description('source', []),
			async execute() {
				return [this.getInputData()];
			},
		},
		probe: {
			description: description(
				'probe',
				parameters.map((_, k) => ({
					displayName: `P${k}`,
					name: `p${k}`,
					type: 'string',
					default: '',
				})),
			),
			async execute() {
				const input = this.getInputData();
				received = input.map((item) => encode(item.json));
				const started = performance.now();
				parameters.forEach((_, k) => {
					input.forEach((_item, i) => {
						try {
							results[k][i] = encode(this.getNodeParameter(`p${k}`, i));
						} catch (error) {
							results[k][i] = failure(error);
						}
					});
				});
				elapsedMs = performance.now() - started;
				return [input];
			},
		},
	};
	const nodeTypes = {
		getByName: (type) => types[type],
		getByNameAndVersion: (type, version) => NodeHelpers.getVersionedNodeType(types[type], version),
		getKnownTypes: () => ({}),
	};
	const nodes = [
		{ id: 's', name: 'Source', type: 'source', typeVersion: 1, position: [0, 0], parameters: {} },
		{
			id: 'p',
			name: 'Probe',
			type: 'probe',
			typeVersion: 1,
			position: [200, 0],
			parameters: Object.fromEntries(parameters.map((value, k) => [`p${k}`, value])),
		},
	];
	const connections = { Source: { main: [[{ node: 'Probe', type: 'main', index: 0 }]] } };
	const workflow = new Workflow({
		id: 'probe',
		nodes,
		connections,
		active: false,
		nodeTypes,
		staticData: {},
		settings: { timezone: 'UTC' },
	});
	const hooks = new core.ExecutionLifecycleHooks('manual', 'probe', {
		id: 'probe',
		name: 'probe',
		nodes,
		connections,
		active: false,
		settings: {},
	});
	let finished;
	hooks.addHandler('workflowExecuteAfter', (run) => {
		finished = run;
	});
	const additionalData = {
		hooks,
		executeWorkflow: async () => {
			throw new Error('not used');
		},
		restApiUrl: 'http://localhost/rest',
		instanceBaseUrl: 'http://localhost',
		webhookBaseUrl: 'http://localhost/webhook',
		webhookWaitingBaseUrl: 'http://localhost/webhook-waiting',
		webhookTestBaseUrl: 'http://localhost/webhook-test',
		formWaitingBaseUrl: 'http://localhost/form-waiting',
		userId: 'probe',
		variables: {},
		setExecutionStatus: () => {},
		sendDataToUI: () => {},
		logAiEvent: () => {},
	};
	const stack = [
		{
			node: workflow.getNode('Source'),
			data: { main: [items.map((json) => ({ json }))] },
			source: null,
		},
	];
	const runData = n8nWorkflow.createRunExecutionData
		? n8nWorkflow.createRunExecutionData({ executionData: { nodeExecutionStack: stack } })
		: {
				startData: {},
				resultData: { runData: {} },
				executionData: {
					contextData: {},
					nodeExecutionStack: stack,
					metadata: {},
					waitingExecution: {},
					waitingExecutionSource: {},
				},
			};
	const run = await new core.WorkflowExecute(
		additionalData,
		'manual',
		runData,
	).processRunExecutionData(workflow);
	const error = (finished ?? run).data.resultData.error;
	const used = Expression.getActiveImplementation?.() ?? 'legacy';
	if (engine !== 'legacy') await Expression.disposeExpressionEngine();
	if (error) throw new Error(`the probe workflow failed: ${error.message}`);
	return { engine: used, results, received, elapsedMs };
}

module.exports = { encode, decode, probe };

if (require.main === module) {
	const path = require('node:path');
	const { mkdtempSync } = require('node:fs');
	const { tmpdir } = require('node:os');
	process.env.N8N_USER_FOLDER ??= mkdtempSync(path.join(tmpdir(), 'parameter-probe-'));
	process.env.N8N_LOG_LEVEL ??= 'silent';
	const modules = path.resolve(process.argv[2]);
	let input = '';
	process.stdin.setEncoding('utf8');
	process.stdin.on('data', (chunk) => (input += chunk));
	process.stdin.on('end', async () => {
		try {
			const { engines, parameters, items } = JSON.parse(input);
			const n8n = {
				workflow: require(path.join(modules, 'n8n-workflow')),
				core: require(path.join(modules, 'n8n-core')),
			};
			const byEngine = {};
			for (const engine of engines)
				byEngine[engine] = await probe(n8n, { engine, parameters, items: items.map(decode) });
			// Exit once written: a pipe is written asynchronously, and the engines' pools keep the process alive.
			process.stdout.write(`PROBE ${JSON.stringify(byEngine)}\n`, () => process.exit(0));
		} catch (error) {
			process.stderr.write(`${error.stack}\n`);
			process.exit(1);
		}
	});
}
