/**
 * Requests on the same record (a contact's address) in input order, whatever Requests in Parallel says: each waits
 * for the last one started on its record, so the last item's change is the one that stays.
 */
export class RecordOrder {
	/** Requests on a record: the last one's run, which the next one on that record waits for. */
	private readonly lastOfRecord = new Map<string, Promise<unknown>>();

	/**
	 * Runs `send` once the last request started on `record` is over (at once without a record), then `after`;
	 * resolves when both are done.
	 */
	async inTurn(record: string | undefined, send: () => Promise<void>, after: () => void) {
		const before = record === undefined ? undefined : this.lastOfRecord.get(record);
		const sent = (async () => {
			await before;
			await send();
		})().finally(after);
		if (record !== undefined) this.lastOfRecord.set(record, sent);
		await sent;
	}
}
