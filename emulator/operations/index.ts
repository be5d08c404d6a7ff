/** The 23 operations of the API by path, gathered from one module per resource (as the node names them). */
import { campaign } from './campaign';
import type { Operation } from './common';
import { contact } from './contact';
import { contactList } from './contactList';
import { template } from './template';
import { transactionalMail } from './transactionalMail';
import { verifiedSender } from './verifiedSender';
import { webhook } from './webhook';

export type { Operation, OperationContext } from './common';

export const OPERATIONS: Readonly<Record<string, Operation>> = {
	...campaign,
	...template,
	...contact,
	...contactList,
	...verifiedSender,
	...transactionalMail,
	...webhook,
};
