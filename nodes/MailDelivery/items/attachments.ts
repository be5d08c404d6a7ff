/** An input item's attachment: where it is, checked as the item is read, and its file, read when its request is made. */
import { createHash } from 'node:crypto';
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { inputError } from './itemErrors';
import type { ItemParameters } from './parameterReader';

/** Where an attachment is, checked but not read: files are read only when their request is sent. */
export interface AttachmentReference {
	itemIndex: number;
	property: string;
	fileName: string;
	/** Equal for equal files: n8n's binary id, or a hash of in-memory data. */
	identity: string;
}

/** The platform takes one attachment, from a binary property of the input item. */
export function attachmentReference(
	item: ItemParameters,
	input: INodeExecutionData | undefined,
	propertyName: string,
): AttachmentReference | undefined {
	const itemIndex = item.index;
	const property = propertyName.trim();
	if (!property) return undefined;
	const binary = input?.binary?.[property];
	if (!binary) {
		throw inputError(
			item.node,
			`Field "Attachment Field": the input item has no binary property "${property}"`,
			itemIndex,
		);
	}
	const identity =
		binary.id ??
		createHash('sha1')
			.update(binary.data ?? '')
			.digest('hex');
	return { itemIndex, property, fileName: binary.fileName ?? property, identity };
}

/** Reads the file as the API wants it: { fileName, fileData (base64) }. */
export async function readAttachment(this: IExecuteFunctions, reference: AttachmentReference) {
	const buffer = await this.helpers.getBinaryDataBuffer(reference.itemIndex, reference.property);
	return { fileName: reference.fileName, fileData: buffer.toString('base64') };
}
