/** Fields several operations share, read for an item: Sandbox Mode, paging (Return All, Limit) and a day range. */
import type { IDataObject } from 'n8n-workflow';

import { toApiDay } from '../../shared/dates';
import { inputError } from './itemErrors';
import type { ItemParameters } from './parameterReader';

/** Adds `sandboxMode: true` to the body when the toggle is on; off, nothing is sent. */
export function applySandboxMode(body: IDataObject, item: ItemParameters) {
	if (item.get<boolean>('sandboxMode', false) === true) body.sandboxMode = true;
	return body;
}

/** Return All, or at most Limit records. */
export interface Paging {
	returnAll: boolean;
	limit: number;
}

export function pagingOf(item: ItemParameters): Paging {
	return {
		returnAll: item.get<boolean>('returnAll', false),
		// The tool version has its own Limit field (toolLimit, 10 by default: common.descriptions.ts) instead of limit.
		limit: (item.get<number | null>('limit', null) ?? item.get<number>('toolLimit', 10)) as number,
	};
}

function dayOf(item: ItemParameters, field: string, name: string) {
	const value = item.get(name, '');
	try {
		return toApiDay(value, item.timezone);
	} catch {
		throw inputError(
			item.node,
			`Field "${field}" is not a day that can be read: "${String(value)}"`,
			item.index,
		);
	}
}

export function readDayRange(item: ItemParameters): IDataObject {
	const startDate = dayOf(item, 'Start Day', 'startDate');
	const endDate = dayOf(item, 'End Day', 'endDate');
	if (!startDate || !endDate) {
		throw inputError(
			item.node,
			`Field "${startDate ? 'End Day' : 'Start Day'}" is required`,
			item.index,
		);
	}
	if (startDate > endDate) {
		throw inputError(
			item.node,
			`Field "Start Day" (${startDate}) is after "End Day" (${endDate})`,
			item.index,
		);
	}
	return { startDate, endDate };
}
