/**
 * Tags a message's content uses ({{name}} in its template, subject or HTML) that none of its tag values fill.
 * The platform sends such a message with the tag left empty and answers success ("Your parcel  is on its
 * way"), so the send checks every message. By default (Options → Missing Tag Values: Fail the Item) its item
 * fails with an error naming the tags and the values the item does give, before any request; Send With the Tag
 * Empty sends it, and the message's output names the tags. One execution hint sums them up for the run. A
 * template's tags come from one read-only look-up per template and run, the first item's started before the
 * items are read and the others as they are; the
 * check waits for it before the first request only when its outcome can stop a message (Fail the Item), and
 * otherwise after the requests. A template that cannot be read leaves its messages unchecked, and the hint
 * says so.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { templateNamed } from '../../../../shared/records';
import { tagsIn } from '../../../helpers/tags';
import { capitalized, describeItems } from '../../../items/itemNames';
import { type LookupMemo, templateQuestion } from './diagnosis';
import { contentSourceOf } from './requests';

/** Options → Missing Tag Values. */
export const MISSING_TAG_VALUES = { send: 'send', fail: 'fail' } as const;

export const missingTagsField: INodeProperties = {
	displayName: 'Missing Tag Values',
	name: 'missingTagValues',
	type: 'options',
	options: [
		{
			name: 'Fail the Item',
			value: 'fail',
			description:
				"Nothing is sent for it: its item fails with an error naming the tag and the values it does have. Under the node's Settings → On Error → Stop Workflow (n8n's default) nothing is sent at all; with Continue, the other items are sent.",
		},
		{
			name: 'Send With the Tag Empty',
			value: 'send',
			description:
				'The mail goes out with nothing where the tag was ("Your parcel {{tracking}} is on its way" arrives without the tracking number); the item\'s output lists missingTags',
		},
	],
	default: 'fail',
	description:
		'What to do with a message whose template, subject or HTML uses a tag ({{name}}) that none of its tag values fill. Checked before anything is sent.',
};

/**
 * A template's tags, by the part that uses them (its subject is used only when the send gives none), or why
 * they are not known ("could not be read (…)").
 */
type TemplateTags =
	{ subject: string[]; content: string[]; texts: TemplateTexts } | { unreadable: string };

/** A template's subject and body as the account holds them (Sandbox Mode's preview fills them in). */
interface TemplateTexts {
	subject: string;
	content: string;
}

/** Where a message's tags come from, for the error that names them. */
type Source = { tags: string[]; where: string };

const quoted = (tags: string[]) => tags.map((tag) => `{{${tag}}}`);
const listed = (words: string[]) =>
	words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}` : words[0];
const own = (values: unknown, tag: string) =>
	!!values && Object.prototype.hasOwnProperty.call(values, tag);

/** Whether the message gives the tag a value: its version's params, else the shared ones (the version's win). */
function hasValue(shared: IDataObject, version: IDataObject, tag: string) {
	const value = own(version.params, tag)
		? (version.params as IDataObject)[tag]
		: own(shared.params, tag)
			? (shared.params as IDataObject)[tag]
			: undefined;
	return value !== undefined && value !== null;
}

/**
 * Names that look like the tag (the same letters in another case, one holding the other, or one or two
 * letters apart): "the input has firstName" is what a person who wrote {{name}} needs to read.
 */
function resembling(tag: string, names: string[]): string[] {
	const wanted = tag.toLowerCase();
	return names.filter((name) => {
		const have = name.toLowerCase();
		if (have === wanted) return name !== tag;
		if (wanted.length >= 3 && have.length >= 3 && (have.includes(wanted) || wanted.includes(have)))
			return true;
		return wanted.length >= 4 && editDistance(have, wanted) <= 2;
	});
}

function editDistance(a: string, b: string): number {
	let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
	for (let i = 1; i <= a.length; i++) {
		const current = [i];
		for (let j = 1; j <= b.length; j++)
			current[j] = Math.min(
				previous[j] + 1,
				current[j - 1] + 1,
				previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
			);
		previous = current;
	}
	return previous[b.length];
}

/** What an item's output says of its messages' missing tags: nothing when none lacks any. */
export const missingTagsOutput = (missingTags: string[]): IDataObject =>
	missingTags.length > 0 ? { missingTags: [...new Set(missingTags)] } : {};

export class MissingTagCheck {
	/** Templates' tags as their look-ups found them, by name, once every look-up is over (ready()). */
	private readonly templates = new Map<string, Promise<TemplateTags>>();
	private readonly found = new Map<string, TemplateTags>();
	private messages = 0;
	/** Per missing tag: how many messages lack it, and names given that look like it. */
	private readonly missing = new Map<string, { count: number; inputHas: Set<string> }>();
	private readonly unchecked = new Map<string, string>();
	/** Tags by text: thousands of messages share one subject or HTML. */
	private readonly textTags = new Map<string, string[]>();

	/** `lookups`: what the run knows of its templates, shared with the diagnosis of a refusal (one look-up each). */
	constructor(
		private readonly context: IExecuteFunctions,
		readonly failItems: boolean,
		private readonly lookups: LookupMemo,
	) {}

	/** Starts the look-up of the templates an item's messages use (one per template and run), not waiting. */
	lookUp(shared: IDataObject, versions: IDataObject[], itemIndex: number) {
		for (const version of versions) {
			if (contentSourceOf(version, shared) !== 'template') continue;
			this.lookUpTemplate(String(version.templateName ?? shared.templateName ?? ''), itemIndex);
		}
	}

	/**
	 * Starts the look-up of one template, unless the run has started it already, not waiting: the send starts
	 * its first item's before reading the items, so that its round trip runs beside the reading.
	 */
	lookUpTemplate(name: string, itemIndex: number) {
		if (!name || this.templates.has(name)) return;
		this.pending++;
		const tags = this.read(name, itemIndex);
		void tags.finally(() => this.pending--);
		this.templates.set(name, tags);
	}

	/** Waits for every look-up started. */
	async ready() {
		for (const [name, tags] of this.templates) this.found.set(name, await tags);
	}

	/** Whether a look-up started is not answered yet (reading then pauses now and then to let it go on). */
	readonly lookingUp = () => this.pending > 0;

	private pending = 0;

	private async read(name: string, itemIndex: number): Promise<TemplateTags> {
		const read = templateNamed.call(this.context, name, itemIndex);
		// The diagnosis of a refusal asks whether the template exists: a read that worked answers it.
		void read.then(
			(template) => this.lookups.set(templateQuestion(name), Promise.resolve(!!template)),
			() => undefined,
		);
		return await read.then(
			(template): TemplateTags =>
				template
					? {
							subject: tagsIn(template.templateSubject),
							content: tagsIn(template.templateContent),
							texts: {
								subject: String(template.templateSubject ?? ''),
								content: String(template.templateContent ?? ''),
							},
						}
					: { unreadable: "is not in the account's template list" },
			(error: Error): TemplateTags => ({ unreadable: `could not be read (${error.message})` }),
		);
	}

	/** A template's texts once ready(), or why they are not known. */
	textsOf(name: string): TemplateTexts | { unreadable: string } {
		const template = this.found.get(name);
		if (!template) return { unreadable: 'was not read' };
		return 'unreadable' in template ? template : template.texts;
	}

	private tagsOf(text: unknown): string[] {
		if (typeof text !== 'string' || text === '') return [];
		let tags = this.textTags.get(text);
		if (!tags) {
			tags = tagsIn(text);
			this.textTags.set(text, tags);
		}
		return tags;
	}

	/** The tags a message's content uses, by where; undefined when its template cannot be read. */
	private sourcesOf(
		subject: string | undefined,
		source: 'template' | 'content',
		contentOrTemplate: unknown,
	): Source[] | undefined {
		const sources: Source[] = [{ tags: this.tagsOf(subject), where: 'the Subject' }];
		if (source === 'content') {
			sources.push({ tags: this.tagsOf(contentOrTemplate), where: 'the content (HTML or text)' });
			return sources;
		}
		const templateName = String(contentOrTemplate ?? '');
		if (!templateName) return sources;
		const template = this.found.get(templateName);
		if (!template || 'unreadable' in template) {
			this.unchecked.set(templateName, template?.unreadable ?? 'was not read');
			return undefined;
		}
		// The template's subject is used only when the send gives none.
		const used = subject === undefined || subject === '' ? template.subject : [];
		sources.push({
			tags: [...template.content, ...used],
			where: `the template "${templateName}"`,
		});
		return sources;
	}

	/** What the last message's content used: the messages of a run mostly share a subject and a template. */
	private last?: {
		subject: unknown;
		source: string;
		contentOrTemplate: unknown;
		used: { sources: Source[]; tags: string[] } | undefined;
	};

	/** The tags a message's content uses, each once, and where; undefined when its template cannot be read. */
	private usedBy(version: IDataObject, shared: IDataObject) {
		const subject = (version.subject ?? shared.subject) as string | undefined;
		const source = contentSourceOf(version, shared);
		const contentOrTemplate =
			source === 'content'
				? (version.content ?? shared.content)
				: (version.templateName ?? shared.templateName);
		const last = this.last;
		if (
			last !== undefined &&
			last.subject === subject &&
			last.source === source &&
			last.contentOrTemplate === contentOrTemplate
		)
			return last.used;
		const sources = this.sourcesOf(subject, source, contentOrTemplate);
		const used = sources && {
			sources,
			tags: [...new Set(sources.flatMap((where) => where.tags))],
		};
		this.last = { subject, source, contentOrTemplate, used };
		return used;
	}

	/**
	 * The tags each of an item's messages leaves without a value (an empty list for a message that lacks
	 * none), once ready(). With Fail the Item, `error` is the item's: one of its messages lacks a tag.
	 */
	check(
		itemIndex: number,
		shared: IDataObject,
		versions: IDataObject[],
	): { missing: string[][]; error?: NodeOperationError } {
		const missing: string[][] = [];
		let failing: { index: number; sources: Source[] } | undefined;
		for (let index = 0; index < versions.length; index++) {
			const version = versions[index];
			const used = this.usedBy(version, shared);
			const lacking: string[] = [];
			missing.push(lacking);
			if (!used) continue;
			this.messages++;
			for (const tag of used.tags) if (!hasValue(shared, version, tag)) lacking.push(tag);
			if (lacking.length === 0) continue;
			failing ??= { index, sources: used.sources };
			for (const tag of lacking) {
				const entry = this.missing.get(tag) ?? { count: 0, inputHas: new Set<string>() };
				entry.count++;
				for (const name of this.inputLike(itemIndex, tag)) entry.inputHas.add(name);
				this.missing.set(tag, entry);
			}
		}
		if (!this.failItems || !failing) return { missing };
		return { missing, error: this.missingError(itemIndex, shared, versions, failing, missing) };
	}

	/** Input fields of the item that look like a missing tag: "the input has firstName". */
	private inputLike(itemIndex: number, tag: string): string[] {
		return resembling(tag, Object.keys(this.context.getInputData()[itemIndex]?.json ?? {}));
	}

	/** The error of an item one of whose messages lacks tags: which, where they are used, what it gives. */
	private missingError(
		itemIndex: number,
		shared: IDataObject,
		versions: IDataObject[],
		failing: { index: number; sources: Source[] },
		missing: string[][],
	): NodeOperationError {
		const tags = missing[failing.index];
		const failed = versions[failing.index];
		const like = [...new Set(tags.flatMap((tag) => this.inputLike(itemIndex, tag)))];
		const where = failing.sources
			.filter((source) => source.tags.some((tag) => tags.includes(tag)))
			.map((source) => source.where);
		const names = Object.keys({
			...((shared.params as IDataObject) ?? {}),
			...((failed.params as IDataObject) ?? {}),
		});
		const version = versions.length > 1 ? ` (message version ${failing.index + 1})` : '';
		return new NodeOperationError(
			this.context.getNode(),
			`${tags.length === 1 ? 'Tag' : 'Tags'} ${listed(quoted(tags))} ${tags.length === 1 ? 'has' : 'have'} no value${version}, in ${describeItems([itemIndex])}`,
			{
				itemIndex,
				description: [
					`${capitalized(listed(where))} ${where.length === 1 ? 'uses' : 'use'} ${tags.length === 1 ? 'it' : 'them'}; ${names.length > 0 ? `this item holds values for ${listed(names)}` : 'this item holds no tag values'}${like.length > 0 ? ` (the input has ${listed(like)})` : ''}.`,
					'Nothing was sent for this item. To send such messages with the tag left empty, set Options → Missing Tag Values to Send With the Tag Empty.',
				].join(' '),
			},
		);
	}

	/** One hint in the output panel for the run: which tags were missing in how many messages, and templates not checked. */
	addHint() {
		const lines: string[] = [];
		for (const [tag, { count, inputHas }] of this.missing) {
			const like = [...inputHas].slice(0, 3);
			lines.push(
				`${count} of ${this.messages} ${this.messages === 1 ? 'message has' : 'messages have'} no value for {{${tag}}}${like.length > 0 ? `: the input has ${listed(like)}` : ''}.`,
			);
		}
		if (lines.length > 0)
			lines.push(
				this.failItems
					? 'Those items were not sent, and each has its error (Options → Missing Tag Values: Fail the Item).'
					: "They were sent with the tag left empty (Options → Missing Tag Values: Send With the Tag Empty); each message's output lists its missingTags.",
			);
		for (const [name, reason] of this.unchecked)
			lines.push(
				`The template "${name}" ${reason}: its messages were not checked for missing tag values.`,
			);
		if (lines.length > 0)
			this.context.addExecutionHints({ message: lines.join(' '), location: 'outputPane' });
	}
}
