/**
 * A push, once its secret is checked: its body read as the platform wrote it, its events of the chosen
 * kinds routed to the trigger's outputs with the words the trigger adds, repeats left out (repeats.ts), and
 * the answer: 200 with the counts, and an execution only when an event is left.
 */
import type {
	IDataObject,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { outputRouting } from './outputs';
import { enrichEvent, parsePush } from './pushParsing';
import { fingerprintOf, newEvents } from './repeats';

/** The trigger's parameters a push is read with. */
interface PushSettings {
	events: string[];
	outputMode: string;
	options: IDataObject;
}

/** Whether Options → Ignore Repeated Events is on (its default). */
export const ignoresRepeats = (options: IDataObject) => options.ignoreRepeatedEvents !== false;

export function reject(
	context: IWebhookFunctions,
	status: number,
	message: string,
): IWebhookResponseData {
	const response = context.getResponseObject();
	response.status(status).json({ code: status, message });
	return { noWebhookResponse: true };
}

export async function receivePush(
	context: IWebhookFunctions,
	{ events, outputMode, options }: PushSettings,
): Promise<IWebhookResponseData> {
	const request = context.getRequestObject();
	if (!request.rawBody && typeof request.readRawBody === 'function') await request.readRawBody();
	// Read in the charset n8n decodes the body with (a Buffer encoding), so both paths agree.
	const contentType = String(request.headers['content-type'] ?? '').toLowerCase();
	const charset = /;\s*charset\s*=\s*"?([^";\s]+)/.exec(contentType)?.[1] ?? 'utf-8';
	if (!Buffer.isEncoding(charset)) {
		return reject(
			context,
			415,
			`The body is in charset ${charset}; pushes are read in UTF-8 (or another charset Node.js reads: latin1, utf-16le, ascii)`,
		);
	}
	const raw = request.rawBody
		? request.rawBody.toString(charset)
		: JSON.stringify(request.body ?? null);
	// n8n has parsed a JSON body already: reuse it unless that lost something (see parsePush).
	const isJson = contentType.startsWith('application/json');
	const push = parsePush(raw, isJson ? request.body : undefined);
	if (!push.ok) return reject(context, 400, push.problem);

	const enrich = {
		decodeFailedCause: options.decodeFailedCause !== false,
		isoTimeZone: options.addIsoTimes === true ? String(options.eventTimeZone || 'UTC') : undefined,
		isoCache: new Map<string, string | undefined>(),
	};
	const routing = outputRouting(outputMode, events);
	const chosen: Array<{ output: number; event: IDataObject }> = [];
	for (const event of push.events) {
		const output = routing.outputOf(
			typeof event.EventCode === 'string' ? event.EventCode : undefined,
		);
		if (output !== undefined) chosen.push({ output, event: enrichEvent(event, enrich) });
	}
	// Listening for test events shows every push.
	let fresh: boolean[] | undefined;
	if (ignoresRepeats(options) && context.getMode() !== 'manual' && chosen.length > 0) {
		fresh = await newEvents(
			context,
			chosen.map(({ event }) => fingerprintOf(event)),
		);
		if (!fresh) return busy(context, push.events.length);
	}
	const outputs: INodeExecutionData[][] = Array.from({ length: routing.count }, () => []);
	let kept = 0;
	for (const [index, { output, event }] of chosen.entries()) {
		if (fresh && !fresh[index]) continue;
		outputs[output].push({ json: event });
		kept++;
	}
	const repeated = chosen.length - kept;
	const webhookResponse = { received: push.events.length, kept, ...(repeated ? { repeated } : {}) };
	// An empty push, one with only kinds not chosen, or only repeats, starts no execution.
	if (kept === 0) return { webhookResponse };
	return { workflowData: outputs, webhookResponse };
}

/**
 * Events of this push are still being passed on by an earlier push n8n has not answered yet: nothing is
 * started, and the platform is asked to send it again later, when it is known whether they were.
 */
function busy(context: IWebhookFunctions, received: number): IWebhookResponseData {
	const response = context.getResponseObject();
	response.setHeader('Retry-After', '10');
	response.status(503).json({
		code: 503,
		message:
			'Events of this push are still being received from an earlier push of them; send it again later',
		received,
	});
	return { noWebhookResponse: true };
}
