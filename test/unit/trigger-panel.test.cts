/**
 * What the trigger's panel shows without being asked. n8n 2.41 draws no required mark (*) beside a node
 * parameter: ParameterInputFull gives its N8nInputLabel no `required` (only credential fields get one), and
 * the empty-field issue of a `required: true` parameter shows only after the field was left or the panel
 * reopened. The browser suite (journey d) looks at the real panel.
 */
import { MailDeliveryTrigger } from '../../nodes/MailDeliveryTrigger/MailDeliveryTrigger.node';

test("manual registration's Secret says it is required in the field itself and under it, from the moment it appears", () => {
	const secret = new MailDeliveryTrigger().description.properties.find(
		(property) => property.name === 'secret',
	)!;
	expect(secret.required).toBe(true);
	expect(secret.placeholder).toBe('Required');
	expect(secret.hint).toMatch(/^Required while Require Secret is on/);
});
