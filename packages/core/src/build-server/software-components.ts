import { JENKINS_CORE, JENKINS_PLUGIN_CLOSURE, JENKINS_PLUGINS, PLUGIN_MANAGER_VERSION } from './versions';
import { type SoftwareComponent, SoftwareComponentType } from '../contract/software-component';

/**
 * What the build server installs, for its bill of materials: Jenkins core (the image's and the EC2 package's release),
 * every plugin pinned (those named and the ones they require) and the plugin installation manager. A plugin's Maven
 * group differs from plugin to plugin, so plugins carry no package URL.
 */
export function jenkinsSoftwareComponents(): SoftwareComponent[] {
  return [
    {
      name: JENKINS_CORE.id,
      version: JENKINS_CORE.version,
      type: SoftwareComponentType.APPLICATION,
      purl: `pkg:maven/org.jenkins-ci.main/jenkins-war@${JENKINS_CORE.version}`,
    },
    ...[...JENKINS_PLUGINS, ...JENKINS_PLUGIN_CLOSURE].map((p) => ({ name: p.id, version: p.version, type: SoftwareComponentType.LIBRARY })),
    { name: 'jenkins-plugin-manager', version: PLUGIN_MANAGER_VERSION, type: SoftwareComponentType.APPLICATION },
  ];
}
