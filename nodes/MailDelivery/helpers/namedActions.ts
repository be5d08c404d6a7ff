import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ItemRun } from '../run/operation';
import { writeResult } from '../run/results';
import { applySandboxMode } from './parameters';
import { assertValid, labelledBy, rules } from './validation';

/**
 * The operations that act on one platform object named by a picker (delete a list, cancel a campaign…):
 * the name is required, sandbox mode applies where the API lists it, and the output says what was done
 * (`deleted: true`, or false when sandboxed, since nothing changed).
 */
export async function actOnNamed(
	item: ItemRun,
	{
		field,
		properties,
		path,
		outcome,
		sandbox = true,
	}: {
		field: string;
		/** The operation's fields: an error names the field as its panel labels it. */
		properties: INodeProperties[];
		path: string;
		outcome: string;
		sandbox?: boolean;
	},
): Promise<IDataObject> {
	const body: IDataObject = { [field]: item.locator(field) };
	assertValid(item.node, body, labelledBy(properties, { [field]: [rules.required] }), item.index);
	if (sandbox) applySandboxMode(body, item);
	const answer = await item.request(path, body);
	return writeResult(body, answer, { [field]: body[field], [outcome]: body.sandboxMode !== true });
}
