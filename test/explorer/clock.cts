/**
 * The clock the node and n8n read (Date.now), moved by a history; the platform is kept to the clock that
 * signatures use (the credentials sign with the real time), so that requests stay signed in time.
 */
import type { Emulator } from '../../emulator/server.cts';

let offsetMs = 0;
const realNow = Date.now.bind(Date);

function set(emulator: Emulator | undefined, ms: number) {
	offsetMs = ms;
	Date.now = () => realNow() + offsetMs;
	if (emulator) emulator.state.clockOffsetMs = -offsetMs;
}

/** The clock set to `minute` minutes into the next hour (histories start there). */
export function clockAtMinute(emulator: Emulator, minute: number) {
	const now = realNow();
	set(emulator, now - (now % 3_600_000) + 3_600_000 + minute * 60_000 - now);
}

export const advanceClock = (emulator: Emulator | undefined, ms: number) =>
	set(emulator, offsetMs + ms);

export function restoreClock() {
	Date.now = realNow;
	offsetMs = 0;
}
