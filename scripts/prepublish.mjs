// prepublishOnly: the package is published only by .github/workflows/publish.yml, from a version tag, with npm's
// trusted publishing and a provenance statement. Anywhere else (a laptop), `npm publish` stops here.
// (The project's .npmrc sets ignore-scripts, so a plain `npm publish` skips this script; it then fails on
// publishConfig.provenance, which only a CI provider with an OIDC token can give.)
import { readFileSync } from 'node:fs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const problems = [];
if (process.env.GITHUB_ACTIONS !== 'true' || !process.env.ACTIONS_ID_TOKEN_REQUEST_URL) {
	problems.push('it is not running in GitHub Actions with an OIDC token (publish.yml)');
}
if (process.env.GITHUB_REF_NAME !== `v${version}`) {
	problems.push(`the tag is "${process.env.GITHUB_REF_NAME ?? ''}", not v${version}`);
}
if (problems.length > 0) {
	console.error(
		`Not publishing: ${problems.join('; ')}.\nRelease by pushing a version tag: npm version patch && git push --follow-tags (see CONTRIBUTING.md, Releasing).`,
	);
	process.exit(1);
}
