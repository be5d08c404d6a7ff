// The README's main job: real n8n with this package, against the local emulator, ready to use.
import { ensureDependencies, run } from './ensure-deps.mjs';
import { localStack, readyBanner, stopOnInterrupt } from './local-stack.mjs';

const startedAt = Date.now();
ensureDependencies();
run('npm run -s build');

const stack = localStack();
const stopped = stopOnInterrupt(stack);
try {
	await stack.start();
	console.log(readyBanner(stack, { startedAt }));
} catch (error) {
	// A start that Ctrl-C cut short is no failure; any other is said in one message, everything stopped.
	if (!stack.stopRequested) {
		console.error(`\nnpm start failed: ${error.message}`);
		await stack.stop();
		process.exit(1);
	}
}
await stopped;
process.exit(0);
