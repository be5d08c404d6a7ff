/**
 * An operation run item by item states its plan's type once: what its step 1 (`prepare`) returns is what its step 2
 * (`send`) takes (run/operation.ts, ItemSteps). A module whose steps disagree must not compile, in its resource's
 * list (actions/resource.ts) or as an ItemOperationModule. Checked by the compiler (`tsc -p tsconfig.dev.json`, part
 * of `npm run lint:project`): each `@ts-expect-error` below fails the lint when its line compiles. jest, which does
 * not type-check, runs the same modules to show that the lists build.
 */
import type { ItemOperationModule, ItemPlatform } from '../../nodes/MailDelivery/run/operation';
import { resource } from '../../nodes/MailDelivery/actions/resource';
import type { ItemParameters } from '../../nodes/MailDelivery/items/parameterReader';

interface Search {
	body: { search: string };
}
interface Campaign {
	mailName: string;
}

const described = {
	option: { name: 'Example', description: 'An example operation', action: 'Do an example' },
	properties: [],
	toolDescription: 'An example.',
};

const prepare = (item: ItemParameters): Search => ({ body: { search: String(item.index) } });
const sendSearch = async ({ body }: Search, platform: ItemPlatform) => ({
	found: body.search,
	item: platform.index,
});
const sendCampaign = async ({ mailName }: Campaign, platform: ItemPlatform) => ({
	mailName,
	item: platform.index,
});

/** Steps that agree: the plan flows from `prepare` to `send`. */
const search = { ...described, prepare, send: sendSearch };
/** Steps that disagree: `send` takes a Campaign, `prepare` returns a Search. */
const mismatched = { ...described, prepare, send: sendCampaign };
/** A plan of one request needs no step 2. */
const oneRequest = {
	...described,
	prepare: () => ({ path: '/v5/example', body: {}, output: () => ({}) }),
};

export const typed: ItemOperationModule<Search> = search;
// @ts-expect-error a module whose send takes another plan than its prepare returns
export const mistyped: ItemOperationModule<Search> = mismatched;

test('a resource takes modules whose steps agree, and refuses to compile one whose steps do not', () => {
	expect(Object.keys(resource('example', { search, oneRequest }, 'search').operations)).toEqual([
		'search',
		'oneRequest',
	]);
	// @ts-expect-error the resource's list checks each module with its own plan type
	const refused = resource('example', { search, mismatched }, 'search');
	expect(Object.keys(refused.operations)).toEqual(['search', 'mismatched']);
});
