// Size limits of node code: no file over 400 lines, no function over 80 (a newcomer reads a function whole).
// `node scripts/code-size.mjs nodes` fails on a breach; `--report` prints the largest files and functions.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 80;

const [folder = 'nodes', ...flags] = process.argv.slice(2);
const report = flags.includes('--report');

function* sources(dir) {
	for (const name of readdirSync(dir)) {
		const full = path.join(dir, name);
		if (statSync(full).isDirectory()) yield* sources(full);
		else if (full.endsWith('.ts')) yield full;
	}
}

const files = [];
const functions = [];
for (const file of sources(folder)) {
	const text = readFileSync(file, 'utf8');
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
	const lineOf = (pos) => source.getLineAndCharacterOfPosition(pos).line + 1;
	files.push({ file, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0) });
	const visit = (node) => {
		if (ts.isFunctionLike(node) && 'body' in node && node.body) {
			const name =
				node.name?.getText(source) ??
				(ts.isVariableDeclaration(node.parent) ? node.parent.name.getText(source) : '(anonymous)');
			const lines = lineOf(node.getEnd()) - lineOf(node.getStart(source)) + 1;
			functions.push({ where: `${file}:${lineOf(node.getStart(source))}`, name, lines });
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
}
files.sort((a, b) => b.lines - a.lines);
functions.sort((a, b) => b.lines - a.lines);
if (report) {
	console.log('Largest files:');
	for (const { file, lines } of files.slice(0, 8)) console.log(`  ${lines}\t${file}`);
	console.log('Longest functions:');
	for (const { where, name, lines } of functions.slice(0, 8))
		console.log(`  ${lines}\t${name}\t${where}`);
}
const breaches = [
	...files
		.filter(({ lines }) => lines > MAX_FILE_LINES)
		.map(({ file, lines }) => `${file}: ${lines} lines (at most ${MAX_FILE_LINES})`),
	...functions
		.filter(({ lines }) => lines > MAX_FUNCTION_LINES)
		.map(
			({ where, name, lines }) =>
				`${where} ${name}: ${lines} lines (at most ${MAX_FUNCTION_LINES})`,
		),
];
if (breaches.length > 0) {
	console.error(`Code size limits broken in ${folder}:\n  ${breaches.join('\n  ')}`);
	process.exit(1);
}
