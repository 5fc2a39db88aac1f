import { createHash } from 'crypto';
import { type EvidenceReport, EXPOSED_REQUIREMENTS, type RequirementEvidence } from './report-model';
import { gradeOf } from '../contract/compliance-control';

/** The OSCAL version the document is written against: the models of compliance-trestle the tests validate it with. */
export const OSCAL_VERSION = '1.2.1';

/** The namespace of the properties the framework adds (coverage, grades, template hash): ours, not NIST's. */
export const OSCAL_NAMESPACE = 'urn:fw:pci-dss-evidence';

/** Fixed namespace of the name-based UUIDs below, so the same report always gives the same identifiers. */
const UUID_NAMESPACE = 'c5b4b0a6-6f1e-4f0e-9d8e-3a1b7c2d4e5f';

/** An RFC 4122 version-5 UUID of `name`: reproducible, as the report is under SOURCE_DATE_EPOCH. */
export function nameUuid(name: string): string {
  const namespace = Buffer.from(UUID_NAMESPACE.replace(/-/g, ''), 'hex');
  const hex = createHash('sha1').update(Buffer.concat([namespace, Buffer.from(name, 'utf-8')])).digest('hex').slice(0, 32);
  // The version digit is 5; the variant digit's two high bits are 10 (8, 9, a or b).
  const variant = (8 + (parseInt(hex[16], 16) % 4)).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20)}`;
}

/** A PCI DSS requirement as an OSCAL control id, which must start with a letter: `pcidss-10.5.1`. */
export function oscalControlId(requirement: string): string {
  return `pcidss-${requirement}`;
}

/** A property in the framework's namespace. */
export const prop = (name: string, value: string) => ({ name, ns: OSCAL_NAMESPACE, value });

/**
 * Text from configuration inside a sentence of an OSCAL markup field (Markdown, with `{{ insert: ... }}`): each
 * character inline syntax reads (emphasis, code, links, images, HTML, inserts, tables) gets a backslash, and a line
 * ending or control character becomes a space, so no block can start either.
 */
export const markupText = (text: string) => text.replace(/[\\`*_{}[\]!|<>~]/g, '\\$&').replace(/[\x00-\x1f\x7f]/g, ' ');

/** The inventory item of a resource a rule looked at, by its construct path. */
const itemUuid = (id: (name: string) => string, resource: string) => id(`resource/${resource}`);

/** A file the document cites as evidence, with the SHA-256 of its bytes (in the cloud assembly, beside the document). */
export interface HashedEvidence {
  readonly title: string;
  readonly file: string;
  readonly sha256: string;
}

/**
 * The evidence report as an OSCAL assessment-results document, for assessors' tools. It holds observations, one per
 * requirement, with its coverage and the results behind it, each made by examining the synthesised template
 * (`EXAMINE`: static analysis, nothing was run) and naming as its subjects the template and every resource a rule
 * looked at (inventory items of the result's local definitions); the template and the other files it
 * cites are back-matter resources with their SHA-256. Each known vulnerability is a risk. It holds no finding, since an
 * OSCAL finding states a requirement `satisfied` or `not-satisfied`, which is the assessor's conclusion, not the
 * template's. There is no assessment plan before an assessment: `import-ap` points at a back-matter resource that says
 * so. The document's id is the stack's: the same system keeps it from one synth to the next, and its version names the
 * template.
 */
export function oscalAssessmentResults(report: EvidenceReport, evidence: HashedEvidence[] = []): object {
  const { system } = report;
  const id = (name: string) => nameUuid(`${system.stack}/${system.templateSha256}/${name}`);
  const plan = id('assessment-plan');
  const template = id('evidence/template');
  const files = [{ title: 'The synthesised CloudFormation template', file: system.templateFile, sha256: system.templateSha256 }, ...evidence]
    .map((f, i) => ({ ...f, uuid: i === 0 ? template : id(`evidence/${f.file}`) }));
  // Every resource a rule looked at, as an inventory item an observation names as its subject.
  const resources = new Map(report.requirements.flatMap((r) => r.evaluations).map((e) => [e.resource, e.type]));
  return {
    'assessment-results': {
      'uuid': nameUuid(`${system.stack}/assessment-results`),
      'metadata': {
        'title': `${report.standard} evidence: ${report.stack}`,
        'last-modified': system.generatedAt,
        'version': `${system.versions.framework}+template.${system.templateSha256.slice(0, 12)}`,
        'oscal-version': OSCAL_VERSION,
        'props': [
          prop('stack', system.stack), prop('account', system.account), prop('region', system.region),
          prop('template-file', system.templateFile), prop('template-sha256', system.templateSha256),
          prop('cdk-nag-version', system.versions.cdkNag), prop('aws-cdk-lib-version', system.versions.awsCdkLib),
          prop('pci-dss-scope', report.scope.stated),
          ...report.scope.derived ? [prop('pci-dss-scope-derived', report.scope.derived.scope)] : [],
        ],
        'remarks': report.notice,
      },
      'import-ap': { href: `#${plan}`, remarks: 'No assessment plan: this is evidence from synth, before any assessment.' },
      'results': [{
        'uuid': id('result'),
        'title': `What the synthesised template of ${report.stack} and its application's declared controls show`,
        'description': `${report.notice} Scope: ${report.scope.stated}. ${report.scope.statement}`,
        'start': system.generatedAt,
        'local-definitions': {
          'components': [{
            uuid: id('tool'),
            type: 'software',
            title: `@fw/core ${system.versions.framework}'s evidence report`,
            description: `PciDss401Checks under cdk-nag ${system.versions.cdkNag}, run on the template aws-cdk-lib ${system.versions.awsCdkLib} synthesised.`,
            status: { state: 'operational' },
          }],
          'inventory-items': [...resources].map(([resource, type]) => ({
            uuid: itemUuid(id, resource),
            description: `${type} ${resource}, in the template of ${system.stack}`,
            props: [prop('resource-type', type), prop('construct-path', resource)],
          })),
        },
        'reviewed-controls': {
          'control-selections': [{ 'include-controls': report.requirements.map((r) => ({ 'control-id': oscalControlId(r.requirement) })) }],
        },
        'observations': observations(report, id, files),
        ...report.knownVulnerabilities.length ? { risks: risks(report, id) } : {},
      }],
      'back-matter': {
        resources: [{
          uuid: plan,
          title: 'No assessment plan',
          description: 'The report was written when the template was synthesised; an assessor\'s plan, when there is one, replaces this reference.',
        }, ...files.map((f) => ({
          uuid: f.uuid,
          title: f.title,
          rlinks: [{ href: f.file, hashes: [{ algorithm: 'SHA-256', value: f.sha256 }] }],
        }))],
      },
    },
  };
}

/**
 * One observation per requirement: its coverage and the results behind it, made by examining the template; its
 * subjects the template (`files[0]`) and every resource a rule looked at, as inventory items.
 */
function observations(report: EvidenceReport, id: (name: string) => string, files: (HashedEvidence & { uuid: string })[]): object[] {
  const { system } = report;
  return report.requirements.map((r) => ({
    'uuid': id(`observation/${r.requirement}`),
    'title': `${r.requirement}: ${r.coverage}`,
    'description': `Coverage ${r.coverage}, from ${r.coverageBy}`,
    'props': [prop('requirement', r.requirement), prop('coverage', r.coverage)],
    'methods': ['EXAMINE'],
    'types': [observationType(r)],
    'origins': [{ actors: [{ 'type': 'tool', 'actor-uuid': id('tool'), 'props': [prop('tool', `@fw/core ${system.versions.framework}, cdk-nag ${system.versions.cdkNag}`)] }] }],
    'subjects': [
      { 'subject-uuid': files[0].uuid, 'type': 'resource', 'title': `The template of ${system.stack}` },
      ...[...new Set(r.evaluations.map((e) => e.resource))].map((resource) => ({ 'subject-uuid': itemUuid(id, resource), 'type': 'inventory-item', 'title': resource })),
    ],
    'relevant-evidence': [
      ...r.evaluations.map((e) => ({
        description: `${e.rule} on ${e.resource} (${e.type}): ${e.result}${e.reason ? ` (${e.reason})` : ''}. Grade toward ${r.requirement}: ${e.grade}, ${e.gradeReason}`,
        props: [prop('result', e.result), prop('grade', e.grade)],
      })),
      ...r.controls.map((c) => ({ description: `Control of ${c.source} (${gradeOf(c)}): ${c.statement} Configured in: ${c.configuredIn}.` })),
      ...r.afterDeploy.length ? [{ description: `Only AWS Config, after deployment, can confirm: ${r.afterDeploy.join(', ')}.` }] : [],
      ...files.map((f) => ({ href: `#${f.uuid}`, description: `${f.title}: ${f.file}` })),
    ],
    'collected': system.generatedAt,
  }));
}

/**
 * What examining the template found toward a requirement, as OSCAL types observations: a `discovery` where the stack
 * deploys components under published advisories (`exposed`), a `finding` where a check fails on a resource (its
 * failure acknowledged or not), else the requirement's `control-objective` examined.
 */
function observationType(r: RequirementEvidence): 'discovery' | 'finding' | 'control-objective' {
  if (r.coverage === 'exposed') return 'discovery';
  return r.evaluations.some((e) => e.result !== 'passes') ? 'finding' : 'control-objective';
}

/** CVSS's qualitative severity ratings (Critical, High, Medium, Low), the scale advisories rate with. */
const CVSS_RATINGS = 'https://www.first.org/cvss/v3.1/specification-document';

/** Text, then `tail`, as one sentence: one full stop, whether or not the text ends with its own (the review's R12). */
function sentence(text: string, tail = ''): string {
  return `${text.replace(/\.+$/, '')}${tail}.`;
}

/**
 * Each known vulnerability as an OSCAL risk: open, or with its acceptance a deviation requested (an assessor approves
 * one, not the template); characterized by its publisher's severity; related to the observations of the requirements
 * it exposes, and due by the acceptance's `until` when it names one.
 */
function risks(report: EvidenceReport, id: (name: string) => string): object[] {
  return report.knownVulnerabilities.map((v) => ({
    'uuid': id(`risk/${v.id}`),
    'title': `${v.id}: ${v.component} ${v.version}`,
    'description': `${v.id}, a published advisory (${v.severity}) against ${v.component} ${v.version}, which this stack deploys; fixed in ${v.fixedIn}.`,
    // The statement is OSCAL markup (Markdown): the user's text is escaped, so it reads as written.
    'statement': v.accepted
      ? `Deployed under the acceptance given in acceptedAdvisories: ${sentence(markupText(v.accepted.reason), v.accepted.until ? ` (until ${v.accepted.until})` : '')}` +
        `${v.accepted.owner ? ` Accepted by ${sentence(markupText(v.accepted.owner))}` : ''}${v.accepted.reference ? ` Recorded in ${sentence(markupText(v.accepted.reference))}` : ''}`
      : 'Deployed without an acceptance (a profile that only warns).',
    // The publisher's rating, as the tool that wrote the report read it from the plugin's declaration.
    'characterizations': [{
      origin: { actors: [{ 'type': 'tool', 'actor-uuid': id('tool') }] },
      facets: [{ name: 'severity', system: CVSS_RATINGS, value: v.severity }],
    }],
    'props': [prop('advisory', v.id), prop('severity', v.severity), prop('component', v.component), prop('version', v.version),
      ...v.accepted?.owner ? [prop('acceptance-owner', v.accepted.owner)] : [],
      ...v.accepted?.reference ? [prop('acceptance-reference', v.accepted.reference)] : []],
    'status': v.accepted ? 'deviation-requested' : 'open',
    ...v.accepted?.until ? { deadline: `${v.accepted.until}T00:00:00Z` } : {},
    'related-observations': EXPOSED_REQUIREMENTS.filter((q) => report.requirements.some((r) => r.requirement === q))
      .map((q) => ({ 'observation-uuid': id(`observation/${q}`) })),
  }));
}
