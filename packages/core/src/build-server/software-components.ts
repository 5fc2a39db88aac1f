import * as fs from 'fs';
import * as path from 'path';
import { JENKINS_CODE_DIR } from './compliance-jobs';
import { JENKINS_CORE, JENKINS_PLUGIN_CLOSURE, JENKINS_PLUGINS, PLUGIN_MANAGER_URL, PLUGIN_MANAGER_VERSION } from './versions';
import { type SoftwareComponent, SoftwareComponentType } from '../contract/software-component';

/** What plugin-closure.json records of a plugin: its Maven group, packaging and the plugins it needs. */
interface ClosureEntry {
  readonly groupId: string;
  readonly packaging: string;
  readonly requires: Record<string, string>;
  readonly optional?: Record<string, string>;
}

/**
 * What the build server installs, for its bill of materials: Jenkins core (the image's and the EC2 package's release),
 * every plugin pinned (those named and the ones they require) and the plugin installation manager. Each plugin's
 * package URL and the plugins it needs come from its own pom.xml at its tag (jenkins/plugin-closure.json, derived by
 * tools/jenkins-closure/derive.js): its Maven group, its packaging, what it requires and the optional plugins that
 * are installed too, and Jenkins core, which runs it.
 */
export function jenkinsSoftwareComponents(): SoftwareComponent[] {
  const closure: Record<string, ClosureEntry> = JSON.parse(fs.readFileSync(path.join(JENKINS_CODE_DIR, 'plugin-closure.json'), 'utf-8')).plugins;
  const pinned = [...JENKINS_PLUGINS, ...JENKINS_PLUGIN_CLOSURE];
  const installed = new Set(pinned.map((p) => p.id));
  return [
    {
      name: JENKINS_CORE.id,
      version: JENKINS_CORE.version,
      type: SoftwareComponentType.APPLICATION,
      purl: `pkg:maven/org.jenkins-ci.main/jenkins-war@${JENKINS_CORE.version}?type=war`,
    },
    ...pinned.map((p) => {
      const { groupId, packaging, requires, optional } = closure[p.id];
      return {
        name: p.id,
        version: p.version,
        type: SoftwareComponentType.LIBRARY,
        purl: `pkg:maven/${groupId}/${p.id}@${p.version}?type=${packaging}`,
        dependsOn: [JENKINS_CORE.id, ...Object.keys({ ...requires, ...optional }).filter((id) => installed.has(id)).sort()],
      };
    }),
    {
      name: 'jenkins-plugin-manager',
      version: PLUGIN_MANAGER_VERSION,
      type: SoftwareComponentType.APPLICATION,
      // The CLI module's coordinates (plugin-management-cli/pom.xml at the tag); the JAR installed is its release asset.
      purl: `pkg:maven/io.jenkins.plugin-management/plugin-management-cli@${PLUGIN_MANAGER_VERSION}?download_url=${encodeURIComponent(PLUGIN_MANAGER_URL)}`,
    },
  ];
}
