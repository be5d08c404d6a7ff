// Preloaded into an n8n process (`node --require`) by the end-to-end suites: faults in n8n's own saving of an
// execution, for chosen workflows, read at each save from the JSON file MAIL_DELIVERY_N8N_FAULTS names:
//   { "crashBeforeSaving": ["<workflow name>"], "slowSavingMs": { "<workflow name>": 300 } }
// crashBeforeSaving: n8n kills itself (SIGKILL) as it is about to save the execution, as a crash at that moment
// would (after the trigger passed a push's events on, before n8n saved them); slowSavingMs: n8n takes that long
// to save it (and so to answer the push). n8n 2.x saves executions through ExecutionPersistence.create, n8n 1.x
// through ExecutionRepository.createNewExecution.
const { readFileSync } = require('node:fs');
const Module = require('node:module');

const file = process.env.MAIL_DELIVERY_N8N_FAULTS;
const SAVES = [
	['ExecutionPersistence', 'create'],
	['ExecutionRepository', 'createNewExecution'],
];

function faults() {
	try {
		return JSON.parse(readFileSync(file, 'utf8'));
	} catch {
		return {};
	}
}

async function beforeSaving(execution) {
	const name = execution?.workflowData?.name;
	const { crashBeforeSaving = [], slowSavingMs = {} } = faults();
	if (crashBeforeSaving.includes(name)) process.kill(process.pid, 'SIGKILL');
	if (slowSavingMs[name]) await new Promise((resolve) => setTimeout(resolve, slowSavingMs[name]));
}

const patched = new Set();
const load = Module._load;
Module._load = function (...args) {
	const loaded = load.apply(this, args);
	if (!file || !loaded || typeof loaded !== 'object') return loaded;
	for (const [className, method] of SAVES) {
		let prototype;
		try {
			prototype = loaded[className]?.prototype;
		} catch {
			continue; // an export that cannot be read this way (a proxy)
		}
		if (typeof prototype?.[method] !== 'function' || patched.has(prototype)) continue;
		patched.add(prototype);
		const save = prototype[method];
		prototype[method] = async function (execution, ...rest) {
			await beforeSaving(execution);
			return await save.call(this, execution, ...rest);
		};
	}
	return loaded;
};
