// ts-node for the bench, with .ts resolved before .json: `./MailDelivery.node` must load the node's
// source, not its codex file MailDelivery.node.json (jest resolves in this order already).
require('ts-node').register({
	transpileOnly: true,
	project: require('node:path').join(__dirname, '..', 'tsconfig.dev.json'),
});
const extensions = require('node:module').Module._extensions;
const ts = extensions['.ts'];
const rest = Object.entries(extensions).filter(([key]) => key !== '.ts');
for (const key of Object.keys(extensions)) delete extensions[key];
extensions['.ts'] = ts;
for (const [key, handler] of rest) extensions[key] = handler;
