import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { SWITCHABLE_KINDS, transEventFor } from '../../../shared/eventKinds';
import type { WebhookConfig } from '../../../shared/webhookConfig';
import { trimmed } from '../../helpers/requestValues';
import { assertValid, inputError, rules } from '../../helpers/validation';
import type { ItemParameters } from '../../items/parameterReader';
import type { ItemPlatform, OperationOption } from '../../run/operation';
import { writeResult } from '../../run/results';
import { itemOptions, retryOptions } from '../common.descriptions';
import { keepingRecords, maskedBody, triggerConflicts, unmasked } from './triggerRecords';

export const option: OperationOption = {
	name: 'Save',
	description: 'Save push addresses and event switches',
	action: 'Save the webhook configuration',
};

export const toolDescription =
	"Changes the account's push configuration (only the fields given). Refuses to take an address or event kind away from an active Mail Delivery Trigger workflow unless told to. Returns what was saved.";

export const properties: INodeProperties[] = [
	{
		displayName: 'Only the fields added below are saved; every other setting keeps its value',
		name: 'saveNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Default Push URL',
				name: 'transCallbackUrl',
				type: 'string',
				default: '',
				placeholder: 'https://example.com/webhook',
				description:
					'Address that receives pushes (transCallbackUrl); starts with http:// or https://',
			},
			{
				displayName: 'Events to Receive',
				name: 'transEvent',
				type: 'multiOptions',
				options: SWITCHABLE_KINDS.map((kind) => ({
					name: kind.code,
					value: kind.code,
					description: kind.description,
				})),
				default: [],
				description:
					'Kinds switched on; every kind not chosen is switched off. TaskStatus is always pushed.',
			},
			{
				displayName: 'Per-Sender Push URLs',
				name: 'transCallbackUrlExtra',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				placeholder: 'Add Sender URL',
				options: [
					{
						displayName: 'Sender URL',
						name: 'entries',
						values: [
							{
								displayName: 'Sender Email',
								name: 'sender',
								type: 'string',
								placeholder: 'name@email.com',
								default: '',
							},
							{
								displayName: 'URL',
								name: 'url',
								type: 'string',
								placeholder: 'https://example.com/webhook',
								default: '',
							},
						],
					},
				],
			},
			{
				displayName: 'Per-Sender Update',
				name: 'transCallbackUrlExtraUpdateMode',
				type: 'options',
				options: [
					{
						name: 'Save (Update and Add)',
						value: 'save',
						description: 'Update listed senders, add missing ones, keep the others',
					},
					{
						name: 'Replace All',
						value: 'replace',
						description: 'The listed senders become the only per-sender entries',
					},
				],
				default: 'save',
			},
			{
				displayName: 'Push Enabled',
				name: 'transEnable',
				type: 'boolean',
				default: true,
				description: 'Whether pushes are turned on',
			},
		],
	},
	itemOptions(
		[
			...retryOptions,
			{
				displayName: 'Replace Anyway',
				name: 'replaceTriggerSettings',
				type: 'boolean',
				default: false,
				description:
					'Whether to save even where an active Mail Delivery Trigger workflow holds the address, or needs the switch, being changed. That workflow then stops receiving those events while it still shows as active.',
			},
		],
		1,
	),
];

/** What a request that may have reached the platform would have done (a time-out, a 500). */
export const effect = 'the webhook configuration may have been saved';

/** The account has one webhook configuration: every save changes it, so saves run in input order. */
export const recordOf = () => 'the account';

/** The save the item asks for, and whether it may take pushes from a trigger (Options → Replace Anyway). */
interface Save {
	body: IDataObject;
	replaceAnyway: boolean;
}

export function prepare(item: ItemParameters): Save {
	const fields = item.get('updateFields', {}) as IDataObject;
	const body: IDataObject = {};
	if (fields.transCallbackUrl !== undefined)
		body.transCallbackUrl = trimmed(fields.transCallbackUrl);
	if (fields.transEvent !== undefined)
		body.transEvent = transEventFor(fields.transEvent as string[]);
	if (fields.transEnable !== undefined) body.transEnable = fields.transEnable;
	const extra = (fields.transCallbackUrlExtra as IDataObject | undefined)?.entries as
		IDataObject[] | undefined;
	if (extra !== undefined) {
		body.transCallbackUrlExtra = extra.map((entry) => ({
			sender: trimmed(entry.sender ?? ''),
			url: trimmed(entry.url ?? ''),
		}));
	}
	if (fields.transCallbackUrlExtraUpdateMode !== undefined) {
		body.transCallbackUrlExtraUpdateMode = fields.transCallbackUrlExtraUpdateMode;
	}
	if (Object.keys(body).length === 0) {
		throw inputError(item.node, 'Add at least one field to save under "Update Fields"', item.index);
	}
	assertValid(
		item.node,
		body,
		{
			...(body.transCallbackUrl !== undefined
				? { transCallbackUrl: [rules.text, rules.required, rules.httpUrl] }
				: {}),
			'transCallbackUrlExtra[].sender': [rules.text, rules.required, rules.email],
			'transCallbackUrlExtra[].url': [rules.text, rules.required, rules.httpUrl],
		},
		item.index,
	);
	const options = item.get<IDataObject>('options', {});
	return { body, replaceAnyway: options.replaceTriggerSettings === true };
}

export async function send({ body, replaceAnyway }: Save, platform: ItemPlatform) {
	const saving = touchesTriggers(body) ? await withTriggers(platform, body, replaceAnyway) : body;
	const answer = await platform.request('/v5/webhook/save', saving);
	return writeResult(saving, answer, { saved: maskedBody(saving) });
}

/** Whether the save could concern a trigger; only then is the configuration read first. */
function touchesTriggers(body: IDataObject): boolean {
	return (
		body.transCallbackUrl !== undefined ||
		body.transCallbackUrlExtra !== undefined ||
		body.transEnable !== undefined ||
		body.transEvent !== undefined
	);
}

/**
 * The save as it must be beside the triggers on the account: masked URLs (as Get shows them) put back,
 * refused where it would take pushes from a trigger (unless Replace Anyway), and the triggers' record
 * kept true (triggerRecords.ts).
 */
async function withTriggers(
	item: ItemPlatform,
	body: IDataObject,
	replaceAnyway: boolean,
): Promise<IDataObject> {
	const current = (await item.request('/v5/webhook/get', {})) as WebhookConfig;
	const { body: real, refused } = unmasked(current, body);
	if (refused.length > 0) {
		throw new NodeOperationError(
			item.node,
			`Field "${refused[0]}" holds a trigger's URL with its secret masked (token=***), as Webhook → Get shows it, and no trigger holds that URL now. Nothing was saved. Leave the field out to keep the address as it is, or give the URL to save.`,
			{ itemIndex: item.index },
		);
	}
	if (!replaceAnyway) {
		const conflicts = triggerConflicts(current, real);
		if (conflicts.length > 0) {
			throw new NodeOperationError(
				item.node,
				`Not saved: ${conflicts.join('; ')}. Saving would silently disconnect that trigger workflow, which would still show as published. Unpublish it first (deactivate, on n8n 1.x), or turn on Options → Replace Anyway.`,
				{ itemIndex: item.index },
			);
		}
	}
	return keepingRecords(current, real);
}
