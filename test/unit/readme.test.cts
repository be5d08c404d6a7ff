/**
 * The README people look at (issue 40, item 5): short enough to read (at most 25,000 bytes), its Reliability section
 * states each promise and links the details, its pictures and links lead somewhere.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.join(__dirname, '..', '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
/** Pages of docs/ that other branches write at the same time (issue 40): linked before they arrive. */
const WRITTEN_ELSEWHERE = new Set(['docs/trigger.md', 'docs/human-review.md']);

const linksOf = (file: string) =>
	[...read(file).matchAll(/\]\(([^)#\s]+)(#[^)\s]*)?\)/g)]
		.map((match) => match[1])
		.filter((target) => !/^[a-z]+:/.test(target))
		.map((target) => path.normalize(path.join(path.dirname(file), target)));

test('the README is at most 25,000 bytes', () => {
	expect(Buffer.byteLength(read('README.md'))).toBeLessThanOrEqual(25_000);
});

test('its Reliability section states each promise in a few bullets and links docs/reliability.md', () => {
	const section = /^## Reliability\n([^]*?)(?=^## )/m.exec(read('README.md'))?.[1] ?? '';
	const bullets = section.split('\n').filter((line) => line.startsWith('- '));
	expect(bullets.map((line) => /^- \*\*(.+?)\*\*/.exec(line)?.[1])).toEqual([
		'At most once.',
		'Retries that send, never twice.',
		'Each pushed event once.',
		"The trigger's address.",
	]);
	expect(section).toContain('(docs/reliability.md)');
});

test('every picture and local link of the README and docs/ leads to a file', () => {
	const pages = [
		'README.md',
		...readdirSync(path.join(root, 'docs'))
			.filter((name) => name.endsWith('.md'))
			.map((name) => `docs/${name}`),
	];
	const missing = pages.flatMap((page) =>
		linksOf(page)
			.filter((target) => !WRITTEN_ELSEWHERE.has(target) && !existsSync(path.join(root, target)))
			.map((target) => `${page} → ${target}`),
	);
	expect(missing).toEqual([]);
	expect(linksOf('README.md').filter((target) => target.startsWith('docs/images/'))).toEqual([
		'docs/images/send-panel.jpg',
		'docs/images/trigger-outputs.jpg',
	]);
});

test('the quick start comes first: its two commands, then the emulator, its mail log and its settings (issue 54.5)', () => {
	const readme = read('README.md');
	const sections = [...readme.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
	expect(sections[0]).toBe('Quick start');
	expect(sections).not.toContain('Development');
	const section = /^## Quick start\n([^]*?)(?=^## )/m.exec(readme)?.[1] ?? '';
	expect(section).toMatch(/^npm start {3}# .+\nnpm test {4}# .+$/m);
	for (const words of ['/mails', '/settings', 'Latency (ms)', 'Rate limit', 'Messages'])
		expect(section).toContain(words);
});
