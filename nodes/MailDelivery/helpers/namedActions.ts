import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../shared/transport';
import { applySandboxMode, locatorValue } from './parameters';
import { writeResult } from './results';
import { assertValid, labelledBy, rules } from './validation';

/**
 * The operations that act on one platform object named by a picker (delete a list, cancel a campaign…):
 * the name is required, sandbox mode applies where the API lists it, and the output says what was done
 * (`deleted: true`, or false when sandboxed, since nothing changed).
 */
export async function actOnNamed(
	this: IExecuteFunctions,
	itemIndex: number,
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
	const body: IDataObject = { [field]: locatorValue.call(this, field, itemIndex) };
	assertValid(
		this.getNode(),
		body,
		labelledBy(properties, { [field]: [rules.required] }),
		itemIndex,
	);
	if (sandbox) applySandboxMode.call(this, body, itemIndex);
	const answer = await apiRequest.call(this, path, body, itemIndex);
	return writeResult(body, answer, { [field]: body[field], [outcome]: body.sandboxMode !== true });
}
