/**
 * n8n's own reading of a node description, with the code of an installed n8n (jest cannot load it: some of its
 * dependencies are ES modules): `node hitl-probe.cjs <n8n's node_modules>` reads a node type description (JSON) on
 * stdin and prints `PROBE <json>`: n8n-nodes-base's send-and-wait parameters and webhooks, and what n8n's tool
 * generation (tool-generation/hitl-tools.js) makes of the description.
 */
'use strict';

const path = require('node:path');

const modules = process.argv[2];
const chunks = [];
process.stdin.on('data', (chunk) => chunks.push(chunk));
process.stdin.on('end', () => {
	const description = JSON.parse(Buffer.concat(chunks).toString('utf8'));
	const load = (file) => require(path.join(modules, file));
	const sendAndWait = load('n8n-nodes-base/dist/utils/sendAndWait/utils.js');
	const { sendAndWaitWebhooksDescription } = load(
		'n8n-nodes-base/dist/utils/sendAndWait/descriptions.js',
	);
	const hitl = load('n8n/dist/tool-generation/hitl-tools.js');
	const sendTo = { displayName: 'To', name: 'sendTo', type: 'string', default: '' };
	const result = {
		properties: sendAndWait.getSendAndWaitProperties([sendTo], 'transactionalMail'),
		webhooks: sendAndWaitWebhooksDescription,
		hasSendAndWaitOperation: hitl.hasSendAndWaitOperation(description),
		hitlTool: hitl.convertNodeToHitlTool({ description: JSON.parse(JSON.stringify(description)) })
			.description,
	};
	process.stdout.write(`PROBE ${JSON.stringify(result)}\n`, () => process.exit(0));
});
