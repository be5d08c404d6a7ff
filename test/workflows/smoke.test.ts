import { useEmulator } from '../harness/emulator';
import { actionWorkflow, runWorkflow } from '../harness/n8n';

const env = useEmulator();

test('smoke: get webhook configuration through n8n', async () => {
	const result = await runWorkflow({ ...actionWorkflow({ resource: 'webhook', operation: 'get' }), credentials: env.credentials() });
	console.log(JSON.stringify(result.error()), JSON.stringify(result.output('Mail Delivery')));
	expect(result.output('Mail Delivery')[0].json).toEqual({ transEvent: null, transCallbackUrl: null, transCallbackUrlExtra: null, transEnable: null });
});
