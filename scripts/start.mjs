// The README's main job: real n8n with this package, against the local emulator, ready to use.
import { ensureDependencies, run } from './ensure-deps.mjs';
import { localStack, readyBanner, stopOnInterrupt } from './local-stack.mjs';

const startedAt = Date.now();
ensureDependencies();
const stack = localStack();
const failed = async (error) => {
	console.error(`\nnpm start failed: ${error.message}`);
	await stack.stop();
	process.exit(1);
};
// Before the build: a port held by another program is said at once.
await stack.freePorts().catch(failed);
run('npm run -s build');

const stopped = stopOnInterrupt(stack);
try {
	await stack.start();
	console.log(readyBanner(stack, { startedAt }));
} catch (error) {
	// A start that Ctrl-C cut short is no failure.
	if (!stack.stopRequested) await failed(error);
}
await stopped;
process.exit(0);
