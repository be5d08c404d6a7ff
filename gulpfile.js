// `npm run dev` (gulp dev): the package as `npm start` runs it (real n8n against the emulator, the demo set up),
// rebuilt and n8n restarted whenever a file under nodes/ or credentials/ changes, until Ctrl-C stops everything.
// n8n's own `n8n-node dev` does the same through Docker from n8n 3.0 on; this needs none, and n8n loads the
// package as an install places it (a copy in its nodes folder), as `npm start` and the test suites do. The first
// build is npm start's (n8n-node build); a change is rebuilt by the same steps, incrementally: tsc, then the
// static files n8n-node build copies.
const path = require('node:path');

const { dest, src, watch } = require('gulp');
const ts = require('typescript');

const root = __dirname;
// What n8n-node build copies beside the JavaScript: icons, and the output schemas n8n reads.
// (One glob per folder: a brace around the folders makes the glob walk node_modules too.)
const STATIC_FILES = [
	'nodes/**/*.{png,svg}',
	'credentials/**/*.{png,svg}',
	'nodes/**/__schema__/**/*.json',
];

/**
 * The package's tsconfig compiled as tsc does, kept in memory between rebuilds: a change re-reads only the files
 * that changed and checks and emits only what they affect (a second or so, against about ten for a whole tsc run
 * on two busy cores). Throws, printing tsc's own report, when the code does not compile.
 */
let builder;
const parsedFiles = new Map();

function compile() {
	const report = (diagnostics) =>
		ts.formatDiagnosticsWithColorAndContext(diagnostics, {
			getCanonicalFileName: (fileName) => fileName,
			getCurrentDirectory: () => root,
			getNewLine: () => '\n',
		});
	const config = ts.getParsedCommandLineOfConfigFile(path.join(root, 'tsconfig.json'), undefined, {
		...ts.sys,
		onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
			throw new Error(report([diagnostic]));
		},
	});
	const host = ts.createIncrementalCompilerHost(config.options);
	const parse = host.getSourceFile.bind(host);
	// A file is parsed again only when it changed: the libraries' declarations are read once.
	host.getSourceFile = (fileName, ...rest) => {
		const modified = ts.sys.getModifiedTime?.(fileName)?.getTime();
		const known = parsedFiles.get(fileName);
		if (known && known.modified === modified) return known.sourceFile;
		const sourceFile = parse(fileName, ...rest);
		if (sourceFile) parsedFiles.set(fileName, { modified, sourceFile });
		return sourceFile;
	};
	builder = ts.createEmitAndSemanticDiagnosticsBuilderProgram(
		config.fileNames,
		config.options,
		host,
		builder,
		config.errors,
	);
	const diagnostics = [
		...builder.getConfigFileParsingDiagnostics(),
		...builder.getSyntacticDiagnostics(),
		...builder.getSemanticDiagnostics(),
		...builder.emit().diagnostics,
	];
	if (diagnostics.length > 0) {
		console.log(report(diagnostics));
		throw new Error(`tsc found ${diagnostics.length} error${diagnostics.length === 1 ? '' : 's'}`);
	}
}

function copyStaticFiles() {
	return src(STATIC_FILES, { cwd: root, base: root, encoding: false }).pipe(
		dest(path.join(root, 'dist')),
	);
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

async function dev() {
	const startedAt = Date.now();
	const { ensureDependencies, run } = await import('./scripts/ensure-deps.mjs');
	const { localStack, readyBanner, stopOnInterrupt } = await import('./scripts/local-stack.mjs');
	ensureDependencies();
	run('npm run -s build');
	const stack = localStack();
	// Ctrl-C stops n8n and the emulator, also while they start.
	const stopped = stopOnInterrupt(stack);
	try {
		await stack.start();
	} catch (error) {
		const interrupted = stack.stopRequested;
		await stack.stop();
		if (interrupted) return; // Ctrl-C during the start
		throw error;
	}
	// One rebuild at a time; changes made meanwhile make one more.
	const watcher = watch(
		['nodes/**/*', 'credentials/**/*'],
		{ cwd: root, delay: 300, queue: true, ignoreInitial: true },
		async function rebuild() {
			const changedAt = Date.now();
			console.log('\nA change under nodes/ or credentials/: rebuilding...');
			try {
				compile();
				await new Promise((resolve, reject) =>
					copyStaticFiles().on('finish', resolve).on('error', reject),
				);
			} catch (error) {
				console.log(`${error.message}: n8n keeps running the last build that compiled.`);
				return;
			}
			const builtAt = Date.now();
			console.log(`Built in ${seconds(builtAt - changedAt)}; restarting n8n...`);
			await stack.restartN8n();
			console.log(
				`n8n runs the change ${seconds(Date.now() - changedAt)} after it (restarted in ${seconds(Date.now() - builtAt)}): reload the editor page.`,
			);
		},
	);
	await new Promise((resolve) => watcher.once('ready', resolve));
	// The compiler's first run reads every file: made now, so that the first change is as quick as the next.
	try {
		compile();
	} catch (error) {
		console.log(`${error.message}: fix them, and n8n restarts with the fix.`);
	}
	console.log(
		readyBanner(stack, {
			startedAt,
			extra: [
				'Watching nodes/ and credentials/: a change is rebuilt and n8n restarted with',
				'it; reload the editor page to see it.',
			],
		}),
	);
	await stopped;
	await watcher.close();
}

exports.dev = dev;
