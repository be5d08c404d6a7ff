/** Answer times of a run (transport/concurrency.ts): a round's median, and the run's without keeping every time. */
export const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
};

/** Answer times by 1 ms up to a second, then by 10 ms: the run's median without keeping every time. */
export class AnswerTimes {
	private readonly counts = new Map<number, number>();
	private count = 0;

	add(ms: number) {
		const bucket = ms < 1000 ? Math.round(ms) : Math.round(ms / 10) * 10;
		this.counts.set(bucket, (this.counts.get(bucket) ?? 0) + 1);
		this.count++;
	}

	get median(): number | undefined {
		if (this.count === 0) return undefined;
		let seen = 0;
		for (const bucket of [...this.counts.keys()].sort((a, b) => a - b)) {
			seen += this.counts.get(bucket)!;
			if (seen > this.count / 2) return bucket;
		}
		return undefined;
	}
}
