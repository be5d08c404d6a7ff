// Journey of issue 37.5: the trigger's Options → Ignore Repeated Events as a person finds it in the editor, in a
// panel as narrow as a desktop browser draws it.
import { randomUUID } from 'node:crypto';

import { PACKAGE_NAME } from '../../../scripts/n8n-runtime.mjs';
import { cutWhenHovered, journey, narrowPanel, SIGNATURE_CREDENTIAL } from './journeys.mjs';
import { openNode, openWorkflowById } from './ui.mjs';

export async function s(env) {
	const credentials = (await env.session.api('GET', '/credentials?limit=250')).data ?? [];
	const signature = credentials.find((credential) => credential.name === SIGNATURE_CREDENTIAL);
	const workflow = {
		name: `Browser: repeated events ${randomUUID().slice(0, 6)}`,
		nodes: [
			{
				id: randomUUID(),
				name: 'Events',
				type: `${PACKAGE_NAME}.mailDeliveryTrigger`,
				typeVersion: 2,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: { options: { addIsoTimes: true, eventTimeZone: 'UTC' } },
				credentials: { mailDeliverySignatureApi: { id: signature.id, name: signature.name } },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
	const id = (await env.session.api('POST', '/workflows', workflow)).id;
	return await journey(env, 's-repeated-events', async (j, page) => {
		await openWorkflowById(page, env.baseUrl, id);
		const ndv = await openNode(page, 'Events');
		await page.waitForTimeout(500);
		const width = await narrowPanel(page, ndv);
		j.saw('panel width', `${width} px`);
		// n8n draws a collection of several options as a select whose placeholder reads "Add Option".
		await page.getByPlaceholder('Add Option').filter({ visible: true }).first().click();
		await page.waitForTimeout(500);
		const offered = await page.getByRole('option').filter({ visible: true }).allInnerTexts();
		await j.shot('options-offered');
		j.saw('Options offered', offered.join(', '));
		const option = page
			.getByRole('option')
			.filter({ visible: true })
			.filter({ hasText: 'Ignore Repeated Events' })
			.first();
		if (
			!(await j.check(
				(await option.count()) === 1,
				`the trigger's Options offer no "Ignore Repeated Events": ${offered.join(', ')}`,
			))
		)
			return;
		await option.click();
		await page.waitForTimeout(500);
		// Added, it shows as n8n draws a boolean: a switch, on (the default).
		const field = ndv
			.getByTestId('parameter-item')
			.filter({ hasText: 'Ignore Repeated Events' })
			.first();
		await field.scrollIntoViewIfNeeded();
		const on = await field
			.locator('.el-switch')
			.first()
			.evaluate((element) => element.classList.contains('is-checked'))
			.catch(() => undefined);
		await j.check(on === true, `Ignore Repeated Events is not on when added (switch: ${on})`);
		// What it does, as the field's tooltip says it: n8n shows it on the help icon beside the label.
		const label = ndv
			.locator('label.n8n-input-label')
			.filter({ hasText: 'Ignore Repeated Events' });
		await label.hover();
		await label.locator('[data-icon="circle-help"]').first().hover();
		await page.waitForTimeout(800);
		const tooltip = (
			await page
				.locator('.el-popper:visible, [role="tooltip"]:visible, [data-reka-popper-content-wrapper]')
				.allInnerTexts()
		).join(' ');
		await j.shot('option-added-hovered');
		j.saw('tooltip', tooltip || '(none)');
		await j.check(
			/identical in every field/.test(tooltip) &&
				/24 hours/.test(tooltip) &&
				/every copy/.test(tooltip),
			`the tooltip of Ignore Repeated Events does not say what it does: "${tooltip}"`,
		);
		const cut = [...(await cutWhenHovered(page, ndv))].filter((text) => text !== 'UTC');
		await j.shot('panel-hovered');
		j.saw('labels cut', JSON.stringify(cut));
		await j.check(cut.length === 0, `labels cut in a ${width} px panel: ${JSON.stringify(cut)}`);
	});
}
