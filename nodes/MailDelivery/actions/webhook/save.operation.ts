import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { SWITCHABLE_KINDS, transEventFor } from '../../helpers/events';
import { assertValid, inputError, rules } from '../../helpers/limits';
import { apiRequest } from '../../transport';
import { writeResult } from '../../helpers/parameters';

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
				description: 'Address that receives pushes (transCallbackUrl); starts with http:// or https://',
			},
			{
				displayName: 'Events to Receive',
				name: 'transEvent',
				type: 'multiOptions',
				options: SWITCHABLE_KINDS.map((kind) => ({ name: kind.code, value: kind.code, description: kind.description })),
				default: [],
				description: 'Kinds switched on; every kind not chosen is switched off. TaskStatus is always pushed.',
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
							{ displayName: 'Sender Email', name: 'sender', type: 'string', placeholder: 'name@email.com', default: '' },
							{ displayName: 'URL', name: 'url', type: 'string', placeholder: 'https://example.com/webhook', default: '' },
						],
					},
				],
			},
			{
				displayName: 'Per-Sender Update Mode',
				name: 'transCallbackUrlExtraUpdateMode',
				type: 'options',
				options: [
					{ name: 'Save (Update and Add)', value: 'save', description: 'Update listed senders, add missing ones, keep the others' },
					{ name: 'Replace All', value: 'replace', description: 'The listed senders become the only per-sender entries' },
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
];

export const description = updateDisplayOptions({ show: { resource: ['webhook'], operation: ['save'] } }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = {};
	if (fields.transCallbackUrl !== undefined) body.transCallbackUrl = String(fields.transCallbackUrl).trim();
	if (fields.transEvent !== undefined) body.transEvent = transEventFor(fields.transEvent as string[]);
	if (fields.transEnable !== undefined) body.transEnable = fields.transEnable;
	const extra = (fields.transCallbackUrlExtra as IDataObject | undefined)?.entries as IDataObject[] | undefined;
	if (extra !== undefined) {
		body.transCallbackUrlExtra = extra.map((entry) => ({ sender: String(entry.sender ?? '').trim(), url: String(entry.url ?? '').trim() }));
	}
	if (fields.transCallbackUrlExtraUpdateMode !== undefined) {
		body.transCallbackUrlExtraUpdateMode = fields.transCallbackUrlExtraUpdateMode;
	}
	if (Object.keys(body).length === 0) {
		throw inputError(this.getNode(), 'Add at least one field to save under "Update Fields"', itemIndex);
	}
	assertValid(
		this.getNode(),
		body,
		{
			...(body.transCallbackUrl !== undefined ? { transCallbackUrl: [rules.required, rules.httpUrl] } : {}),
			'transCallbackUrlExtra[].sender': [rules.required, rules.email],
			'transCallbackUrlExtra[].url': [rules.required, rules.httpUrl],
		},
		itemIndex,
	);
	const answer = await apiRequest.call(this, '/v5/webhook/save', body, itemIndex);
	return writeResult(body, answer, { saved: body });
}
