/**
 * The trigger's probe: whether a trigger still answers at a URL that holds a trigger's record, and who it
 * is. A trigger asks before taking or releasing its own URL at another public address (a copy of this n8n
 * made from the same user folder holds one too), and before naming another workflow in a refusal.
 *
 * A probe is a push with no event (the body `[]`: a version before the probe answers it and starts
 * nothing) and a header carrying a nonce, a time and their HMAC under the trigger's probe key. The key is
 * in the URL's fragment on the platform, never in a request line, and in the trigger's static data: only
 * whoever reads the account's configuration can ask, so a stranger holding the URL (from an access log)
 * learns nothing. The answering trigger checks the secret as for every push, starts no execution, and
 * proves its answer with the same key: its public webhook URL, its workflow's id and current name. The
 * probe's cost stays off ordinary pushes: one header looked up.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IHookFunctions, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { parseUrl, recordOf, withoutSecret } from '../shared/triggerAddresses';

export const PROBE_HEADER = 'x-mail-delivery-probe';
/** A probe older than this is refused: a header seen once cannot be replayed later. */
const MAX_AGE_MS = 5 * 60_000;
/** A trigger that does not answer within this is gone (an address that no longer leads to n8n). */
const TIMEOUT_MS = 5_000;

const mac = (key: string, ...parts: string[]) =>
	createHmac('sha256', Buffer.from(key, 'hex')).update(parts.join('\n')).digest('hex');

function sameMac(given: unknown, expected: string): boolean {
	if (typeof given !== 'string' || given.length !== expected.length) return false;
	return timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

/** Who answered a probe: the workflow's public webhook URL, its id and its current name. */
interface ProbeAnswer {
	url: string;
	workflowId: string;
	workflowName: string;
}

/**
 * What a probe learnt: a trigger answered (with who it is; without, a version before the probe), or none
 * did (nothing at that address, a workflow not published there, another secret).
 */
export type Liveness = { answered: true; answer?: ProbeAnswer } | { answered: false };

function answerOf(body: unknown, key: string, nonce: string): ProbeAnswer | undefined {
	const answer = (body as { probe?: Record<string, unknown> } | undefined)?.probe;
	if (!answer || typeof answer !== 'object') return undefined;
	const { url, workflowId, workflowName, proof } = answer;
	if (![url, workflowId, workflowName].every((field) => typeof field === 'string'))
		return undefined;
	const fields = [url, workflowId, workflowName] as string[];
	if (!sameMac(proof, mac(key, 'answer', nonce, ...fields))) return undefined;
	return { url: fields[0], workflowId: fields[1], workflowName: fields[2] };
}

/** Asks the trigger at a URL (read from the platform) whether it is live, and who it is. */
export async function probe(context: IHookFunctions, url: string): Promise<Liveness> {
	const key = recordOf(url)?.probeKey;
	const target = parseUrl(url);
	if (!key || !/^[0-9a-f]{32}$/.test(key) || !target) return { answered: false };
	target.hash = '';
	const nonce = randomBytes(16).toString('hex');
	const at = String(Date.now());
	let response: { statusCode?: number; body?: unknown };
	try {
		response = (await context.helpers.httpRequest({
			method: 'POST',
			url: target.toString(),
			body: [],
			json: true,
			headers: { [PROBE_HEADER]: `${nonce}.${at}.${mac(key, 'probe', nonce, at)}` },
			timeout: TIMEOUT_MS,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		})) as { statusCode?: number; body?: unknown };
	} catch {
		return { answered: false };
	}
	if (response.statusCode !== 200) return { answered: false };
	const answer = answerOf(response.body, key, nonce);
	if (answer) return { answered: true, answer };
	// A version before the probe answers an empty push so, and only a trigger with the secret answers 200.
	const { received, kept } = (response.body ?? {}) as { received?: unknown; kept?: unknown };
	return received === 0 && kept === 0 ? { answered: true } : { answered: false };
}

/**
 * The answer to a probe that passed the secret check: who this trigger is, proven with its key; a probe
 * without a valid proof is refused as a push without the secret is.
 */
export function answerProbe(
	context: IWebhookFunctions,
	header: unknown,
	key: string | undefined,
): IWebhookResponseData {
	const response = context.getResponseObject();
	const [nonce, at, proof] = typeof header === 'string' ? header.split('.') : [];
	const fresh = Math.abs(Date.now() - Number(at)) <= MAX_AGE_MS;
	if (!key || !nonce || !fresh || !sameMac(proof, mac(key, 'probe', nonce, at))) {
		response.status(401).json({ code: 401, message: 'The probe has no valid proof' });
		return { noWebhookResponse: true };
	}
	const workflow = context.getWorkflow();
	const fields = [
		withoutSecret(context.getNodeWebhookUrl('default') as string),
		String(workflow.id ?? ''),
		workflow.name ?? '',
	];
	const [url, workflowId, workflowName] = fields;
	response.status(200).json({
		probe: { url, workflowId, workflowName, proof: mac(key, 'answer', nonce, ...fields) },
	});
	return { noWebhookResponse: true };
}
