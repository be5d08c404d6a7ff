/** The 23 operations of the API by path, gathered from one module per resource (as the node names them). */
import { campaign } from './campaign.cts';
import type { Operation } from './common.cts';
import { contact } from './contact.cts';
import { contactList } from './contactList.cts';
import { template } from './template.cts';
import { transactionalMail } from './transactionalMail.cts';
import { verifiedSender } from './verifiedSender.cts';
import { webhook } from './webhook.cts';

export type { Operation, OperationContext } from './common.cts';

export const OPERATIONS: Readonly<Record<string, Operation>> = {
	...campaign,
	...template,
	...contact,
	...contactList,
	...verifiedSender,
	...transactionalMail,
	...webhook,
};
