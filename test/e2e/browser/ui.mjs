// What the browser suite does in n8n's editor, as a person does it: Chromium from Debian, one context per
// journey, numbered screenshots, and small helpers for the panels (selectors are n8n 2.41.1's data-test-id).
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';

import { chromium, selectors } from 'playwright-core';

import { root } from '../../../scripts/ensure-deps.mjs';
import { OWNER } from '../../../scripts/n8n-runtime.mjs';
import { ensureChromium } from '../../../scripts/system-packages.mjs';

const SHOTS = path.join(root, '.tmp', 'browser');
/**
 * The README's pictures: every run of the suite writes them again, so they show the editor as it is. JPEG, not
 * PNG: n8n-node build copies every .png and .svg of the project into dist/, which npm publishes.
 */
const PICTURES = path.join(root, 'docs', 'images');
const VIEWPORT = { width: 1600, height: 1000 };

selectors.setTestIdAttribute('data-test-id');

/** Debian's Chromium without the background services that flood a closed network. */
export async function launchBrowser() {
	return await chromium.launch({
		executablePath: ensureChromium(),
		headless: true,
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
		],
	});
}

/**
 * One journey: its own browser context and screenshot folder, and a list of problems found on the way, so one
 * run reports every broken thing of a journey rather than only the first.
 */
export class Journey {
	constructor(browser, name, baseUrl) {
		this.browser = browser;
		this.name = name;
		this.baseUrl = baseUrl;
		this.folder = path.join(SHOTS, name);
		this.count = 0;
		this.problems = [];
		this.seen = [];
		rmSync(this.folder, { recursive: true, force: true });
		mkdirSync(this.folder, { recursive: true });
	}

	async open(storageState) {
		this.context = await this.browser.newContext({ viewport: VIEWPORT, storageState });
		this.page = await this.context.newPage();
		// n8n's editor is slow on two cores: generous, bounded waits.
		this.page.setDefaultTimeout(30_000);
		this.page.setDefaultNavigationTimeout(60_000);
		return this.page;
	}

	async shot(label) {
		const file = path.join(this.folder, `${String(++this.count).padStart(2, '0')}-${label}.png`);
		await this.page?.screenshot({ path: file }).catch(() => undefined);
		return path.relative(root, file);
	}

	/**
	 * A picture for the README, written to docs/images/<name>.jpg: of `target` (a locator) alone, or of the page
	 * within `clip` ({ x, y, width, height }). Also kept with the journey's screenshots.
	 */
	async picture(name, { target, clip } = {}) {
		mkdirSync(PICTURES, { recursive: true });
		const file = path.join(PICTURES, `${name}.jpg`);
		const options = { path: file, type: 'jpeg', quality: 90, animations: 'disabled' };
		if (target) await target.screenshot(options);
		else await this.page.screenshot({ ...options, clip });
		await this.shot(`picture-${name}`);
		return path.relative(root, file);
	}

	/** Records a problem with the screenshot that shows it; the journey fails at the end. */
	async problem(message) {
		const file = await this.shot('problem');
		this.problems.push(`${message} (see ${file})`);
	}

	async check(condition, message) {
		if (!condition) await this.problem(message);
		return Boolean(condition);
	}

	/** A text n8n showed, kept for the report. */
	saw(where, text) {
		this.seen.push(`${where}: ${text}`);
		console.log(`  [${this.name}] ${where}: ${text}`);
	}

	async close() {
		await this.context?.close().catch(() => undefined);
	}

	report() {
		if (this.problems.length)
			throw new Error(
				`${this.name}: ${this.problems.length} problem(s):\n- ${this.problems.join('\n- ')}`,
			);
	}
}

export async function signIn(page, baseUrl) {
	await page.goto(`${baseUrl}/signin`);
	await page.getByTestId('emailOrLdapLoginId').locator('input').fill(OWNER.email);
	await page.getByTestId('password').locator('input').fill(OWNER.password);
	await page.getByTestId('form-submit-button').click();
	await page.waitForURL(/\/home\//);
}

export async function openWorkflowFromList(page, baseUrl, name) {
	await page.goto(`${baseUrl}/home/workflows`);
	await page.getByTestId('workflow-card-name').filter({ hasText: name }).first().click();
	await page.getByTestId('canvas-node').first().waitFor();
}

/**
 * Opens workflow `id`. A page that shows the editor already goes there through the editor's own router, as a
 * link in the editor does; another page loads the editor (a load costs 16 to 20 CPU seconds of this 2-core
 * machine: n8n 2.41.3's editor, measured per process).
 */
export async function openWorkflowById(page, baseUrl, id) {
	if (!(await routeInEditor(page, id))) await page.goto(`${baseUrl}/workflow/${id}`);
	await page.getByTestId('canvas-node').first().waitFor();
}

/**
 * Whether the editor this page shows went to workflow `id` through its router and holds it (its store's, so
 * that the canvas read next is that workflow's). False when the page shows no editor, or the editor did not get
 * there within 30 s (a dialog held it): the caller loads the page then.
 */
async function routeInEditor(page, id) {
	return await page
		.evaluate(async (id) => {
			const app = document.querySelector('#app')?.__vue_app__;
			const router = app?.config.globalProperties.$router;
			if (!router) return false;
			const pause = (ms, value) => new Promise((resolve) => setTimeout(() => resolve(value), ms));
			const failure = await Promise.race([
				router.push(`/workflow/${id}`).catch((error) => error ?? 'refused'),
				pause(10_000, 'timed out'),
			]);
			if (failure) return false;
			const workflows = app.config.globalProperties.$pinia?._s.get('workflows');
			for (let waited = 0; waited < 20_000; waited += 100) {
				if (workflows?.workflowId === id && document.querySelector('[data-test-id="canvas-node"]'))
					return true;
				await pause(100);
			}
			return false;
		}, id)
		.catch(() => false);
}

export const canvasNode = (page, name) =>
	page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);

export async function openNode(page, name) {
	await canvasNode(page, name).dblclick();
	await page.getByTestId('ndv').waitFor();
	return page.getByTestId('ndv');
}

export async function closeNode(page) {
	await page.getByTestId('ndv-close-button').click();
	await page.getByTestId('ndv').waitFor({ state: 'hidden' });
}

/** Adds a node through the node creator (the canvas "+"), then an action of it when one is named. */
export async function addNode(page, search, itemName, actionText) {
	await page.getByTestId('node-creator-plus-button').click();
	await page.getByTestId('node-creator-search-bar').fill(search);
	const creator = page.getByTestId('node-creator');
	await creator
		.getByTestId('item-iterator-item')
		.filter({ has: page.getByText(itemName, { exact: true }) })
		.first()
		.click();
	if (actionText) await creator.getByText(actionText, { exact: true }).first().click();
	await page.getByTestId('ndv').waitFor();
	return page.getByTestId('ndv');
}

/**
 * An options parameter: open it and click the option whose title is `option` (a text, or a RegExp for the
 * title); n8n's options are role=option and their names include the description under the title.
 */
export async function chooseOption(page, parameterName, option) {
	await page.getByTestId('ndv').getByTestId(`parameter-input-${parameterName}`).click();
	const title =
		option instanceof RegExp
			? option
			: new RegExp(`^${option.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s|$)`);
	await page.getByRole('option', { name: title }).filter({ visible: true }).first().click();
}

/**
 * Waits until the output panel shows a run's items or its error: a loaded machine's editor took more than 5 s to
 * render them (the reads below then found nothing). Goes on after 60 s, for a panel that shows neither.
 */
async function panelSettled(panel) {
	await panel
		.getByTestId('ndv-items-count')
		.or(panel.getByTestId('node-error-message'))
		.first()
		.waitFor({ timeout: 60_000 })
		.catch(() => undefined);
}

/**
 * The items of the output panel's current branch, read from its Table view ({ count, countText, items, text }):
 * each item an object of the cells' texts by column (the JSON view renders only the lines on screen).
 */
export async function readOutput(page) {
	const panel = page.getByTestId('output-panel');
	await panelSettled(panel);
	const countText = (
		await panel
			.getByTestId('ndv-items-count')
			.innerText({ timeout: 5_000 })
			.catch(() => '')
	).trim();
	const count = Number(/(\d+)\s+items?/.exec(countText)?.[1] ?? 0);
	await panel
		.getByTestId('radio-button-table')
		.click({ timeout: 5_000 })
		.catch(() => undefined);
	const table = panel.getByTestId('ndv-data-container').locator('table').first();
	const found = await table.waitFor({ timeout: 5_000 }).then(
		() => true,
		() => false,
	);
	const text = (
		await panel
			.getByTestId('ndv-data-container')
			.innerText({ timeout: 5_000 })
			.catch(() => '')
	)
		.replace(/\s+/g, ' ')
		.trim();
	if (!found) return { count, countText, items: [], text };
	const items = await table.evaluate((element) => {
		const headers = [...element.querySelectorAll('thead th')].map((th) =>
			th.textContent.replace(/\s+/g, ' ').trim(),
		);
		return [...element.querySelectorAll('tbody tr')].map((row) =>
			Object.fromEntries(
				[...row.querySelectorAll('td')]
					.map((td, index) => [headers[index], td.textContent.replace(/\s+/g, ' ').trim()])
					.filter(([header]) => header),
			),
		);
	});
	return { count, countText, items, text };
}

/** The output panel's branch tabs ("Success Branch (4 items)", "Error Branch"…), as shown. */
export async function branchTabs(page) {
	const tabs = page.getByTestId('output-panel').getByRole('tab');
	// The panel draws its branch tabs a moment after the run's end: read them once they are there (none: none).
	await tabs
		.first()
		.waitFor({ timeout: 10_000 })
		.catch(() => undefined);
	return (await tabs.allInnerTexts())
		.map((text) => text.replace(/\s+/g, ' ').trim())
		.filter(Boolean);
}

export async function openBranch(page, label) {
	await page
		.getByTestId('output-panel')
		.getByRole('tab')
		.filter({ hasText: label })
		.first()
		.click();
}

/** The output labels n8n draws on a canvas node's right side. */
export async function outputLabels(page, nodeName) {
	return await page
		.locator(`[data-test-id="canvas-node-output-handle"][data-node-name="${nodeName}"]`)
		.evaluateAll((handles) =>
			handles.map(
				(handle) => handle.querySelector('[class*="outputLabel"]')?.textContent?.trim() ?? '',
			),
		);
}

/** Item counts written on the edges of an execution shown on the canvas, by target node. */
export async function edgeCounts(page, sourceName) {
	return await page
		.locator(`[data-test-id="edge-label"][data-source-node-name="${sourceName}"]`)
		.evaluateAll((labels) =>
			Object.fromEntries(
				labels.map((label) => [
					label.dataset.targetNodeName,
					Number(/(\d+) items?/.exec(label.textContent ?? '')?.[1] ?? 0),
				]),
			),
		);
}

/** Visible toasts (n8n's notifications), title and text. */
export async function toasts(page) {
	return (await page.locator('.el-notification:visible').allInnerTexts()).map((text) =>
		text.replace(/\s+/g, ' ').trim(),
	);
}

export async function closeToasts(page) {
	for (const button of await page
		.locator('.el-notification:visible .el-notification__closeBtn')
		.all())
		await button.click().catch(() => undefined);
}

/**
 * Drags an element onto another with real mouse moves: n8n's mapping starts a drag only after the pointer
 * moves with the button down, and drops on mouseup over a parameter.
 */
export async function drag(page, source, target) {
	await source.scrollIntoViewIfNeeded();
	await target.scrollIntoViewIfNeeded();
	const from = await source.boundingBox();
	const to = await target.boundingBox();
	if (!from || !to) throw new Error('drag: source or target not on screen');
	await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
	await page.mouse.down();
	await page.mouse.move(from.x + from.width / 2 + 15, from.y + from.height / 2 + 5, { steps: 5 });
	await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 20 });
	await page.waitForTimeout(300);
	await page.mouse.move(to.x + to.width / 2 + 2, to.y + to.height / 2, { steps: 2 });
	await page.mouse.up();
	await page.waitForTimeout(300);
}

/** A field of the input panel's schema view ("email", "firstName"), the thing a person drags. */
export function inputField(page, name) {
	return page
		.getByTestId('ndv-input-panel')
		.getByTestId('run-data-schema-item')
		.locator('span')
		.filter({ hasText: new RegExp(`^${name}$`) })
		.first();
}

/** Waits until the output panel shows a finished run (items, an error, or "no output"), or the time is up. */
export async function waitForRun(page, timeout = 60_000) {
	const panel = page.getByTestId('output-panel');
	await panel
		.locator(
			'[data-test-id="ndv-items-count"], [data-test-id="node-error-message"], [data-test-id="node-run-status-success"], [data-test-id="node-run-status-error"], [data-test-id="ndv-data-container"]:has-text("No output data")',
		)
		.first()
		.waitFor({ timeout });
	// n8n updates the count and the branches a moment after the status.
	await page.waitForTimeout(800);
}

export async function executeStep(page) {
	await page.getByTestId('ndv').getByTestId('node-execute-button').click();
	await waitForRun(page);
}

/** The text of the node's error in the output panel (title and description), when there is one. */
export async function nodeError(page) {
	const panel = page.getByTestId('output-panel');
	await panelSettled(panel);
	const title = await panel
		.getByTestId('node-error-message')
		.innerText({ timeout: 3_000 })
		.catch(() => '');
	// The description comes a moment after the title (over a second on a loaded machine); some errors have none.
	const description = await panel
		.getByTestId('node-error-description')
		.innerText({ timeout: title ? 8_000 : 1_000 })
		.catch(() => '');
	return { title: title.trim(), description: description.trim() };
}
