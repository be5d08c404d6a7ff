import { SEND_AND_WAIT_OPERATION } from 'n8n-workflow';

import { resource } from '../resource';
import * as getStats from './getStats.operation';
import * as send from './send.operation';
import * as sendAndWait from './sendAndWait.operation';

// Send first: the node creator lists actions in this order. sendAndWait is n8n-workflow's
// SEND_AND_WAIT_OPERATION: n8n files a node offering it under Human in the Loop and makes its Human review tool.
export const transactionalMail = resource(
	'transactionalMail',
	{ send, [SEND_AND_WAIT_OPERATION]: sendAndWait, getStats },
	'send',
);
