import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { SWITCHABLE_KINDS, transEventFor } from '../../../shared/eventKinds';
import { apiRequest } from '../../../shared/transport';
import type { WebhookConfig } from '../../../shared/webhookConfig';
import { writeResult } from '../../helpers/results';
import { assertValid, inputError, rules } from '../../helpers/validation';
import { keepingRecords, maskedBody, triggerConflicts, unmasked } from './triggerRecords';

const properties: INodeProperties[] = [
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
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Replace Anyway',
				name: 'replaceTriggerSettings',
				type: 'boolean',
				default: false,
				description:
					'Whether to save even where an active Mail Delivery Trigger workflow holds the address, or needs the switch, being changed. That workflow then stops receiving those events while it still shows as active.',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['webhook'], operation: ['save'] } },
	properties,
);

/** What a request that may have reached the platform would have done (a time-out, a 500). */
export const effect = 'the webhook configuration may have been saved';

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = {};
	if (fields.transCallbackUrl !== undefined)
		body.transCallbackUrl = String(fields.transCallbackUrl).trim();
	if (fields.transEvent !== undefined)
		body.transEvent = transEventFor(fields.transEvent as string[]);
	if (fields.transEnable !== undefined) body.transEnable = fields.transEnable;
	const extra = (fields.transCallbackUrlExtra as IDataObject | undefined)?.entries as
		IDataObject[] | undefined;
	if (extra !== undefined) {
		body.transCallbackUrlExtra = extra.map((entry) => ({
			sender: String(entry.sender ?? '').trim(),
			url: String(entry.url ?? '').trim(),
		}));
	}
	if (fields.transCallbackUrlExtraUpdateMode !== undefined) {
		body.transCallbackUrlExtraUpdateMode = fields.transCallbackUrlExtraUpdateMode;
	}
	if (Object.keys(body).length === 0) {
		throw inputError(
			this.getNode(),
			'Add at least one field to save under "Update Fields"',
			itemIndex,
		);
	}
	assertValid(
		this.getNode(),
		body,
		{
			...(body.transCallbackUrl !== undefined
				? { transCallbackUrl: [rules.required, rules.httpUrl] }
				: {}),
			'transCallbackUrlExtra[].sender': [rules.required, rules.email],
			'transCallbackUrlExtra[].url': [rules.required, rules.httpUrl],
		},
		itemIndex,
	);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const saving = touchesTriggers(body)
		? await withTriggers.call(this, body, options.replaceTriggerSettings === true, itemIndex)
		: body;
	const answer = await apiRequest.call(this, '/v5/webhook/save', saving, itemIndex);
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
	this: IExecuteFunctions,
	body: IDataObject,
	replaceAnyway: boolean,
	itemIndex: number,
): Promise<IDataObject> {
	const current = (await apiRequest.call(this, '/v5/webhook/get', {}, itemIndex)) as WebhookConfig;
	const { body: real, refused } = unmasked(current, body);
	if (refused.length > 0) {
		throw new NodeOperationError(
			this.getNode(),
			`Field "${refused[0]}" holds a trigger's URL with its secret masked (token=***), as Webhook → Get shows it, and no trigger holds that URL now. Nothing was saved. Leave the field out to keep the address as it is, or give the URL to save.`,
			{ itemIndex },
		);
	}
	if (!replaceAnyway) {
		const conflicts = triggerConflicts(current, real);
		if (conflicts.length > 0) {
			throw new NodeOperationError(
				this.getNode(),
				`Not saved: ${conflicts.join('; ')}. Saving would silently disconnect that trigger workflow, which would still show as active. Deactivate it first, or turn on Options → Replace Anyway.`,
				{ itemIndex },
			);
		}
	}
	return keepingRecords(current, real);
}
