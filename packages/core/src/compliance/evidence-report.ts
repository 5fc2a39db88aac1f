import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { attachCustomSynthesis, CfnResource, Stack, Stage, Token } from 'aws-cdk-lib';
import { NagRuleCompliance } from 'cdk-nag';
import { Construct, type IConstruct } from 'constructs';
import { acknowledgementFor, acknowledgementsOn } from './acknowledgements';
import { billOfMaterials } from './bill-of-materials';
import { type DerivedScope, derivedScope, derivedScopeStatement } from './derived-scope';
import { type DiagramFile, stackDiagrams } from './diagrams/diagram-files';
import type { DrawnStack } from './diagrams/graph-model';
import { renderMarkdown } from './evidence-markdown';
import { oscalAssessmentResults } from './oscal-assessment-results';
import { oscalComponentDefinition } from './oscal-component-definition';
import { PCI_DSS_MAPPING, PCI_DSS_VERSION } from './pci-dss-401/mapping';
import { PCI_DSS_401_PACK, PCI_DSS_401_RULES } from './pci-dss-401/pci-dss-401-rules';
import { RULE_IMPLEMENTATIONS } from './pci-dss-401/rule-implementations';
import { procedureCoverage } from './procedure-coverage';
import {
  type Applicability, type Coverage, type DeployedVulnerability, type Evaluation, type EvidenceReport, EXPOSED_REQUIREMENTS,
  type ReportedSystem, type SourcedControl,
} from './report-model';
import { PRINCIPAL_TITLES, RESPONSIBILITY, responsibilityOf } from './responsibility';
import { sourceDate } from './source-date';
import { sourceRevision } from './source-revision';
import { PciDssScope } from '../contract/pci-dss-scope';

/** What the report says first, and the reason it exists. */
export const REPORT_NOTICE = `This report supports, and does not replace, a PCI DSS v${PCI_DSS_VERSION} assessment: it lists what the ` +
  'synthesized template shows, what the application declares about itself, and what only AWS Config or the running ' +
  'system can confirm. A Qualified Security Assessor decides whether each requirement is in place.';

/** What the report says of each stated scope, and of none. */
const SCOPE_STATEMENTS: Record<PciDssScope | 'not stated', string> = {
  [PciDssScope.CDE]: 'You state that this application stores, processes or transmits account data: it is in the ' +
    'cardholder data environment, and every applicable requirement applies to it.',
  [PciDssScope.CONNECTED]: 'You state that this application is connected to the cardholder data environment or can ' +
    'affect its security (a build server that deploys into it is): the requirements apply to it as far as that access ' +
    'goes, and account data must not reach it.',
  [PciDssScope.OUT_OF_SCOPE]: 'You state that this application is segmented from the cardholder data environment: ' +
    'the segmentation is yours to show, and penetration tests must confirm it (11.4.5).',
  'not stated': 'Not stated: set the context key pciDssScope (CDE, CONNECTED or OUT_OF_SCOPE) on the application\'s ' +
    'deployment. A platform\'s stack, or one checked with Compliance.check, takes the role of what runs on it.',
};

/** The report's file name, without extension, beside `<stackName>.template.json`. */
export function reportBaseName(stack: Stack): string {
  return `${stack.stackName}.pci-dss-${PCI_DSS_VERSION}`;
}

const WRITER_ID = 'PciDssEvidenceReport';

/* eslint-disable @typescript-eslint/no-require-imports */
/** The versions the report names: read from the packages themselves, so they cannot drift from what ran. */
const AWS_CDK_LIB_VERSION: string = require('aws-cdk-lib/package.json').version;
const CDK_NAG_VERSION: string = require('cdk-nag/package.json').version;
const FRAMEWORK_VERSION: string = require('../../package.json').version;
/* eslint-enable @typescript-eslint/no-require-imports */

/** The construct that holds a stack's report: the controls of every application in the stack, and what applies. */
class EvidenceReportWriter extends Construct {
  public readonly controls: SourcedControl[] = [];
  public applicability?: Applicability;

  constructor(public readonly stack: Stack) {
    super(Stage.of(stack) ?? stack.node.root, writerId(stack));
    writeAfterEveryTemplate(this.node.scope!);
  }
}

function writerId(stack: Stack): string {
  return `${WRITER_ID}-${stack.node.path.replace(/\//g, '-')}`;
}

const HOOKED = new WeakSet<IConstruct>();

/**
 * The stage writes its stacks' reports once every template is in the cloud assembly: the tree is synthesised children
 * first, so the stage comes after all its stacks, and a platform's diagrams can draw the applications' stacks that
 * follow it. aws-cdk-lib's hook for adding files to the cloud assembly (not exposed through jsii) runs after
 * validation, so a stack with an open finding gets no report, as it gets no template.
 */
function writeAfterEveryTemplate(stage: IConstruct): void {
  if (HOOKED.has(stage)) return;
  HOOKED.add(stage);
  attachCustomSynthesis(stage, {
    onSynthesize: (session) => {
      const writers = stage.node.children.filter((c): c is EvidenceReportWriter => c instanceof EvidenceReportWriter);
      const assembly = assemblyTemplates(stage, session.outdir, writers);
      const diagrams = stackDiagrams(writers.map((w) => w.stack.stackName), assembly,
        { generatedAt: sourceDate().toISOString(), sourceRevision: sourceRevision() ?? 'not stated' });
      for (const writer of writers) {
        const name = writer.stack.stackName;
        const drawn = assembly.find((s) => s.stack === name);
        writeReport(writer, session.outdir, drawn?.templateSha256, diagrams.get(name) ?? [], derivedScope(name, assembly));
      }
    },
  });
}

/** Every stack of the stage whose template is in the assembly, with the scope its application states. */
function assemblyTemplates(stage: IConstruct, outdir: string, writers: EvidenceReportWriter[]): DrawnStack[] {
  const stacks = stage.node.findAll().filter((c): c is Stack => Stack.isStack(c) && (Stage.of(c) ?? c.node.root) === stage);
  return stacks.filter((s) => fs.existsSync(path.join(outdir, s.templateFile))).map((s) => {
    const text = fs.readFileSync(path.join(outdir, s.templateFile));
    const applicability = writers.find((w) => w.stack === s)?.applicability;
    return {
      stack: s.stackName,
      template: JSON.parse(text.toString('utf-8')),
      templateSha256: sha256(text),
      scope: applicability?.scope ?? 'not stated',
      ...applicability?.identityProvider ? { issuer: applicability.identityProvider } : {},
      ...applicability?.outboundConnections?.length ? { connections: applicability.outboundConnections } : {},
    };
  });
}

/** A stack's report, its bill of materials, its diagrams and the OSCAL documents, each file beside its template. */
function writeReport(writer: EvidenceReportWriter, outdir: string, templateSha256: string | undefined, diagrams: DiagramFile[],
  derived?: DerivedScope): void {
  const { stack, applicability } = writer;
  // The configuration as hashed, written beside the report so that anyone can recompute resolvedContextSha256.
  const configuration = applicability?.resolvedContext ? canonicalJson(applicability.resolvedContext) : undefined;
  const system = reportedSystem(stack, templateSha256, configuration);
  const bom = applicability?.components?.length ? billOfMaterials(system, applicability.components, applicability.knownVulnerabilities) : undefined;
  const diagramReferences = diagrams.map(({ title, file, text, requirement }) => ({ title, file, requirement, sha256: sha256(text) }));
  const report = {
    ...evidenceReport(stack, writer.controls, system, applicability, derived),
    ...bom ? { billOfMaterials: bom.reference } : {},
    ...diagramReferences.length ? { diagrams: diagramReferences } : {},
  };
  const written = [
    ...bom ? [{ title: 'The bill of materials (CycloneDX)', file: bom.reference.file, text: bom.text }] : [],
    ...configuration ? [{ title: 'The resolved configuration (canonical JSON)', file: system.resolvedContextFile!, text: configuration }] : [],
    ...diagrams,
    { title: 'The evidence report (JSON)', file: `${reportBaseName(stack)}.json`, text: JSON.stringify(report, undefined, 1) + '\n' },
    { title: 'The evidence report (Markdown)', file: `${reportBaseName(stack)}.md`, text: renderMarkdown(report) },
    {
      title: 'What the components implement (OSCAL component definition)',
      file: `${reportBaseName(stack)}.oscal-component-definition.json`,
      text: JSON.stringify(oscalComponentDefinition(report), undefined, 1) + '\n',
    },
  ];
  for (const { file, text } of written) fs.writeFileSync(path.join(outdir, file), text);
  const evidence = written.map(({ title, file, text }) => ({ title, file, sha256: sha256(text) }));
  fs.writeFileSync(path.join(outdir, `${reportBaseName(stack)}.oscal.json`), JSON.stringify(oscalAssessmentResults(report, evidence), undefined, 1) + '\n');
}

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

/** The stack's template in the cloud assembly, by its hash; the environment; the versions; the time; the configuration and source. */
function reportedSystem(stack: Stack, templateSha256 = 'not written', configuration?: string): ReportedSystem {
  // The template's hash from the assembly's one reading of it (assemblyTemplates).
  const generatedAt = sourceDate().toISOString();
  const resolvedOr = (value: string) => (Token.isUnresolved(value) ? 'resolved at deploy' : value);
  return {
    stack: stack.stackName,
    account: resolvedOr(stack.account),
    region: resolvedOr(stack.region),
    templateFile: stack.templateFile,
    templateSha256,
    versions: { framework: FRAMEWORK_VERSION, cdkNag: CDK_NAG_VERSION, awsCdkLib: AWS_CDK_LIB_VERSION },
    generatedAt,
    ...configuration ? { resolvedContextSha256: sha256(configuration), resolvedContextFile: `${reportBaseName(stack)}.resolved-configuration.json` } : {},
    sourceRevision: sourceRevision() ?? 'not stated',
  };
}

/** JSON with every object's keys sorted, so the same configuration hashes the same whatever order it was built in. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_, v) => (v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v));
}

/**
 * Writes `<stackName>.pci-dss-4.0.1.md` and `.json` into the cloud assembly when the stack is synthesized.
 * `applicability` is the application's (one application a stack); without it the report says it was not stated.
 */
export function attachEvidenceReport(stack: Stack, controls: SourcedControl[], applicability?: Applicability): void {
  const stage = Stage.of(stack) ?? stack.node.root;
  const writer = stage.node.tryFindChild(writerId(stack)) as EvidenceReportWriter | undefined ?? new EvidenceReportWriter(stack);
  writer.controls.push(...controls);
  writer.applicability = applicability ?? writer.applicability;
}

/**
 * The evidence for every requirement the stack's resources or its plugin's controls touch, or a Config rule of AWS's
 * pack can see after deployment; appendix A1 only for a multi-tenant service provider.
 */
export function evidenceReport(stack: Stack, controls: SourcedControl[], system: ReportedSystem, applicability?: Applicability,
  derived?: DerivedScope): EvidenceReport {
  const resources = stack.node.findAll().filter(CfnResource.isCfnResource);
  const evaluations = resources.flatMap((node) => PCI_DSS_401_RULES.flatMap((rule) => evaluate(node, rule)));
  const types = new Set(resources.map((r) => r.cfnResourceType));
  // A Config rule graded none under a requirement (grades.tsv) evaluates nothing it asks: not listed under it.
  const afterDeploy = PCI_DSS_MAPPING.rules.filter((r) => r.check.kind === 'after-deploy' &&
    (r.resourceTypes.length === 0 || r.resourceTypes.some((t) => types.has(t))))
    .map((r) => ({ ...r, requirements: r.requirements.filter((q) => PCI_DSS_MAPPING.grades[r.configRule]?.[q]?.grade !== 'none') }));
  const a1Applies = applicability?.multiTenantProvider === true;
  const exposures = applicability?.knownVulnerabilities ?? [];
  // AWS Config evaluates the after-deploy rules only where AWS's conformance pack is deployed: here, or by the platform.
  const evaluated = types.has('AWS::Config::ConformancePack') || applicability?.conformancePackElsewhere === true;
  const listed = new Set([...evaluations.flatMap((e) => e.requirements), ...controls.flatMap((c) => c.requirements),
    ...afterDeploy.flatMap((r) => r.requirements), ...exposures.length ? EXPOSED_REQUIREMENTS : []].filter((r) => a1Applies || !r.startsWith('A1')));
  const requirements = [...listed].sort(byNumber).map((requirement) => {
    const found: Evaluation[] = evaluations.filter((e) => e.requirements.includes(requirement)).map(({ requirements: _, name, ...e }) => {
      const { grade, reason, procedures } = PCI_DSS_MAPPING.grades[name][requirement];
      return { ...e, grade, gradeReason: reason, procedures };
    });
    const declared = controls.filter((c) => c.requirements.includes(requirement));
    const configRules = afterDeploy.filter((r) => r.requirements.includes(requirement)).map((r) => r.configRule);
    const undermined = exposures.filter((v) => v.underminesRequirements?.includes(requirement)).map((v) => v.id);
    const earned = procedureCoverage(requirement, found, declared, configRules, evaluated, undermined);
    const { coverage, coverageBy } = EXPOSED_REQUIREMENTS.includes(requirement) && exposures.length ? exposed(exposures) : earned;
    return { requirement, coverage, coverageBy, evaluations: found, controls: declared, afterDeploy: configRules, procedures: earned.procedures };
  });
  const scope = applicability?.scope ?? 'not stated';
  return {
    standard: `PCI DSS v${PCI_DSS_VERSION}`,
    stack: stack.stackName,
    system,
    scope: {
      stated: scope,
      ...derived ? { derived } : {},
      statement: derived ? derivedScopeStatement(derived) : SCOPE_STATEMENTS[scope],
      multiTenantProvider: applicability?.multiTenantProvider ?? 'not stated',
    },
    principals: Object.keys(RESPONSIBILITY).map((requirement) => ({
      requirement,
      title: PRINCIPAL_TITLES[requirement],
      ...principalApplicability(requirement, applicability),
      ...responsibilityOf(requirement, { signIn: applicability?.signIn }),
      evidencedRequirements: requirements.filter((r) => r.requirement.split('.')[0] === requirement).length,
    })),
    notice: REPORT_NOTICE,
    afterDeployment: afterDeployment(types, applicability?.conformancePackElsewhere === true),
    mapping: PCI_DSS_MAPPING.provenance,
    requirements,
    knownVulnerabilities: exposures,
    defaultCredentials: applicability?.defaultCredentials ?? [],
    outboundConnections: applicability?.outboundConnections ?? [],
    deviations: [...requirements.flatMap((r) => r.evaluations.filter((e) => e.result === 'acknowledged')
      .map((e) => ({ requirement: r.requirement, rule: e.rule, resource: e.resource, reason: e.reason! }))),
    ...applicability?.statedDeviations ?? []],
    acknowledgements: stack.node.findAll().flatMap((c) => acknowledgementsOn(c).map(([rule, reason]) => ({ resource: c.node.path, rule, reason }))),
  };
}

type RuleEvaluation = Omit<Evaluation, 'grade' | 'gradeReason' | 'procedures'> & { readonly name: string; readonly requirements: string[] };

/** What one rule finds on one resource, as cdk-nag would: nothing when the rule does not apply to it. */
function evaluate(node: CfnResource, rule: typeof PCI_DSS_401_RULES[number]): RuleEvaluation[] {
  let result: unknown;
  try {
    result = RULE_IMPLEMENTATIONS[rule.name](node);
  } catch {
    result = NagRuleCompliance.NON_COMPLIANT; // cdk-nag counts a rule that throws as a finding
  }
  if (result === NagRuleCompliance.NOT_APPLICABLE) return [];
  const passes = result === NagRuleCompliance.COMPLIANT || (Array.isArray(result) && result.length === 0);
  const id = `${PCI_DSS_401_PACK}-${rule.name}`;
  const reason = passes ? undefined : acknowledgementFor(node, id);
  return [{
    rule: id,
    resource: node.node.path,
    type: node.cfnResourceType,
    checks: rule.checks,
    result: passes ? 'passes' : reason ? 'acknowledged' : 'fails',
    ...(reason ? { reason } : {}),
    name: rule.name,
    requirements: rule.requirements,
  }];
}

/** A requirement a known vulnerability leaves `exposed`, whatever else the report shows toward it. */
function exposed(vulnerabilities: DeployedVulnerability[]): { coverage: Coverage; coverageBy: string } {
  const listed = vulnerabilities.map((v) => `${v.id} (${v.component} ${v.version}, ${v.severity}, ${v.accepted ? 'accepted' : 'not accepted'})`);
  return {
    coverage: 'exposed',
    coverageBy: `the ${vulnerabilities.length} published advisories against what this stack deploys: ${listed.join(', ')}. Each is ` +
      'listed under known vulnerabilities with its acceptance; whatever else is shown toward this requirement does not outweigh them.',
  };
}

/** Whether this stack (its resource `types`) deploys the conformance pack and enables Security Hub's standard. */
function afterDeployment(types: ReadonlySet<string>, packOnPlatform: boolean): EvidenceReport['afterDeployment'] {
  const elsewhere = (key: string) => `Not in this stack: set ${key} on the platform, or on one stack of the account and region.`;
  const evaluates = 'AWS Config evaluates the rules each requirement lists as after deployment.';
  return {
    configConformancePack: types.has('AWS::Config::ConformancePack') ? `This stack deploys AWS's PCI DSS 4.0 conformance pack: ${evaluates}`
      : packOnPlatform ? `Its platform deploys AWS's PCI DSS 4.0 conformance pack: ${evaluates}` : elsewhere('pciConformancePack'),
    securityHubStandard: types.has('AWS::SecurityHub::Standard')
      ? 'This stack enables Security Hub\'s PCI DSS v4.0.1 standard: its controls evaluate the deployed account. Which ' +
        'requirement each control relates to is in Security Hub, not in this report (no version of AWS\'s table was at hand to derive).'
      : elsewhere('securityHubPciDss'),
  };
}

/**
 * Whether a principal requirement applies: 1 to 12 always; A1 to a multi-tenant service provider, as the user stated;
 * A2 to card-present terminals on SSL or early TLS, which nothing here deploys; A3 to an entity a payment brand or
 * acquirer designates, which nothing here states, so neither is printed as applying.
 */
function principalApplicability(requirement: string, applicability?: Applicability): { applicable: boolean; applicability: string } {
  if (requirement === 'A2') {
    return { applicable: false, applicability: 'Not to what this stack deploys (TLS 1.2 or later only); to you only for card-present POS POI terminals on SSL or early TLS.' };
  }
  if (requirement === 'A3') {
    return { applicable: false, applicability: 'Only if a payment brand or acquirer designates you, which nothing here states; its requirements below are listed for that case.' };
  }
  if (requirement !== 'A1') return { applicable: true, applicability: 'Applies to every entity.' };
  if (applicability?.multiTenantProvider) {
    return { applicable: true, applicability: 'Applies: you state that you are a multi-tenant service provider (pciDssMultiTenantProvider).' };
  }
  return {
    applicable: false,
    applicability: applicability?.multiTenantProvider === false
      ? 'Does not apply: you state that you are not a multi-tenant service provider (pciDssMultiTenantProvider false).'
      : 'Not listed: whether you are a multi-tenant service provider was not stated (pciDssMultiTenantProvider).',
  };
}

/** 1.2.5 < 1.10 < 10.3.1 < A1.1.2. */
function byNumber(a: string, b: string): number {
  const key = (r: string) => r.split('.').map((p) => (p.startsWith('A') ? 100 + Number(p.slice(1)) : Number(p)));
  const [x, y] = [key(a), key(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? -1) !== (y[i] ?? -1)) return (x[i] ?? -1) - (y[i] ?? -1);
  return 0;
}
