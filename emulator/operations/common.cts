/**
 * What every operation module shares: the context a handler works on, the answer helpers, paging,
 * day ranges and the field checks several operations make.
 */
import type { Delivery } from '../delivery.cts';
import type { OperationSchema } from '../schema.cts';
import type { State } from '../state.cts';
import { fail, type ApiAnswer, type Fault } from '../types.cts';

export interface OperationContext {
	state: State;
	delivery: Delivery;
	/** Takes the next planned fault for this path (campaign creation's 500s). */
	takeFault: (path: string, only?: Fault) => Fault | undefined;
}

/** Every handler validates first and changes state last, so sandbox mode can stop right before the first change. */
export type Handler = (
	ctx: OperationContext,
	body: Record<string, any>,
	sandbox: boolean,
) => ApiAnswer;

/** One path of the API: its request schema (section 4) and its handler, side by side. */
export interface Operation {
	schema: OperationSchema;
	handle: Handler;
}

export const API_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const HTTP_URL = /^https?:\/\/\S+$/i;

export const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
export const chars = (text: string) => [...text].length;

export const ok = (extra: Record<string, unknown> = {}, message = 'success'): ApiAnswer => ({
	code: 200,
	message,
	...extra,
});
/** The sandbox answer: validated, nothing done. */
export const sandboxed = () => ok({}, '');

export function parseApiDateTime(value: string): number | undefined {
	const match = API_DATE_TIME.exec(value);
	if (!match) return undefined;
	const time = Date.UTC(+match[1], +match[2] - 1, +match[3], +match[4], +match[5], +match[6]);
	const check = new Date(time);
	return check.getUTCDate() === +match[3] && check.getUTCMonth() === +match[2] - 1
		? time
		: undefined;
}

function parseDay(value: string): number | undefined {
	if (!DAY.test(value)) return undefined;
	const time = Date.parse(`${value}T00:00:00Z`);
	return Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== value
		? undefined
		: time;
}

/** startDate..endDate as the UTC midnights of both days; both days are included by the callers. */
export function dayRange(startDate: string, endDate: string): [number, number] {
	const start = parseDay(startDate);
	const end = parseDay(endDate);
	if (start === undefined || end === undefined)
		fail(400, '日期格式错误', 'startDate and endDate must be YYYY-MM-DD');
	if (start! > end!) fail(400, '开始日期晚于结束日期', 'startDate is after endDate');
	return [start!, end!];
}

/** One page of a search; pageSizeCap plays a platform answering fewer records than asked. */
export function page<T>(state: State, all: T[], b: Record<string, any>, key: string) {
	const asked = b.pageSize ?? 10;
	const pageIndex = b.pageIndex ?? 1;
	if (asked < 1 || pageIndex < 1)
		fail(400, '分页参数错误', 'pageSize and pageIndex must be at least 1');
	const pageSize = state.pageSizeCap > 0 ? Math.min(asked, state.pageSizeCap) : asked;
	return {
		[key]: all.slice((pageIndex - 1) * pageSize, pageIndex * pageSize),
		totalRecords: all.length,
	};
}

export function checkAttachment(attachment: unknown) {
	if (attachment === undefined) return;
	const a = attachment as Record<string, unknown>;
	if (
		typeof a.fileName !== 'string' ||
		!a.fileName ||
		typeof a.fileData !== 'string' ||
		!a.fileData
	) {
		fail(400, '附件缺少文件名或文件内容', 'attachment needs fileName and fileData');
	}
	if (!/^[A-Za-z0-9+/]*={0,2}$/.test(a.fileData as string))
		fail(400, '附件内容不是base64', 'attachment fileData is not base64');
}

export const paging = { pageSize: 'int', pageIndex: 'int' } as const;
