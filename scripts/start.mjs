// The README's main job: real n8n with this package, against the local emulator, ready to use.
import { ensureDependencies, run } from './ensure-deps.mjs';
import { readyBanner, startLocalStack } from './local-stack.mjs';

const startedAt = Date.now();
ensureDependencies();
run('npm run -s build');

const stack = await startLocalStack();
const stopAll = async () => {
	console.log('\nStopping n8n and the emulator...');
	await stack.stop();
	process.exit(0);
};
process.on('SIGINT', () => void stopAll());
process.on('SIGTERM', () => void stopAll());
console.log(readyBanner(stack, { startedAt }));
