import * as fs from 'fs';
import * as path from 'path';
import { JENKINS_CORE, JENKINS_PLUGIN_CLOSURE, JENKINS_PLUGINS, PINS_UNDER_ADVISORY } from '../../src/build-server/versions';

/**
 * docs/build-server.md's table of the advisories against the pins: who can exploit each under the build server's
 * configuration and what narrows it, rendered from packages/core/jenkins/advisories/exposure.json. advisory-table.test.ts
 * checks the docs hold exactly this table and that every mitigation named holds in the rendered configuration. Run as
 * a script (from packages/core: `npx ts-node --transpile-only test/support/advisory-table.ts`), it rewrites the table.
 */
export const EXPOSURE = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'jenkins', 'advisories', 'exposure.json'), 'utf-8'));

/** What each mitigation key means, as the table says it (advisory-table.test.ts checks each on the configuration). */
export const MITIGATIONS: Record<string, string> = {
  'overall-read-named-groups': 'Overall/Read to the five named groups only',
  'csp-enforced': 'Content Security Policy enforced',
  'cli-websocket-off': 'no CLI over WebSocket',
  'waf-blocks-cli': 'the WAF blocks the CLI from outside (agents reach the controller directly)',
  'waf-blocks-xml-posts': 'the WAF blocks POSTs of config.xml and XML bodies from outside (agents reach the controller directly)',
  'remember-me-off': 'remember-me off',
  'force-sandbox-each-start': 'the sandbox forced for non-administrators, set again at every start',
  'compliance-scripts-own-job': 'each approved compliance script runs only in its own job',
  'no-library-cache': 'no library cache configured',
  'no-system-credentials': 'no SYSTEM-scoped credential configured',
};

export const TABLE_START = '<!-- advisory-table: generated from packages/core/jenkins/advisories/exposure.json by packages/core/test/support/advisory-table.ts -->';
export const TABLE_END = '<!-- advisory-table: end -->';

/** The table, one row an advisory, in PINS_UNDER_ADVISORY's order. */
export function advisoryTable(): string {
  const version = (component: string) => (component === 'core' ? JENKINS_CORE.version
    : [...JENKINS_PLUGINS, ...JENKINS_PLUGIN_CLOSURE].find((p) => p.id === component)!.version);
  const rows = PINS_UNDER_ADVISORY.flatMap(({ component, advisories }) => advisories.map((id) => {
    const a = EXPOSURE.advisories[id];
    const narrowed = a.narrowedBy.length ? a.narrowedBy.map((k: string) => MITIGATIONS[k]).join('; ') : 'nothing by configuration';
    return `| ${id} | ${component} ${version(component)} | ${a.severity} | ${a.fixedIn} | ${a.exploitableBy} | ${narrowed} |`;
  }));
  return ['| advisory | pinned | severity | fixed in | who can exploit it here | narrowed by |', '|---|---|---|---|---|---|', ...rows].join('\n');
}

/** The docs file whose table this is. */
export const DOC = path.join(__dirname, '..', '..', '..', '..', 'docs', 'build-server.md');

if (require.main === module) {
  const doc = fs.readFileSync(DOC, 'utf-8');
  const start = doc.indexOf(TABLE_START);
  const end = doc.indexOf(TABLE_END);
  if (start < 0 || end < 0) throw new Error(`${DOC} has no ${TABLE_START} ... ${TABLE_END}`);
  fs.writeFileSync(DOC, `${doc.slice(0, start + TABLE_START.length)}\n${advisoryTable()}\n${doc.slice(end)}`);
}
