/**
 * As an AI tool the node is described per operation: every operation the panel offers has a text that
 * says what happens and what comes back, and the tool version shows it as its Description field.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { MailDelivery } from '../../nodes/MailDelivery/MailDelivery.node';
import { toolDescriptionOf } from '../../nodes/MailDelivery/actions';

const { description } = new MailDelivery();
const operations = description.properties
	.filter((property) => property.name === 'operation')
	.flatMap((property) =>
		((property.options ?? []) as INodePropertyOptions[]).map((option) => [
			(property.displayOptions?.show?.resource as string[])[0],
			String(option.value),
		]),
	);

test.each(operations)(
	'%s.%s has a tool description that says what comes back',
	(resource, operation) => {
		expect(toolDescriptionOf(resource, operation)).toMatch(/Returns|Reads|Lists|Checks/);
	},
);

test('the tool version has a Description per operation, a default Limit of 10, and says that real mail goes out', () => {
	const isTool = (property: INodeProperties) =>
		(property.displayOptions?.show?.['@tool'] as boolean[] | undefined)?.[0] === true;
	const toolDescriptions = description.properties.filter(
		(property) => property.name === 'toolDescription',
	);
	expect(toolDescriptions).toHaveLength(operations.length);
	expect(toolDescriptions.every(isTool)).toBe(true);
	const toolLimits = description.properties.filter(
		(property) => /^(limit|toolLimit)$/.test(property.name) && isTool(property),
	);
	expect(toolLimits.length).toBeGreaterThan(0);
	expect(toolLimits.every((property) => property.default === 10)).toBe(true);
	expect(toolDescriptionOf('transactionalMail', 'send')).toContain('Sends real email');
});
