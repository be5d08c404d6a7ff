import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import { dayRangeFields } from '../common.descriptions';
import { readDayRange } from '../../helpers/parameters';

export const description = updateDisplayOptions(
	{ show: { resource: ['transactionalMail'], operation: ['getStats'] } },
	dayRangeFields as INodeProperties[],
);

export async function execute(this: IExecuteFunctions, itemIndex: number) {
	const answer = await apiRequest.call(
		this,
		'/v5/transactional/mail/stats/get',
		readDayRange.call(this, itemIndex),
		itemIndex,
	);
	return (answer.mailStatsList as IDataObject[] | undefined) ?? [];
}
