/** Reading one input item of a transactional send: its request-level fields and its message versions. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { type AttachmentReference, attachmentReference } from '../attachments';
import {
	applySandboxMode,
	sendDateParam,
	jsonParam,
	locatorValue,
	setIfPresent,
} from '../parameters';
import { namesOfLocator } from '../locators';
import { taggedParameter } from '../platformTags';
import { AddressListError, parseRecipients } from '../recipients';
import { assertValid, inputError } from '../validation';
import { recipientLabel, type SendPanel, sendFieldRules, sendPanelOf } from './fieldLabels';
import { contentSourceOf } from './requests';

/** One input item, read and checked: its request-level fields and its message versions. */
interface PreparedItem {
	shared: IDataObject;
	versions: IDataObject[];
	attachment?: AttachmentReference;
}

function objectParam(
	this: IExecuteFunctions,
	field: string,
	value: unknown,
	itemIndex: number,
): IDataObject | undefined {
	const parsed = jsonParam.call(this, field, value, itemIndex);
	if (parsed === undefined || parsed === null) return undefined;
	if (typeof parsed !== 'object' || Array.isArray(parsed)) {
		throw inputError(
			this.getNode(),
			`Field "${field}" must be a JSON object such as {"name": "Ada"}`,
			itemIndex,
		);
	}
	return Object.keys(parsed).length ? (parsed as IDataObject) : undefined;
}

/** The item's tag values: from its input fields, name/value pairs, or one JSON object. */
function tagValuesOf(this: IExecuteFunctions, itemIndex: number): IDataObject | undefined {
	const mode = this.getNodeParameter('tagValuesMode', itemIndex, 'fields') as string;
	if (mode === 'inputFields' || mode === 'chosenInputFields') {
		const fields = this.getInputData()[itemIndex]?.json ?? {};
		if (mode === 'inputFields') return Object.keys(fields).length > 0 ? fields : undefined;
		const chosen = listOfNames(this.getNodeParameter('tagValueFields', itemIndex, '') as string);
		return chosen.length > 0
			? Object.fromEntries(
					chosen.filter((name) => name in fields).map((name) => [name, fields[name]]),
				)
			: undefined;
	}
	if (mode === 'json') {
		return objectParam.call(
			this,
			'Tag Values (JSON)',
			this.getNodeParameter('params', itemIndex, '{}'),
			itemIndex,
		);
	}
	const pairs = (this.getNodeParameter('tagValues.values', itemIndex, []) as IDataObject[]) ?? [];
	const values: IDataObject = {};
	pairs.forEach((pair, index) => {
		const name = namesOfLocator(pair.name)[0] ?? '';
		if (!name)
			throw inputError(
				this.getNode(),
				`Field "Tag Values": tag value ${index + 1} has no name`,
				itemIndex,
			);
		values[name] = pair.value as IDataObject[keyof IDataObject];
	});
	return Object.keys(values).length > 0 ? values : undefined;
}

const listOfNames = (text: string) =>
	text
		.split(',')
		.map((name) => name.trim())
		.filter(Boolean);

/** The item's To from its own fields (Recipients From: An Input Field). */
function recipientsFromFields(this: IExecuteFunctions, itemIndex: number): unknown {
	const fields = this.getInputData()[itemIndex]?.json ?? {};
	const emailField = String(this.getNodeParameter('recipientField', itemIndex, 'email')).trim();
	const nameField = String(this.getNodeParameter('recipientNameField', itemIndex, '')).trim();
	const address = fields[emailField];
	if (address === undefined || address === null || address === '') {
		throw inputError(
			this.getNode(),
			`Field "Email Field": the input item has no value in its field "${emailField}"`,
			itemIndex,
		);
	}
	const name = nameField ? fields[nameField] : undefined;
	if (name === undefined || name === null || name === '') return address;
	return [{ email: String(address).trim(), name }];
}

function recipientsOf(this: IExecuteFunctions, value: unknown, field: string, itemIndex: number) {
	try {
		return parseRecipients(value, field);
	} catch (error) {
		if (error instanceof AddressListError)
			throw inputError(this.getNode(), error.message, itemIndex);
		throw new NodeOperationError(this.getNode(), error as Error, { itemIndex });
	}
}

function readVersion(
	this: IExecuteFunctions,
	raw: IDataObject,
	itemIndex: number,
	panel: SendPanel,
): IDataObject {
	const version: IDataObject = {
		to: recipientsOf.call(this, raw.to, recipientLabel(panel, 'To'), itemIndex),
		cc: recipientsOf.call(this, raw.cc, recipientLabel(panel, 'Cc'), itemIndex),
		bcc: recipientsOf.call(this, raw.bcc, recipientLabel(panel, 'Bcc'), itemIndex),
	};
	setIfPresent(version, 'subject', raw.subject);
	setIfPresent(version, 'content', raw.content);
	setIfPresent(
		version,
		'templateName',
		typeof raw.templateName === 'string' ? raw.templateName.trim() : raw.templateName,
	);
	setIfPresent(
		version,
		'params',
		objectParam.call(this, 'Tag Values (JSON)', raw.params, itemIndex),
	);
	return version;
}

/** The versions given in Message Versions' fields, each field read for the item; a subject keeps its tags. */
function versionsFromFields(this: IExecuteFunctions, itemIndex: number): IDataObject[] {
	const path = 'messageVersionsUi.versions';
	const stored = (this.getNodeParameter(path, itemIndex, [], { rawExpressions: true }) ??
		[]) as IDataObject[];
	return stored.map((version, index) => {
		const read: IDataObject = {};
		for (const key of Object.keys(version ?? {})) {
			const field = `${path}[${index}].${key}`;
			if (key === 'subject')
				read[key] = taggedParameter.call(
					this,
					field,
					itemIndex,
					'Subject (message version)',
				) as string;
			else if (key === 'templateName')
				read[key] = namesOfLocator(this.getNodeParameter(field, itemIndex))[0];
			else read[key] = this.getNodeParameter(field, itemIndex) as IDataObject[string];
		}
		return read;
	});
}

/** Reads and checks one input item of a send; an error fails that item only, before any request. */
export async function readSendItem(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<PreparedItem> {
	const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const messageSource = this.getNodeParameter('messageSource', itemIndex, 'perItem') as string;
	const contentSource = this.getNodeParameter('contentSource', itemIndex, 'template') as string;
	const perItem = messageSource === 'perItem';
	const recipientSource = perItem && this.getNodeParameter('recipientSource', itemIndex, 'to');
	const versionsMode = perItem ? '' : this.getNodeParameter('versionsMode', itemIndex, 'fields');
	const panel = sendPanelOf(messageSource, recipientSource, String(versionsMode));
	const content: IDataObject = {};
	if (contentSource === 'template')
		setIfPresent(content, 'templateName', locatorValue.call(this, 'templateName', itemIndex));
	else
		setIfPresent(
			content,
			'content',
			taggedParameter.call(this, 'content', itemIndex, 'HTML Content'),
		);
	setIfPresent(content, 'subject', taggedParameter.call(this, 'subject', itemIndex, 'Subject'));
	const params = tagValuesOf.call(this, itemIndex);

	const shared: IDataObject = { senderMail: locatorValue.call(this, 'senderMail', itemIndex) };
	for (const key of ['senderName', 'replyTo', 'category', 'campaign', 'uniqueMsgID']) {
		setIfPresent(
			shared,
			key,
			typeof fields[key] === 'string' ? (fields[key] as string).trim() : fields[key],
		);
	}
	setIfPresent(
		shared,
		'sendDate',
		sendDateParam.call(this, 'Send Date', fields.sendDate, itemIndex),
	);
	if (fields.trackOpen !== undefined) shared.trackOpen = fields.trackOpen ? 1 : 0;
	if (fields.trackClick !== undefined) shared.trackClick = fields.trackClick ? 1 : 0;
	setIfPresent(
		shared,
		'params',
		objectParam.call(this, 'Shared Tag Values', fields.sharedParams, itemIndex),
	);
	applySandboxMode.call(this, shared, itemIndex);

	let versions: IDataObject[];
	if (messageSource === 'perItem') {
		const to = (
			recipientSource === 'inputField'
				? recipientsFromFields.call(this, itemIndex)
				: this.getNodeParameter('to', itemIndex, '')
		) as IDataObject[string];
		versions = [
			readVersion.call(
				this,
				{ to, cc: fields.cc, bcc: fields.bcc, ...content, params },
				itemIndex,
				panel,
			),
		];
		// __item is part of the grouping key only (requestLevel drops it): this item gets its own request.
		if (options.combineItems === false) shared.__item = itemIndex;
	} else {
		// Versions defined here: content and tags given above are the request-level defaults.
		Object.assign(shared, content);
		const merged = { ...((shared.params as IDataObject) ?? {}), ...(params ?? {}) };
		if (Object.keys(merged).length > 0) shared.params = merged;
		const json =
			versionsMode === 'fields'
				? undefined
				: jsonParam.call(
						this,
						'Message Versions (JSON)',
						taggedParameter.call(this, 'messageVersionsJson', itemIndex, 'Message Versions (JSON)'),
						itemIndex,
					);
		const fromUi = versionsMode === 'json' ? [] : versionsFromFields.call(this, itemIndex);
		if (json !== undefined && !Array.isArray(json)) {
			throw inputError(
				this.getNode(),
				'Field "Message Versions (JSON)" must be a JSON array of versions',
				itemIndex,
			);
		}
		versions = ((json as IDataObject[] | undefined) ?? fromUi).map((raw) =>
			readVersion.call(this, raw ?? {}, itemIndex, panel),
		);
		// An item's own versions are never mixed with another item's.
		shared.__item = itemIndex;
	}

	assertValid(
		this.getNode(),
		{ ...shared, messageVersions: versions },
		sendFieldRules(panel),
		itemIndex,
	);
	versions.forEach((version, index) => {
		const source = contentSourceOf(version, shared);
		if (source === 'content' && !version.content && !shared.content) {
			throw inputError(
				this.getNode(),
				`Field "Template" or "HTML Content" is required (message version ${index + 1})`,
				itemIndex,
			);
		}
		// HTML has no subject of its own: only a template can supply one (4.6).
		if (source === 'content' && !version.subject && !shared.subject) {
			throw inputError(
				this.getNode(),
				`Field "Subject" is required when the content is HTML rather than a template (message version ${index + 1})`,
				itemIndex,
			);
		}
	});
	const attachment = attachmentReference.call(
		this,
		itemIndex,
		String(fields.attachmentBinaryProperty ?? ''),
	);
	return { shared, versions, attachment };
}
