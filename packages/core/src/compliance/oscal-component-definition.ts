import { FRAMEWORK_SOURCE } from './inventory-controls';
import { nameUuid, OSCAL_VERSION, oscalControlId, prop } from './oscal-assessment-results';
import type { EvidenceReport, RequirementEvidence, SourcedControl } from './report-model';
import { gradeOf } from '../contract/compliance-control';

/** Who answers for a principal requirement (report-model's Responsibility), as OSCAL roles. */
const RESPONSIBLE_ROLES = [
  { id: 'template', title: 'The template and configuration', description: 'What the synthesised template and the plugin\'s configuration give.' },
  { id: 'entity', title: 'The assessed entity', description: 'What only the entity that deploys the stack can do or show.' },
  { id: 'provider', title: 'AWS or the identity provider', description: 'Physical and infrastructure controls, and sign-in where a provider runs it.' },
];

/**
 * What the stack's components implement toward PCI DSS v4.0.1, as an OSCAL component definition for assessors' tools:
 * the framework (each requirement with the rules that check it in the template, and who answers for its principal
 * requirement: the template, you, AWS or the identity provider) and each plugin (its declared controls). It states
 * what a component is built to do, not that a requirement is met; the assessment results say what this template shows.
 */
export function oscalComponentDefinition(report: EvidenceReport): object {
  const { system } = report;
  const id = (name: string) => nameUuid(`${system.stack}/component-definition/${name}`);
  const standard = id('standard');
  const principal = (requirement: string) => report.principals.find((p) => p.requirement === requirement.split('.')[0]);
  const ours = (r: RequirementEvidence) => r.controls.filter((c) => c.source === FRAMEWORK_SOURCE);
  // What the framework implements: a requirement its checks or its own controls earn something toward; one they earn
  // nothing toward (`not-addressed`: every check graded none, or failing) is no implementation, and is left out.
  const checked = report.requirements.filter((r) => (r.evaluations.length > 0 || ours(r).length > 0) && r.coverage !== 'not-addressed');
  const framework = {
    'uuid': id('framework'),
    'type': 'software',
    'title': `@fw/core ${system.versions.framework}`,
    'description': 'The framework that synthesised the template: the network, load balancer, storage, keys and monitoring it ' +
      `builds, checked at synth by PciDss401Checks (cdk-nag ${system.versions.cdkNag}).`,
    'props': [prop('template-sha256', system.templateSha256)],
    'control-implementations': [{
      'uuid': id('framework/implementation'),
      'source': `#${standard}`,
      'description': 'Requirements the template\'s resources are checked against at synth, with the rules that check them.',
      'implemented-requirements': checked.map((r) => {
        const answers = principal(r.requirement);
        return {
          'uuid': id(`framework/${r.requirement}`),
          'control-id': oscalControlId(r.requirement),
          'description': [...new Set(r.evaluations.map((e) => `${e.rule}: ${e.checks}`)), ...ours(r).map((c) => `${c.statement} Configured in: ${c.configuredIn}.`)].join(' '),
          'props': [prop('coverage', r.coverage)],
          // Who answers for its principal requirement, as data: each role with what it answers for.
          'responsible-roles': [
            { 'role-id': 'template', 'remarks': answers!.framework },
            { 'role-id': 'entity', 'remarks': answers!.customer },
            ...answers!.others ? [{ 'role-id': 'provider', 'remarks': answers!.others }] : [],
          ],
        };
      }),
    }],
  };
  const sources = [...new Set(report.requirements.flatMap((r) => r.controls.map((c) => c.source)))].filter((s) => s !== FRAMEWORK_SOURCE);
  const plugins = sources.map((source) => {
    const controls = report.requirements.flatMap((r) => r.controls.filter((c) => c.source === source)
      .map((c) => [r.requirement, c] as [string, SourcedControl]));
    return {
      'uuid': id(`plugin/${source}`),
      'type': 'software',
      'title': source,
      'description': `The plugin ${source}: the controls it declares (complianceControls()), which no template shows.`,
      'control-implementations': [{
        'uuid': id(`plugin/${source}/implementation`),
        'source': `#${standard}`,
        'description': `Controls ${source} declares, each with where it is configured.`,
        'implemented-requirements': controls.map(([requirement, c], i) => ({
          'uuid': id(`plugin/${source}/${requirement}/${i}`),
          'control-id': oscalControlId(requirement),
          'description': `${c.statement} Configured in: ${c.configuredIn}.`,
          'props': [prop('grade', gradeOf(c))],
        })),
      }],
    };
  });
  return {
    'component-definition': {
      'uuid': nameUuid(`${system.stack}/component-definition`),
      'metadata': {
        'title': `What the components of ${report.stack} implement toward ${report.standard}`,
        'last-modified': system.generatedAt,
        'version': `${system.versions.framework}+template.${system.templateSha256.slice(0, 12)}`,
        'oscal-version': OSCAL_VERSION,
        'roles': RESPONSIBLE_ROLES,
        'remarks': report.notice,
      },
      'components': [framework, ...plugins],
      'back-matter': { resources: [{ uuid: standard, title: report.standard, description: 'The standard the control ids name (pcidss-<requirement>).' }] },
    },
  };
}
