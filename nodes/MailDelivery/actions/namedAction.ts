/**
 * The operations that act on one platform record named by a picker (delete a list, cancel a campaign…), made
 * whole from what differs between them: the picker, the path and what is done. The name is required, items
 * naming the same record run in input order, sandbox mode applies where the API lists it, and the output says
 * what was done (`deleted: true`, or false when sandboxed, since nothing changed).
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { assertValid, labelledBy, rules } from '../helpers/validation';
import { applySandboxMode } from '../items/commonFields';
import type { ItemParameters } from '../items/parameterReader';
import { namesIn } from '../run/refusals';
import { writeResult } from '../run/results';
import type { NamedRecord, RequestPlan } from '../run/operation';
import { itemOptions, retryOptions, sandboxModeField } from './common.descriptions';

export function namedAction({
	kind,
	locator,
	path,
	outcome,
	sandbox = true,
	caseless = false,
}: {
	kind: NamedRecord['kind'];
	/** The picker of the record; its name is the request's field. */
	locator: INodeProperties;
	path: string;
	/** What the request does to the record, as the output's field says it: `deleted`, `cancelled`. */
	outcome: string;
	/** Whether the API lists sandboxMode for this request. */
	sandbox?: boolean;
	/** Whether the platform matches the name whatever its case (an address). */
	caseless?: boolean;
}) {
	const field = locator.name;
	const properties: INodeProperties[] = [
		locator,
		...(sandbox ? [sandboxModeField] : []),
		itemOptions(retryOptions),
	];
	const fieldRules = labelledBy(properties, { [field]: [rules.required] });
	return {
		properties,
		/** The record the request names, to explain a refusal in the user's words (run/refusals.ts). */
		named: [{ kind, must: 'existing', names: namesIn(field) }] as NamedRecord[],
		/** What a request that may have reached the platform would have done (a time-out, a 500). */
		effect: `the ${kind} may have been ${outcome}`,
		/** Items naming the same record run in input order. */
		recordOf: (item: ItemParameters) =>
			caseless ? item.locator(field).toLowerCase() : item.locator(field),
		prepare(item: ItemParameters): RequestPlan {
			const body: IDataObject = { [field]: item.locator(field) };
			assertValid(item.node, body, fieldRules, item.index);
			if (sandbox) applySandboxMode(body, item);
			return {
				path,
				body,
				output: (answer) =>
					writeResult(body, answer, {
						[field]: body[field],
						[outcome]: body.sandboxMode !== true,
					}),
			};
		},
	};
}
