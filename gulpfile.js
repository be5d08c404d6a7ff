// Build steps around tsc: start from an empty dist (a file whose source was deleted must not ship),
// then copy node and credential icons next to the compiled JavaScript, where n8n looks for them.
const fs = require('node:fs');
const path = require('node:path');
const { task, src, dest } = require('gulp');

function copyIcons() {
	const nodeIcons = src(path.resolve('nodes', '**', '*.{png,svg}'), { encoding: false }).pipe(
		dest(path.resolve('dist', 'nodes')),
	);
	const credentialIcons = src(path.resolve('credentials', '**', '*.{png,svg}'), {
		encoding: false,
		allowEmpty: true,
	}).pipe(dest(path.resolve('dist', 'credentials')));
	return Promise.all([
		new Promise((resolve, reject) => nodeIcons.on('end', resolve).on('error', reject)),
		new Promise((resolve, reject) => credentialIcons.on('end', resolve).on('error', reject)),
	]);
}

task('clean', async () => fs.rmSync(path.resolve('dist'), { recursive: true, force: true }));
task('build:icons', copyIcons);
