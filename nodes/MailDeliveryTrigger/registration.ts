/**
 * The trigger's lifecycle hooks. What to save is worked out in plans.ts, without requests; the record of
 * what a trigger replaced travels in its URL on the platform (shared/triggerAddresses.ts), so it cannot be
 * lost with n8n's data; what the trigger alone knows is in static data (secrets.ts). Before taking or
 * releasing its own URL at another public address, or naming another workflow in a refusal, the trigger
 * asks whether a trigger still answers there (probe.ts).
 */
import type { IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { holdingWorkflow, parseUrl, recordOf, sameTriggerUrl } from '../shared/triggerAddresses';
import { asNodeApiError } from '../shared/transport/failures';
import type { WebhookConfig as Config } from '../shared/webhookConfig';
import { correctIgnoredNulls, readConfig, saveNearest } from './platform';
import {
	type Copies,
	holderOf,
	type Identity,
	isOwn,
	isTaken,
	liveCopies,
	ownElsewhere,
	type Ownership,
	publicAddressOf,
} from './holders';
import {
	addressName,
	addressesOf,
	type Address,
	changes,
	handedBack,
	kindsOn,
	notKeptBy,
	type RegistrationSettings,
	registrationPlan,
	type Releasing,
	releasedRecords,
	releasePlan,
	urlAt,
} from './plans';
import { type Liveness, probe } from './probe';
import { isRefusal, notKeptError, takenError, unusableError } from './refusals';
import { ownership, secretsFor, staticData } from './secrets';

export type { RegistrationSettings } from './plans';

function identity(
	context: IHookFunctions,
	config: Config,
	settings: RegistrationSettings,
): Identity {
	const workflow = context.getWorkflow();
	const own = ownership(context);
	return {
		...own,
		...secretsFor(context, config, own),
		workflowId: String(workflow.id ?? ''),
		workflowName: workflow.name ?? '',
		test: context.getMode() === 'manual',
		givesWay: settings.givesWay,
	};
}

/** Each URL asked once (at most a few: this trigger's own elsewhere, or the holder of an address). */
async function probeAll(context: IHookFunctions, urls: string[]) {
	const unique = [...new Set(urls)];
	const answers = await Promise.all(unique.map(async (url) => await probe(context, url)));
	return new Map(unique.map((url, index) => [url, answers[index]]));
}

/** Of this trigger's URLs at another public address, those a copy of this n8n still answers at. */
async function copiesAmong(context: IHookFunctions, elsewhere: string[], own: Ownership) {
	const probes = await probeAll(context, elsewhere);
	return { probes, copies: liveCopies(probes, own) };
}

async function release(
	context: IHookFunctions,
	config: Config,
	own: Ownership,
	releasing: Releasing,
) {
	// A trigger that gave way to a test listener gets its address back, if it still answers (probe.ts).
	const handed = handedBack(releasedRecords(config, releasing));
	const probes = await probeAll(context, handed);
	const gone = new Set(handed.filter((url) => !probes.get(url)!.answered));
	const target = releasePlan(config, own, releasing, gone);
	if (!target) return;
	const saved = await saveNearest(context, config, target, own.webhookUrl);
	if (saved) await correctIgnoredNulls(context, config, saved, own.webhookUrl);
}

/** The refusal for an address another trigger holds, naming it as its probe answers (production URLs). */
async function refusal(
	context: IHookFunctions,
	id: Identity,
	taken: { address: Address; holder: string },
	copies: Copies,
	probes: ReadonlyMap<string, Liveness>,
) {
	const asked =
		holderOf(taken.holder, id, copies) === 'other' && !recordOf(taken.holder)?.test
			? (probes.get(taken.holder) ?? (await probe(context, taken.holder)))
			: undefined;
	return takenError(context.getNode(), id, taken, copies, asked);
}

/** Someone changed the configuration between this trigger's read and its save: n8n tries again. */
function changedMeanwhile(context: IHookFunctions, message: string) {
	return new NodeOperationError(context.getNode(), message, {
		description: 'Someone changed the webhook configuration at the same time. n8n tries again.',
	});
}

/** The activation modes of n8n starting (or a main process of several taking the lead). */
const STARTING_UP = ['init', 'leadershipChange'];

const workflowInWords = (context: IHookFunctions) => {
	const workflow = context.getWorkflow();
	return `workflow "${workflow.name}" (ID ${workflow.id})`;
};

/** A refusal, also in n8n's log as n8n starts: nobody watches the editor then, and n8n does not retry it. */
function refused(context: IHookFunctions, error: Error): Error {
	if (STARTING_UP.includes(context.getActivationMode()))
		context.logger.warn(
			`Mail Delivery Trigger: ${workflowInWords(context)} is not receiving pushes: ${error.message}`,
		);
	return error;
}

/**
 * As n8n starts, a trigger that cannot check the platform (an outage, a credential refused, someone saving at
 * the same moment) keeps everything as it is instead of failing: n8n 2.x would unpublish it after its retries
 * (its delete hook giving the address back), n8n 1.x would deregister it until a retry succeeds. n8n's log
 * says so. A refusal still fails the publication.
 */
async function checkedAsNeeded<T>(
	context: IHookFunctions,
	check: () => Promise<T>,
	keep: T,
): Promise<T> {
	if (!STARTING_UP.includes(context.getActivationMode())) return await check();
	const outcome = await check().then(
		(value) => ({ value }),
		(error: unknown) => ({ error }),
	);
	if ('value' in outcome) return outcome.value;
	if (isRefusal(outcome.error)) throw outcome.error;
	context.logger.warn(
		`Mail Delivery Trigger: ${workflowInWords(context)} could not check its push address as n8n started (${(outcome.error as Error).message}); it keeps receiving the pushes that come to its URL. Publish it again to check.`,
	);
	return keep;
}

/**
 * checkExists: true when the configuration is already as this trigger needs it (nothing to save). No
 * probe here: a URL of this trigger elsewhere means a change (taken back, or a refusal), made by create.
 */
export async function isRegistered(
	context: IHookFunctions,
	settings: RegistrationSettings,
): Promise<boolean> {
	if (settings.mode === 'senders' && settings.senders.length === 0)
		throw refused(context, unusableError(context.getNode()));
	return await checkedAsNeeded(
		context,
		async () => {
			const config = await readConfig(context);
			const plan = registrationPlan(config, identity(context, config, settings), settings);
			// A trigger that gives way has nothing to save while another trigger holds its address.
			if ('taken' in plan) return settings.givesWay;
			return Object.keys(changes(config, plan.target)).length === 0;
		},
		true,
	);
}

export async function register(
	context: IHookFunctions,
	settings: RegistrationSettings,
): Promise<void> {
	if (settings.mode === 'senders' && settings.senders.length === 0)
		throw refused(context, unusableError(context.getNode()));
	await checkedAsNeeded(context, async () => await registerAt(context, settings), undefined);
}

async function registerAt(context: IHookFunctions, settings: RegistrationSettings) {
	// Test listening runs on static data of its own; its delete hook must know it (see unregister).
	if (context.getMode() === 'manual') staticData(context).listeningForTest = true;
	const config = await readConfig(context);
	const id = identity(context, config, settings);
	const { probes, copies } = await copiesAmong(context, ownElsewhere(config, id), id);
	const plan = registrationPlan(config, id, settings, copies);
	if ('taken' in plan && settings.givesWay) return givingWay(context, plan.taken);
	if ('taken' in plan)
		throw refused(context, await refusal(context, id, plan.taken, copies, probes));
	await saveNearest(context, config, plan.target, id.webhookUrl);
	// Another workflow or n8n may have saved between that read and this save: the last save wins.
	const after = await readConfig(context);
	for (const address of addressesOf(settings))
		await checkKept(context, id, address, plan.target, after, copies, probes);
	if (!kindsOn(after, settings.events) || after.transEnable !== true)
		throw changedMeanwhile(
			context,
			'The platform did not keep the event switches this workflow needs',
		);
	logTakeovers(context, id, config, settings);
}

/** A trigger that gives way, published while another trigger holds its address: it saves nothing. */
function givingWay(
	context: IHookFunctions,
	{ address, holder }: { address: Address; holder: string },
) {
	context.logger.info(
		`Mail Delivery Trigger: ${workflowInWords(context)} gives way to ${holdingWorkflow(holder) ?? 'another trigger'} at ${addressName(address)} (Options → Give Way to Others): it receives no pushes there until it is published again while the address is free.`,
	);
}

/**
 * n8n's log says where this trigger took an address from its own URL at another public address, where
 * no trigger answered (the probe): a copy of this n8n that stopped, or this n8n before it moved; and from
 * a trigger that gives way.
 */
function logTakeovers(
	context: IHookFunctions,
	id: Identity,
	config: Config,
	settings: RegistrationSettings,
) {
	const elsewhere = new Set(ownElsewhere(config, id));
	for (const address of addressesOf(settings)) {
		const holder = urlAt(config, address);
		if (holderOf(holder, id) === 'givesWay')
			context.logger.info(
				`Mail Delivery Trigger: ${workflowInWords(context)} took ${addressName(address)} from ${holdingWorkflow(holder) ?? 'another trigger'}, which gives way to other triggers; what that address held before it is put back when this workflow is unpublished.`,
			);
		if (id.test || holder === null || !elsewhere.has(holder)) continue;
		context.logger.warn(
			`Mail Delivery Trigger: ${workflowInWords(context)} took over ${addressName(address)} from its URL at ${publicAddressOf(holder, id)}, where no trigger answers any more (this workflow published by a copy of this n8n, or by this n8n at an earlier public address); pushes now come to ${id.webhookUrl}.`,
		);
	}
}

/** After the save: this trigger's URL at an address as it meant to save it, or what to do instead. */
async function checkKept(
	context: IHookFunctions,
	id: Identity,
	address: Address,
	target: Config,
	after: Config,
	copies: Copies,
	probes: ReadonlyMap<string, Liveness>,
) {
	const holder = urlAt(after, address);
	const intended = urlAt(target, address);
	if (sameTriggerUrl(holder, intended)) return;
	// Ours, but not as saved (a platform that shortens or rewrites addresses): what this trigger must
	// put back later is not on the platform. Put it back now, from the URLs it meant to save.
	const notKept = notKeptBy(target, id);
	if (holder !== null && notKept(holder, address)) {
		await release(context, after, id, notKept);
		throw refused(context, notKeptError(context.getNode(), id.test, address, holder, intended!));
	}
	if (isTaken(holder, id, copies)) {
		await release(context, after, id, (url) => (holderOf(url, id) === 'current' ? url : undefined));
		throw refused(
			context,
			await refusal(context, id, { address, holder: holder! }, copies, probes),
		);
	}
	throw changedMeanwhile(
		context,
		`The platform did not keep this workflow's URL at ${addressName(address)}`,
	);
}

/**
 * The delete hook: every address holding one of this trigger's URLs of this kind (production or test,
 * whatever host or secret it was saved with) gets back what it held before, but a URL a copy of this n8n
 * still answers at. At the end of test listening a failure is only logged: n8n cannot handle a throw
 * there. The URL left behind is this workflow's own, taken back at its next test listen or publication.
 */
export async function unregister(context: IHookFunctions): Promise<void> {
	try {
		const own = ownership(context);
		const path = new URL(own.webhookUrl).pathname;
		const config = await readConfig(context);
		const mine = (url: unknown): url is string =>
			isOwn(url, own) && parseUrl(url)!.pathname === path;
		const { copies } = await copiesAmong(context, ownElsewhere(config, own).filter(mine), own);
		for (const url of copies)
			context.logger.warn(
				`Mail Delivery Trigger: left ${publicAddressOf(url, own)} as it is on the platform: this workflow's trigger on another n8n (a copy of this one) still receives its pushes there.`,
			);
		await release(context, config, own, (url) => (mine(url) && !copies.has(url) ? url : undefined));
	} catch (error) {
		if (staticData(context).listeningForTest !== true)
			throw asNodeApiError(context.getNode(), error);
		context.logger.warn(
			`Mail Delivery Trigger: the push address could not be put back at the end of test listening (${(error as Error).message}); this workflow takes it back at its next test listen or publication.`,
		);
	}
}
