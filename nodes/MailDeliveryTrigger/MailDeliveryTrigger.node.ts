import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	ITriggerFunctions,
	ITriggerResponse,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { authenticationProperty, nodeCredentials } from '../shared/authentication';
import { ANY_KIND, chosenKinds, EVENT_KINDS } from '../shared/eventKinds';
import { getSenderAddresses } from '../shared/methods/loadOptions';
import { readAsMeant } from '../shared/parameterKinds';
import { SECRET_PARAMETER } from '../shared/triggerAddresses';
import { ALL_KINDS, OUTPUTS_EXPRESSION, outputRouting } from './outputs';
import { ignoresRepeats, receivePush, reject } from './push';
import { answerProbe, PROBE_HEADER } from './probe';
import { isRegistered, register, unregister, type RegistrationSettings } from './registration';
import { recordPassed, startRecord, type TriggerStaticData, WINDOW_HOURS } from './repeats';
import { acceptedSecret, type Registered, sameSecret, secretDigest } from './secrets';

/** Manual registration sends nothing to the platform, so only automatic registration needs a credential. */
const triggerCredentials = nodeCredentials.map((credential) => ({
	...credential,
	displayOptions: { show: { ...credential.displayOptions?.show, registration: ['automatic'] } },
}));

/** The trigger's fields; hooks and webhook() read them by their kinds (readParameter). */
const properties: INodeProperties[] = [
	{
		displayName:
			'The platform keeps one push address per account, plus one per sender. With Automatic registration this trigger saves its URL there on activation and puts back what was there before on deactivation; a second trigger workflow on the same address is refused, unless the first gives way (Options → Give Way to Others). Use One Output per Event Kind to handle all events in one workflow, or register for chosen senders.',
		name: 'oneAddressNotice',
		type: 'notice',
		default: '',
	},
	// No displayOptions here: n8n's editor hides from the panel whatever an authentication field depends on,
	// so Authentication depending on Registration would make Registration vanish.
	authenticationProperty,
	{
		displayName: 'Registration',
		name: 'registration',
		type: 'options',
		options: [
			{
				name: 'Automatic',
				value: 'automatic',
				description:
					"Save this workflow's URL in the account's webhook configuration on activation, and restore it on deactivation",
			},
			{
				name: 'Manual',
				value: 'manual',
				description: 'You enter the URL on the platform yourself',
			},
		],
		default: 'automatic',
	},
	{
		displayName: 'Register For',
		name: 'registerFor',
		type: 'options',
		options: [
			{ name: 'All Senders (Default Push URL)', value: 'default' },
			{ name: 'Chosen Senders Only', value: 'senders' },
		],
		default: 'default',
		displayOptions: { show: { registration: ['automatic'] } },
	},
	{
		displayName: 'Sender Names or IDs',
		name: 'senders',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getSenderAddresses' },
		default: [],
		description:
			'Senders whose events come to this workflow. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: { show: { registration: ['automatic'], registerFor: ['senders'] } },
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		// n8n's node creator offers one trigger entry per option, named by its action.
		options: [
			{
				name: 'Any Event',
				value: ANY_KIND,
				action: 'On any event',
				description: 'Every kind, also kinds the platform adds later (to the Other output)',
			},
			...EVENT_KINDS.map((kind) => ({
				name: kind.code,
				value: kind.code,
				description: kind.description,
			})),
		],
		default: [...ALL_KINDS],
		description: 'Event kinds that start the workflow; others are left out',
	},
	{
		displayName: 'Output',
		name: 'outputMode',
		type: 'options',
		options: [
			{ name: 'One Output', value: 'single', description: 'All chosen kinds in one output' },
			{
				name: 'One Output per Event Kind',
				value: 'perKind',
				description: 'Branch on EventCode without a Switch node',
			},
		],
		default: 'single',
	},
	{
		displayName: 'Require Secret',
		name: 'requireSecret',
		type: 'boolean',
		default: true,
		description:
			'Whether to answer 401 to pushes without the secret "token" query parameter. Pushes carry no signature, so the secret in the URL is what tells them apart.',
		displayOptions: { show: { registration: ['manual'] } },
	},
	{
		displayName: 'Secret',
		name: 'secret',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		// n8n draws no required mark beside a node parameter, and flags an empty one only once it was left.
		required: true,
		placeholder: 'Required',
		hint: 'Required while Require Secret is on: publishing and listening for test events are refused while it is empty',
		description:
			'Add ?token=&lt;this secret&gt; to the URL you register on the platform; activation is refused while it is empty',
		displayOptions: { show: { registration: ['manual'], requireSecret: [true] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Add ISO Times',
				name: 'addIsoTimes',
				type: 'boolean',
				default: false,
				description:
					'Whether to add TriggeredDateTimeV2Iso (and the other time fields) as ISO 8601, read in the time zone below',
			},
			{
				displayName: 'Decode Failure Cause',
				name: 'decodeFailedCause',
				type: 'boolean',
				default: true,
				description:
					'Whether to add FailedCauseText, the decoded text of the base64 FailedCause of bounces',
			},
			{
				displayName: 'Event Time Zone',
				name: 'eventTimeZone',
				type: 'string',
				default: 'UTC',
				placeholder: 'Asia/Shanghai',
				description:
					'Time zone the platform writes event times in (it does not say); used for the ISO times',
			},
			{
				displayName: 'Give Way to Others',
				name: 'giveWay',
				type: 'boolean',
				default: false,
				description:
					"Whether another Mail Delivery Trigger of this account, published later or listening for test events, may take this one's push address. This one then receives nothing until it is published again while the address is free. The examples' trigger has it on, so that your own publishes.",
			},
			{
				displayName: 'Ignore Repeated Events',
				name: 'ignoreRepeatedEvents',
				type: 'boolean',
				default: true,
				description: `Whether to leave out an event identical in every field to one this workflow received in the last ${WINDOW_HOURS} hours: platforms push an event again when the answer was slow or lost. Turn off to get every copy.`,
			},
		],
	},
];

const storedParameters = new WeakMap<object, object>();

/**
 * A parameter read as its field's kind: Require Secret given as `{{ "true" }}` is true, never off. One that
 * cannot be read so stops the hook (activation is refused naming the field) or the push (answered 500,
 * no execution): the trigger never runs on a setting it could not read.
 */
function readParameter(
	context: IHookFunctions | IWebhookFunctions | IExecuteFunctions,
	name: string,
	fallback: unknown,
): unknown {
	const value =
		'getInputData' in context
			? context.getNodeParameter(name, 0, fallback)
			: context.getNodeParameter(name, fallback);
	// n8n copies the whole node at every getNode(): a push reads its stored parameters once.
	let stored = storedParameters.get(context);
	if (!stored) {
		stored = context.getNode().parameters;
		storedParameters.set(context, stored);
	}
	const read = readAsMeant(properties, stored, name, value);
	if ('value' in read) return read.value;
	throw new NodeOperationError(context.getNode(), read.problem);
}

export class MailDeliveryTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Mail Delivery Trigger',
		name: 'mailDeliveryTrigger',
		icon: { light: 'file:mailDelivery.svg', dark: 'file:mailDelivery.dark.svg' },
		group: ['trigger'],
		// Not 1: n8n evaluates an expression for every push to a version-1 webhook node (parseRequestBody).
		version: 2,
		subtitle:
			'={{ $parameter["outputMode"] === "perKind" ? "One output per event kind" : "Delivery events" }}',
		// n8n's node creator merges this node with Mail Delivery into one entry and shows this description for
		// both (editor-ui, generateMergedNodesAndActions): it speaks of the actions and the events.
		description:
			'Send transactional and campaign mail, manage templates, contacts and lists, and start workflows on delivery, bounce, open and click events',
		defaults: { name: 'Mail Delivery Trigger' },
		inputs: [],
		outputs: OUTPUTS_EXPRESSION,
		credentials: triggerCredentials,
		// An empty responseData makes n8n answer with webhookResponse ({received, kept}) instead of its default text.
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				responseData: '',
				path: 'events',
			},
		],
		activationMessage:
			'Pushes of the chosen event kinds now come to this workflow. The account has one push address (and one per sender): another trigger workflow on the same address is refused while this one is published, unless this one has Options → Give Way to Others on.',
		eventTriggerDescription:
			'Waiting for the platform to push an event: send a mail, or cause an event, to see one here',
		properties,
	};

	// Only the search this node's panel uses (Sender Names or IDs).
	methods = { loadOptions: { getSenderAddresses } };

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				if (this.getMode() !== 'manual')
					startRecord(this.getWorkflowStaticData('node') as TriggerStaticData);
				if (readParameter(this, 'registration', 'automatic') === 'automatic')
					return await isRegistered(this, registrationSettings(this));
				// Manual: nothing to register; n8n calls checkExists first, so the secret is checked here.
				if (
					readParameter(this, 'requireSecret', true) === true &&
					!String(this.getNodeParameter('secret', '')).trim()
				) {
					throw new NodeOperationError(
						this.getNode(),
						'Require Secret is on but the Secret is empty',
						{
							description:
								'Enter a secret and add ?token=<secret> to the URL you register on the platform, or turn Require Secret off to accept every push.',
						},
					);
				}
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				if (readParameter(this, 'registration', 'automatic') !== 'automatic') return true;
				await register(this, registrationSettings(this));
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				if (readParameter(this, 'registration', 'automatic') !== 'automatic') return true;
				await unregister(this);
				return true;
			},
		},
	};

	/**
	 * Starts nothing: pushes come through webhook(). A node with a trigger function is one n8n 2.x keeps in
	 * memory, so when n8n starts it publishes the workflow again, running the webhook hooks above (mode
	 * "init") as n8n 1.x does by itself: a trigger whose address a copy of this n8n took, or which n8n
	 * reaches at another public address now, takes its address back as n8n starts (registration.ts).
	 */
	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		return await Promise.resolve({});
	}

	/**
	 * Passes the events webhook() returned on as they are, and, n8n having saved this execution before it
	 * runs, counts them as passed on (repeats.ts). n8n runs a node's execute before its trigger function in
	 * an execution: without it, an execution started by listening for a test event would wait on trigger()
	 * instead of showing the push.
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		// The outputs as webhook() made them: counted from the parameters, not from the outputs expression,
		// which n8n would evaluate in an expression sandbox.
		const { count } = outputRouting(
			readParameter(this, 'outputMode', 'single'),
			chosenKinds(readParameter(this, 'events', ALL_KINDS)),
		);
		const outputs = Array.from({ length: count }, (_output, index) => this.getInputData(index));
		const options = readParameter(this, 'options', {}) as IDataObject;
		if (ignoresRepeats(options) && this.getMode() !== 'manual')
			recordPassed(
				this,
				outputs.flat().map((item) => item.json),
			);
		return await Promise.resolve(outputs);
	}

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const request = this.getRequestObject();
		const given = request.query[SECRET_PARAMETER];
		const accepted = await secretOfPush(this, given);
		if (accepted === false) return reject(this, 401, 'The push has no valid secret token');
		// Another trigger asking whether this one is live (probe.ts): answered without an execution.
		const probe = request.headers[PROBE_HEADER];
		if (probe !== undefined) return answerProbe(this, probe, accepted?.probeKey);
		return await receivePush(this, {
			events: chosenKinds(readParameter(this, 'events', ALL_KINDS)),
			outputMode: readParameter(this, 'outputMode', 'single') as string,
			options: readParameter(this, 'options', {}) as IDataObject,
		});
	}
}

function registrationSettings(context: IHookFunctions): RegistrationSettings {
	return {
		mode: readParameter(context, 'registerFor', 'default') as 'default' | 'senders',
		senders: (readParameter(context, 'senders', []) as string[])
			.map((sender) => sender.trim())
			.filter(Boolean),
		events: chosenKinds(readParameter(context, 'events', ALL_KINDS)),
		givesWay: (readParameter(context, 'options', {}) as IDataObject).giveWay === true,
	};
}

/**
 * The secret a push's token matches: the registered one (automatic: with its probe key), the user's
 * (manual); undefined when the user turned the check off; false when it matches none (none registered,
 * none set, or another).
 */
async function secretOfPush(
	context: IWebhookFunctions,
	given: unknown,
): Promise<Partial<Registered> | undefined | false> {
	if (readParameter(context, 'registration', 'automatic') === 'automatic')
		return (await acceptedSecret(context, given)) ?? false;
	if (readParameter(context, 'requireSecret', true) !== true) return undefined;
	const secret = String(context.getNodeParameter('secret', '')).trim();
	return secret && sameSecret(given, secretDigest(secret)) ? {} : false;
}
