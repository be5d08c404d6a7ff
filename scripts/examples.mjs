// The example workflows `npm start` imports: the JSON files in examples/, which users can also import into their
// own n8n (Workflows → Import from File). Here each node of this package gets the demo's signature credential, and
// a workflow whose trigger gives way to others (Options → Give Way to Others) is published: the demo's listener. The
// others wait for the user to publish them (one trigger per address).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { root } from './ensure-deps.mjs';
import { PACKAGE_NAME } from './n8n-runtime.mjs';

const EXAMPLES = path.join(root, 'examples');

export function exampleWorkflows(credential) {
	const credentials = { mailDeliverySignatureApi: { id: credential.id, name: credential.name } };
	return readdirSync(EXAMPLES)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => {
			const workflow = JSON.parse(readFileSync(path.join(EXAMPLES, file), 'utf8'));
			const ours = (node) => node.type.startsWith(`${PACKAGE_NAME}.`);
			return {
				...workflow,
				nodes: workflow.nodes.map((node) => (ours(node) ? { ...node, credentials } : node)),
				active: workflow.nodes.some(
					(node) => ours(node) && node.type.endsWith('Trigger') && node.parameters.options?.giveWay,
				),
			};
		});
}
