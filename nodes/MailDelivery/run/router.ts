/** Runs the chosen operation: batch operations see all items at once; the others run item by item. */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isBatch, type OperationModule } from './operation';
import { ParameterReader } from './parameters';
import { runPerItem } from './perItem';

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
	if (isBatch(module)) return [await module.executeBatch.call(context, reader)];
	return [await runPerItem(context, reader, module, `${resource}.${operation}`)];
}
