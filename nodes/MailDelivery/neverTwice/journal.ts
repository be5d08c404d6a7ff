/**
 * The journal of a run in n8n's store, written as the run sends (in regular mode, where one process writes the node's
 * row, in order): which of its requests may have left and which the platform accepted. A retry that goes on from
 * data older than the run's last try (n8n crashed or restarted while that try sent, or another retry ran it since)
 * reads it and takes the run over: it sends what never left, keeps what was accepted, and refuses only what may have
 * reached the platform without an answer (verdicts.ts decides when).
 *
 * A request is named by its origin, its place in the run's packing (the halves of a refused request keep it), which
 * every try that packs the same entries alike gives it; the packing's fingerprint says they do. Entries, beside the
 * run's claim (storeClaims.ts):
 *
 * - `js:<run>` and `j:<run>:<fingerprint>`: the journal began, with that packing (written with the first intent);
 * - `i:<run>:<origin>` and `p:<run>:<origin>`: the origin's first request may leave (it waits until both are in the
 *   store); `p` is taken out once the platform accepted it whole, both when it was refused unprocessed.
 *
 * So an origin without `i` never left, one with `i` and `p` may have reached the platform, one with `i` alone was
 * accepted. Where an origin was split (a refused request cut in halves), `p` stays: its entries count as in doubt.
 * A reader asks by recording both (the store answers only so): a question about an origin that never left writes
 * what its own intent would, which it takes out again before it announces the origin itself.
 */
import { claimOf, type LineageRun, type StoreRow } from './storeClaims';

/** What a run's journal says of the origins an earlier try left. */
interface Earlier {
	accepted: Set<number>;
	inDoubt: Set<number>;
}

/** Store writes made one after another, each carrying every entry asked for while the one before was written. */
class Batches {
	private waiting: string[] = [];

	private next: Promise<void> | undefined;

	private last: Promise<void> = Promise.resolve();

	constructor(private readonly write: (entries: string[]) => Promise<unknown>) {}

	/** Resolves once the entries are written (rejects if that write failed). */
	async add(entries: string[]): Promise<void> {
		this.waiting.push(...entries);
		this.next ??= this.last.then(async () => {
			const entries = this.waiting;
			this.waiting = [];
			this.next = undefined;
			await this.write(entries);
		});
		const written = this.next;
		this.last = written.catch(() => undefined);
		await written;
	}

	/** Resolves once every write asked for so far is done. */
	async settled() {
		await this.last;
		if (this.next) await this.next.catch(() => undefined);
	}
}

export class RunJournal {
	private readonly name: string;

	private readonly announced = new Set<number>();

	/** Origins cut in halves: their `p` stays. */
	private readonly split = new Set<number>();

	private began = false;

	private readonly records: Batches;

	private readonly removals: Batches;

	constructor(
		private readonly row: StoreRow,
		private readonly run: LineageRun,
		private readonly fingerprint: string,
	) {
		this.name = `${run.lineage}:${run.run}`;
		this.records = new Batches(async (entries) => await row.record(entries));
		this.removals = new Batches(async (entries) => await row.remove(entries));
	}

	private readonly intentOf = (origin: number) => [
		`i:${this.name}:${origin}`,
		`p:${this.name}:${origin}`,
	];

	private get beginning() {
		return [`js:${this.name}`, `j:${this.name}:${this.fingerprint}`];
	}

	/**
	 * What an earlier try of the run left of these origins (this run's packing), read with no other call of this
	 * process on the row in between. `'otherPacking'` when it packed other entries (the workflow changed), and
	 * `'forgotten'` when the store no longer holds the run's claim (later runs pushed it out, and maybe its journal):
	 * then none can be told apart.
	 */
	async readEarlier(origins: number[]): Promise<Earlier | 'otherPacking' | 'forgotten'> {
		return await this.row.alone(async (row) => await this.read(row, origins));
	}

	private async read(
		row: StoreRow,
		origins: number[],
	): Promise<Earlier | 'otherPacking' | 'forgotten'> {
		const earlier: Earlier = { accepted: new Set(), inDoubt: new Set() };
		// The store forgets the oldest first: with the claim there, all the journal written after it is.
		const [claimed, begun] = await row.record([claimOf(this.run), `js:${this.name}`]);
		if (!claimed) return 'forgotten';
		if (!begun) return earlier;
		// Taken out to be read (a recorded question would look written by the earlier try), then put back.
		const [fingerprint] = this.beginning.slice(1);
		const before = await row.count();
		await row.remove([fingerprint]);
		if ((await row.count()) === before) return 'otherPacking';
		await row.record([fingerprint]);
		this.began = true;
		const answers = await row.record(origins.flatMap(this.intentOf));
		const notLeft: string[] = [];
		origins.forEach((origin, index) => {
			const [intent, pending] = [answers[index * 2], answers[index * 2 + 1]];
			if (!intent) notLeft.push(...this.intentOf(origin));
			else if (pending) earlier.inDoubt.add(origin);
			else {
				earlier.accepted.add(origin);
				notLeft.push(this.intentOf(origin)[1]);
			}
		});
		if (notLeft.length > 0) await row.remove(notLeft);
		return earlier;
	}

	/** The origin's first request may leave: resolves once the store holds its intent (rejects if it cannot). */
	async announce(origin: number) {
		if (this.announced.has(origin)) return;
		this.announced.add(origin);
		const first = this.began ? [] : this.beginning;
		this.began = true;
		await this.records.add([...first, ...this.intentOf(origin)]);
	}

	/** A request of the origin was refused whole, and is cut in halves: what becomes of its entries is not kept. */
	cutInHalves(origin: number) {
		this.split.add(origin);
	}

	/** The origin's request was answered: accepted whole, or refused with nothing processed (it never left, in effect). */
	answered(origin: number, outcome: 'accepted' | 'unprocessed') {
		if (this.split.has(origin) || !this.announced.has(origin)) return;
		const [intent, pending] = this.intentOf(origin);
		void this.removals.add(outcome === 'accepted' ? [pending] : [intent, pending]).catch(() => {
			// Not taken out: the origin reads as in doubt, the safe side.
		});
	}

	/** Every write asked for is done (before the run ends). */
	async close() {
		await this.records.settled();
		await this.removals.settled();
	}
}
