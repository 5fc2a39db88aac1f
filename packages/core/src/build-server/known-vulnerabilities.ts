import * as fs from 'fs';
import * as path from 'path';
import { JENKINS_CODE_DIR } from './compliance-jobs';
import { JENKINS_CORE, JENKINS_PLUGIN_CLOSURE, JENKINS_PLUGINS, PINS_UNDER_ADVISORY } from './versions';
import type { KnownVulnerability } from '../contract/known-vulnerability';

/** Severity and fixed release of each advisory against a pin (`jenkins/advisories/exposure.json`, from the advisories). */
interface Exposure { readonly advisories: Record<string, { readonly advisory: string; readonly severity: string; readonly fixedIn: string }> }

/**
 * The build server's known vulnerabilities: every advisory of `PINS_UNDER_ADVISORY` with the pinned version it is
 * against, its severity and the release that fixes it.
 */
export function jenkinsKnownVulnerabilities(): KnownVulnerability[] {
  const exposure: Exposure = JSON.parse(fs.readFileSync(path.join(JENKINS_CODE_DIR, 'advisories', 'exposure.json'), 'utf-8'));
  const pins = new Map([JENKINS_CORE, ...JENKINS_PLUGINS, ...JENKINS_PLUGIN_CLOSURE].map((p) => [p === JENKINS_CORE ? 'core' : p.id, p.version]));
  return PINS_UNDER_ADVISORY.flatMap(({ component, advisories, undermines }) => advisories.map((id) => ({
    id,
    // Named as the bill of materials lists it (jenkinsSoftwareComponents).
    component: component === 'core' ? JENKINS_CORE.id : component,
    version: pins.get(component)!,
    // The advisory's page on jenkins.io, named by its date (exposure.json's sources: content/security/advisory/DATE.adoc).
    url: `https://www.jenkins.io/security/advisory/${exposure.advisories[id].advisory}/`,
    severity: exposure.advisories[id].severity,
    fixedIn: exposure.advisories[id].fixedIn,
    ...undermines ? { underminesRequirements: [...undermines] } : {},
  })));
}
