// Debian packages the test stacks need (PostgreSQL, Redis, Chromium), installed with apt-get when missing.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';

const isRoot = () => userInfo().uid === 0;

export const hasCommand = (command) => {
	try {
		execSync(`command -v ${command}`, { stdio: 'ignore', shell: '/bin/sh' });
		return true;
	} catch {
		return false;
	}
};

/** Runs apt-get as root or through passwordless sudo; false when the machine does not allow it. */
export function aptInstall(packages) {
	if (!hasCommand('apt-get')) return false;
	let prefix = '';
	if (!isRoot()) {
		try {
			execSync('sudo -n true', { stdio: 'ignore' });
			prefix = 'sudo -n ';
		} catch {
			return false;
		}
	}
	console.log(`Installing ${packages.join(', ')} from Debian's packages...`);
	// Another run may be installing at the same time: wait for its lock rather than fail.
	const wait = '-o DPkg::Lock::Timeout=600';
	execSync(
		`${prefix}apt-get ${wait} update -qq && ${prefix}env DEBIAN_FRONTEND=noninteractive apt-get ${wait} install -y -qq ${packages.join(' ')}`,
		{ stdio: 'inherit', shell: '/bin/sh' },
	);
	return true;
}

const CHROMIUM = '/usr/bin/chromium';

/**
 * Debian's Chromium, for the browser suite (Playwright's own browser download needs the open internet).
 * Installs the `chromium` package when missing; throws when that is not possible.
 */
export function ensureChromium() {
	if (existsSync(CHROMIUM)) return CHROMIUM;
	let installed = false;
	try {
		installed = aptInstall(['chromium']);
	} catch (error) {
		throw new Error(
			`Chromium is not installed and apt-get could not install Debian's chromium package: ${error.message}`,
		);
	}
	if (!installed)
		throw new Error(
			`Chromium is not installed (${CHROMIUM}) and this machine cannot install Debian's chromium package with apt-get (needs apt-get and root or passwordless sudo)`,
		);
	if (!existsSync(CHROMIUM))
		throw new Error(`apt-get installed Debian's chromium package but ${CHROMIUM} is still missing`);
	return CHROMIUM;
}
