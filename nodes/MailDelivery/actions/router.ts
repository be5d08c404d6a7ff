import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { errorForItem, errorItem, withWhatHappened } from '../helpers/itemErrors';
import { explainRefusal } from '../helpers/refusals';
import { readingParametersAsMeant } from '../helpers/parameterKinds';
import { earlierFailure, SentLedger } from '../helpers/sentLedger';
import { readingStaticParametersOnce } from '../helpers/staticParameters';
import { mayHaveBeenProcessed } from '../../shared/transport/errors';
import * as campaign from './campaign';
import type { MailDeliveryMap, OperationModule, Operations, Resource } from './types';
import * as contact from './contact';
import * as contactList from './contactList';
import * as template from './template';
import * as transactionalMail from './transactionalMail';
import * as verifiedSender from './verifiedSender';
import * as webhook from './webhook';

/** The value n8n gives its Custom API Call entry in Resource and Operation. */
const CUSTOM_API_CALL = '__CUSTOM_API_CALL__';

const resources: { [R in Resource]: Operations<R> } = {
	campaign: campaign.operations,
	template: template.operations,
	contact: contact.operations,
	contactList: contactList.operations,
	verifiedSender: verifiedSender.operations,
	transactionalMail: transactionalMail.operations,
	webhook: webhook.operations,
};

/** Runs the chosen operation: batch operations see all items; others run item by item. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as Resource;
	const operation = this.getNodeParameter('operation', 0, '') as MailDeliveryMap[Resource];
	// Both come from option lists, but a workflow file can hold anything: unknown pairs are refused below.
	const module = (resources[resource] as Record<string, OperationModule> | undefined)?.[operation];
	if (!module) {
		// n8n adds Custom API Call to Resource and Operation (the credentials can sign any request) and shows
		// its own note there; a workflow run anyway gets the same advice.
		if ([resource, operation].includes(CUSTOM_API_CALL as never)) {
			throw new NodeOperationError(this.getNode(), 'Custom API Call runs in an HTTP Request node', {
				description:
					"Add n8n's HTTP Request node, set Authentication to Predefined Credential Type and choose this node's credential type and credential: it signs each request (or sends the OAuth token). The URL is the credential's Base URL plus the path, e.g. /v5/verified_senders/get, with method POST and a JSON body.",
			});
		}
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of "${resource}" is not known`,
		);
	}
	// Every parameter is read as its field's kind: "true" in a boolean is true, "2" in an option 2.
	const context = readingParametersAsMeant(this, module.description);
	if (module.executeBatch)
		return [await module.executeBatch.call(readingStaticParametersOnce(context), items)];

	// An operation that changes something keeps what each item's request did in this run, so that n8n's
	// Retry On Fail never makes it again (a campaign sent twice): as the batch operations do.
	const ledger = module.effect
		? SentLedger.open<IDataObject | IDataObject[]>(this, `${resource}.${operation}`, items.length)
		: undefined;
	let everyItemDone = true;
	const output: INodeExecutionData[] = [];
	const outputOf = (data: IDataObject | IDataObject[], itemIndex: number) =>
		this.helpers.constructExecutionMetaData(this.helpers.returnJsonArray(data), {
			itemData: { item: itemIndex },
		});
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const earlier = ledger?.earlierOutcome(itemIndex, 0);
		if (earlier?.sent) {
			output.push(...outputOf(earlier.sent.fixed, itemIndex));
			continue;
		}
		try {
			if (earlier) throw earlierFailure(this, earlier.failed);
			const data = await module.execute!.call(context, itemIndex);
			ledger?.keep({
				number: itemIndex + 1,
				size: 1,
				entries: [itemIndex, 0],
				sent: { answer: {}, sandbox: false, fixed: data },
			});
			output.push(...outputOf(data, itemIndex));
		} catch (caught) {
			everyItemDone = false;
			if (ledger && !earlier && caught instanceof NodeApiError && mayHaveBeenProcessed(caught)) {
				ledger.keep({
					number: itemIndex + 1,
					size: 1,
					entries: [itemIndex, 0],
					failed: {
						message: caught.message,
						description: caught.description ?? undefined,
						httpCode: caught.httpCode ?? undefined,
					},
				});
			}
			const error = withWhatHappened(
				this,
				await explainRefusal.call(this, module.named, caught, itemIndex),
				module.effect,
			);
			if (!this.continueOnFail()) throw errorForItem(this, error, itemIndex);
			output.push(errorItem(error, itemIndex));
		}
	}
	if (everyItemDone) ledger?.close();
	return [output];
}
