import type { Deviation, SourcedControl } from './report-model';
import type { SoftwareComponent } from '../contract/software-component';

/** The source the report gives a control of the framework's own (a plugin's controls carry the plugin's name). */
export const FRAMEWORK_SOURCE = '@fw/core';

/**
 * What the stack shows toward 6.3.2 (the inventory of software and its components) and 6.3.1 (vulnerabilities
 * identified and ranked): the bill of materials beside the report, and the synth-time comparison of the declared
 * components with the advisories recorded for them. Both support the requirement (its procedures examine the entity's
 * documentation and processes, which no template shows). `declared` are the plugin's own components
 * (`softwareComponents()`); `components` everything the bill lists.
 */
export function inventoryControls(components: SoftwareComponent[], declared: SoftwareComponent[], vulnerabilities: number): SourcedControl[] {
  if (components.length === 0) return [];
  return [{
    requirements: ['6.3.2'],
    statement: `The bill of materials beside this report lists the ${components.length} software components the stack deploys, ` +
      `with their versions: ${declared.length} the application declares, the rest the framework's images${declared.length ? '' : ' only'}.`,
    configuredIn: 'the CycloneDX bill of materials beside this report; the plugin\'s softwareComponents()',
    source: FRAMEWORK_SOURCE,
  }, ...declared.length ? [{
    requirements: ['6.3.1'],
    statement: `The declared components are compared at synth with the advisories recorded for them; ${vulnerabilities} deployed under ` +
      'one are listed in "Known vulnerabilities deployed", each with its severity, fixed release and acceptance.',
    configuredIn: 'the plugin\'s knownVulnerabilities(); the deployment\'s acceptedAdvisories',
    source: FRAMEWORK_SOURCE,
  }] : []];
}

/** An application that declares no software components of its own: a gap in 6.3.1 and 6.3.2 the report states. */
export function inventoryDeviations(plugin: string, stackName: string, declared: SoftwareComponent[]): Deviation[] {
  if (declared.length > 0) return [];
  const reason = `${plugin} declares no software components (softwareComponents()): the bill of materials lists only the ` +
    'framework\'s images, and no advisory is compared with what runs inside them; the inventory and the vulnerability ' +
    'identification for the application\'s software are the assessor\'s to examine by other means.';
  return ['6.3.1', '6.3.2'].map((requirement) => ({ requirement, rule: 'softwareComponents', resource: `${stackName}: ${plugin}`, reason }));
}
