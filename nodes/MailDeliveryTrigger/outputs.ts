/**
 * The trigger's outputs, worked out in one place: n8n draws them from configuredOutputs (its text), and
 * webhook() routes each event to the output configuredOutputs gives its kind.
 */
import { EVENT_KINDS } from '../shared/eventKinds';

export const ALL_KINDS = EVENT_KINDS.map((kind) => kind.code) as string[];

/**
 * Output labels other than the kind's own code. Beside an output not yet connected n8n's canvas shows a label
 * of at most 76 px, about 11 characters, and cuts a longer one without a tooltip: "Unsubscribed" read
 * "Unsubscrib…" on a new trigger. So its output is labelled as the word people use for the act; every other
 * is labelled as its events' EventCode and the Events list name it. The browser suite checks none is cut.
 */
const LABELS: Record<string, string> = { Unsubscribed: 'Unsubscribe' };

/**
 * The trigger's outputs for its parameters: one per chosen kind in a fixed order, plus Other when every
 * kind is chosen, or one output. n8n evaluates this very function (its text, with the kinds and labels
 * passed in) to draw the node, as its Switch node does. So it may use nothing from outside its own body.
 */
function configuredOutputs(
	parameter: { outputMode?: unknown; events?: unknown },
	kinds: string[],
	labels: Record<string, string>,
) {
	if (parameter.outputMode !== 'perKind') return [{ type: 'main', displayName: '' }];
	const events = Array.isArray(parameter.events) ? parameter.events : [];
	// "*" is the Events choice Any Event (ANY_KIND).
	const chosen = kinds.filter((kind) => events.includes(kind) || events.includes('*'));
	if (chosen.length === kinds.length) chosen.push('Other');
	return chosen.map((name) => ({ type: 'main', displayName: labels[name] ?? name }));
}

/** The description's `outputs`: an expression n8n evaluates with the node's parameters. */
export const OUTPUTS_EXPRESSION: `={{${string}}}` = `={{(${configuredOutputs})($parameter, ${JSON.stringify(ALL_KINDS)}, ${JSON.stringify(LABELS)})}}`;

/**
 * Where each event goes for these parameters: how many outputs there are, and the output of an event's
 * kind, or undefined when it is left out. A kind the trigger does not know is kept only when every kind
 * is chosen, and then goes to the last output (Other, with one output per kind).
 */
export function outputRouting(outputMode: unknown, events: string[]) {
	const outputs = configuredOutputs({ outputMode, events }, ALL_KINDS, LABELS);
	const labels = outputs.map((output) => output.displayName);
	const perKind = outputMode === 'perKind';
	const allChosen = ALL_KINDS.every((kind) => events.includes(kind));
	return {
		count: outputs.length,
		outputOf(code: string | undefined): number | undefined {
			const known = code !== undefined && ALL_KINDS.includes(code);
			if (known ? !events.includes(code) : !allChosen) return undefined;
			if (!perKind) return 0;
			return known ? labels.indexOf(LABELS[code] ?? code) : outputs.length - 1;
		},
	};
}
