/**
 * Runs the chosen operation on the one engine: the steps an operation that combines items (Send, Import) states,
 * or the two steps of one run item by item (run/combined.ts, run/eachItem.ts).
 */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { runEachItem } from '../run/eachItem';
import { type Entry, Run } from '../run/engine';
import { combinesItems, type OpenRun, type OperationModule } from '../run/operation';
import { ParameterReader } from '../items/parameterReader';
import { type DefaultParallel, FOLLOW_THE_PLATFORM } from '../run/throughput';

/** The value n8n gives its Custom API Call entry in Resource and Operation. */
const CUSTOM_API_CALL = '__CUSTOM_API_CALL__';

type Resources = Record<string, { operations: Record<string, OperationModule> }>;

const own = <T>(record: Record<string, T> | undefined, key: string): T | undefined =>
	record && Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;

export async function route(
	context: IExecuteFunctions,
	resources: Resources,
): Promise<INodeExecutionData[][]> {
	const resource = String(context.getNodeParameter('resource', 0));
	const operation = String(context.getNodeParameter('operation', 0, ''));
	// Both come from option lists, but a workflow file can hold anything: unknown pairs are refused below.
	const module = own(own(resources, resource)?.operations, operation);
	if (!module) {
		// n8n adds Custom API Call to Resource and Operation (the credentials can sign any request) and shows
		// its own note there; a workflow run anyway gets the same advice.
		if ([resource, operation].includes(CUSTOM_API_CALL)) {
			throw new NodeOperationError(
				context.getNode(),
				'Custom API Call runs in an HTTP Request node',
				{
					description:
						"Add n8n's HTTP Request node, set Authentication to Predefined Credential Type and choose this node's credential type and credential: it signs each request (or sends the OAuth token). The URL is the credential's Base URL plus the path, e.g. /v5/verified_senders/get, with method POST and a JSON body.",
				},
			);
		}
		throw new NodeOperationError(
			context.getNode(),
			`The operation "${operation}" of "${resource}" is not known`,
		);
	}
	const reader = new ParameterReader(context, module.properties);
	const settings = {
		scope: `${resource}.${operation}`,
		combined: combinesItems(module),
		effect: module.effect,
		defaultParallel: parallelByDefault(module.properties),
		asksAPerson: 'wait' in module,
	};
	let opened: Pick<Run, 'settled'> | undefined;
	const openRun: OpenRun = <E extends Entry, RequestData>() => {
		const run = new Run<E, RequestData>(context, reader, settings);
		opened = run;
		return run;
	};
	let output: INodeExecutionData[];
	let threw = true;
	try {
		output = combinesItems(module)
			? await module.steps.call(context, openRun)
			: await runEachItem(openRun, module);
		threw = false;
	} finally {
		await opened?.settled(threw);
	}
	const hint = slowFieldsHint(reader, module);
	if (hint) context.addExecutionHints({ message: hint, location: 'outputPane' });
	return [output];
}

/**
 * Requests at once when the Options set none: Requests in Parallel's default for the operation
 * (actions/common.descriptions.ts), following the platform unless the operation gives a number of its own.
 */
function parallelByDefault(properties: INodeProperties[]): DefaultParallel {
	const options = (properties.find((property) => property.name === 'options')?.options ??
		[]) as INodeProperties[];
	const field = options.find((option) => option.name === 'parallelRequests');
	return typeof field?.default === 'number' && field.default !== FOLLOW_THE_PLATFORM
		? field.default
		: 'adaptive';
}

/** Evaluations of one field by n8n's engine from which the run says how to avoid them. */
const MANY_EVALUATIONS = 100;

/**
 * The fields whose expressions n8n's engine evaluated for many items (n8n 2.x: ~0.4 ms each, most of a
 * large send's time), with the faster way to give each: told in the output panel.
 */
function slowFieldsHint(reader: ParameterReader, module: OperationModule): string | undefined {
	const fields = new Map<string, number>();
	for (const [name, count] of reader.evaluatedByN8n) {
		if (count < MANY_EVALUATIONS) continue;
		const field = name.split(/[.[]/)[0];
		fields.set(field, Math.max(fields.get(field) ?? 0, count));
	}
	if (fields.size === 0) return undefined;
	const parts = [...fields].map(([field, count]) => {
		const label =
			module.properties.find((property) => property.name === field)?.displayName ?? field;
		const faster = module.fasterWays?.[field];
		return `${label} (${count} items)${faster ? `: ${faster}` : ''}`;
	});
	return `n8n's expression engine evaluated these fields item by item, the slowest way to read a value: ${parts.join('; ')}. A value that only references the item's fields, such as {{ $json.email }} or "{{ $json.first }} {{ $json.last }}", is read straight from the item instead, with the same result.`;
}
