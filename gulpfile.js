// Copies node and credential icons next to the compiled JavaScript, where n8n looks for them.
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

task('build:icons', copyIcons);
