import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import type { NamedRecord } from '../helpers/refusals';

/** What every operation file exports; batch operations see all input items at once. */
export interface OperationModule {
	description: INodeProperties[];
	execute?: (this: IExecuteFunctions, itemIndex: number) => Promise<IDataObject | IDataObject[]>;
	/** The platform records the request names, to explain a refusal in the user's words (helpers/refusals.ts). */
	named?: NamedRecord[];
	/** What a request of this operation would have done, for an error after which it may have ("mail may have gone out"). */
	effect?: string;
	executeBatch?: (
		this: IExecuteFunctions,
		items: INodeExecutionData[],
	) => Promise<INodeExecutionData[]>;
}

/** Every resource and its operations: a misspelt pair in a resource's operations or in the router does not compile. */
export type MailDeliveryMap = {
	campaign: 'cancel' | 'create' | 'delete' | 'getMany' | 'getStats';
	contact: 'delete' | 'get' | 'import' | 'upsert';
	contactList: 'create' | 'delete' | 'getMany';
	template: 'create' | 'delete' | 'getMany';
	transactionalMail: 'getStats' | 'send';
	verifiedSender: 'add' | 'delete' | 'getMany' | 'verify';
	webhook: 'get' | 'save';
};

export type Resource = keyof MailDeliveryMap;

/** A resource's operations, each by its value in the Operation field. */
export type Operations<R extends Resource> = Record<MailDeliveryMap[R], OperationModule>;
