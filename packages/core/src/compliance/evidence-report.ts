import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { attachCustomSynthesis, CfnResource, Stack, Stage, Token } from 'aws-cdk-lib';
import { NagRuleCompliance } from 'cdk-nag';
import { Construct } from 'constructs';
import { acknowledgementFor, acknowledgementsOn } from './acknowledgements';
import { PCI_DSS_MAPPING, PCI_DSS_VERSION } from './pci-dss-401/mapping';
import { PCI_DSS_401_PACK } from './pci-dss-401/pci-dss-401-checks';
import { PCI_DSS_401_RULES, RULE_IMPLEMENTATIONS } from './pci-dss-401/pci-dss-401-rules';
import { RESPONSIBILITY, type Responsibility } from './responsibility';
import type { ComplianceControl } from '../contract/compliance-control';

/** What the report says first, and the reason it exists. */
export const REPORT_NOTICE = `This report supports, and does not replace, a PCI DSS v${PCI_DSS_VERSION} assessment: it lists what the ` +
  'synthesized template shows, what the application declares about itself, and what only AWS Config or the running ' +
  'system can confirm. A Qualified Security Assessor decides whether each requirement is in place.';

/** The principal requirements' titles (PCI DSS v4.0.1), which head the report's sections. */
const PRINCIPAL: Record<string, string> = {
  1: 'Install and maintain network security controls',
  2: 'Apply secure configurations to all system components',
  3: 'Protect stored account data',
  4: 'Protect cardholder data with strong cryptography during transmission over open, public networks',
  5: 'Protect all systems and networks from malicious software',
  6: 'Develop and maintain secure systems and software',
  7: 'Restrict access to system components and cardholder data by business need to know',
  8: 'Identify users and authenticate access to system components',
  9: 'Restrict physical access to cardholder data',
  10: 'Log and monitor all access to system components and cardholder data',
  11: 'Test security of systems and networks regularly',
  12: 'Support information security with organizational policies and programs',
  A1: 'Additional requirements for multi-tenant service providers',
  A3: 'Designated entities supplemental validation',
};

/** A control as the report lists it: declared by a plugin, with the plugin's name. */
export interface SourcedControl extends ComplianceControl {
  readonly source: string;
}

/** One resource a rule looked at, and what it found. */
export interface Evaluation {
  readonly rule: string;
  readonly resource: string;
  readonly type: string;
  /**
   * What the rule found on the resource: `passes`, `acknowledged` (it fails, with the reason accepted), or `fails`
   * (synth fails). A rule that passes shows what the template says, not that a requirement is met.
   */
  readonly result: 'passes' | 'acknowledged' | 'fails';
  readonly checks: string;
  readonly reason?: string;
}

export interface RequirementEvidence {
  readonly requirement: string;
  readonly evaluations: Evaluation[];
  readonly controls: SourcedControl[];
  /** AWS Config rules of AWS's pack for this requirement that only see the deployed account (on its resource types). */
  readonly afterDeploy: string[];
}

/** Which system the report is about: the template as written in the cloud assembly, and what judged it. */
export interface ReportedSystem {
  readonly stack: string;
  /** The account and region, or `resolved at deploy` for an environment-agnostic stack. */
  readonly account: string;
  readonly region: string;
  /** The template's file in the cloud assembly and the SHA-256 of its bytes there. */
  readonly templateFile: string;
  readonly templateSha256: string;
  /** The versions of what built and checked the template. */
  readonly versions: { readonly framework: string; readonly cdkNag: string; readonly awsCdkLib: string };
  /** When the report was written (ISO 8601): `SOURCE_DATE_EPOCH` when set, for reproducible builds. */
  readonly generatedAt: string;
}

/** One principal requirement: who answers for it, and how many of its requirements this report has evidence for. */
export interface PrincipalRequirement extends Responsibility {
  readonly requirement: string;
  readonly title: string;
  /** The requirements under it that the stack's resources or the plugin's controls touch (listed below in the report). */
  readonly evidencedRequirements: number;
}

export interface EvidenceReport {
  readonly standard: string;
  readonly stack: string;
  readonly system: ReportedSystem;
  /** Every principal requirement, 1 to 12 and A1, with who answers for it: none is silently missing. */
  readonly principals: PrincipalRequirement[];
  readonly notice: string;
  readonly mapping: typeof PCI_DSS_MAPPING.provenance;
  readonly requirements: RequirementEvidence[];
  /** Every acknowledgement in the stack, of every pack, with its reason. */
  readonly acknowledgements: { readonly resource: string; readonly rule: string; readonly reason: string }[];
}

/** The report's file name, without extension, beside `<stackName>.template.json`. */
export function reportBaseName(stack: Stack): string {
  return `${stack.stackName}.pci-dss-${PCI_DSS_VERSION}`;
}

const WRITER_ID = 'PciDssEvidenceReport';

/* eslint-disable @typescript-eslint/no-require-imports */
/** The versions the report names: read from the packages themselves, so they cannot drift from what ran. */
const FRAMEWORK_VERSION: string = require('../../package.json').version;
const CDK_NAG_VERSION: string = require('cdk-nag/package.json').version;
const AWS_CDK_LIB_VERSION: string = require('aws-cdk-lib/package.json').version;
/* eslint-enable @typescript-eslint/no-require-imports */

/** The construct that writes a stack's report, holding the controls of every application in the stack. */
class EvidenceReportWriter extends Construct {
  public readonly controls: SourcedControl[] = [];

  /**
   * A child of the stack's stage, added after the stack: the tree is synthesised children first and in order, so the
   * stack's template is in the cloud assembly when the report is written, and the report can name its hash.
   */
  constructor(stack: Stack) {
    super(Stage.of(stack) ?? stack.node.root, writerId(stack));
    // aws-cdk-lib's hook for adding files to the cloud assembly (not exposed through jsii); it runs after validation,
    // so a stack with an open finding gets no report, as it gets no template.
    attachCustomSynthesis(this, {
      onSynthesize: (session) => {
        const report = evidenceReport(stack, this.controls, reportedSystem(stack, session.outdir));
        const base = path.join(session.outdir, reportBaseName(stack));
        fs.writeFileSync(`${base}.json`, JSON.stringify(report, undefined, 1) + '\n');
        fs.writeFileSync(`${base}.md`, renderMarkdown(report));
      },
    });
  }
}

function writerId(stack: Stack): string {
  return `${WRITER_ID}-${stack.node.path.replace(/\//g, '-')}`;
}

/** The stack's template in the cloud assembly, hashed; the environment; the versions; the time. */
function reportedSystem(stack: Stack, outdir: string): ReportedSystem {
  const templatePath = path.join(outdir, stack.templateFile);
  const templateSha256 = fs.existsSync(templatePath) ? createHash('sha256').update(fs.readFileSync(templatePath)).digest('hex') : 'not written';
  const epoch = process.env.SOURCE_DATE_EPOCH;
  const generatedAt = (epoch && /^\d+$/.test(epoch) ? new Date(Number(epoch) * 1000) : new Date()).toISOString();
  const resolvedOr = (value: string) => (Token.isUnresolved(value) ? 'resolved at deploy' : value);
  return {
    stack: stack.stackName,
    account: resolvedOr(stack.account),
    region: resolvedOr(stack.region),
    templateFile: stack.templateFile,
    templateSha256,
    versions: { framework: FRAMEWORK_VERSION, cdkNag: CDK_NAG_VERSION, awsCdkLib: AWS_CDK_LIB_VERSION },
    generatedAt,
  };
}

/** Writes `<stackName>.pci-dss-4.0.1.md` and `.json` into the cloud assembly when the stack is synthesized. */
export function attachEvidenceReport(stack: Stack, controls: SourcedControl[]): void {
  const stage = Stage.of(stack) ?? stack.node.root;
  const writer = stage.node.tryFindChild(writerId(stack)) as EvidenceReportWriter | undefined ?? new EvidenceReportWriter(stack);
  writer.controls.push(...controls);
}

/** The evidence for every requirement the stack's resources or its plugin's controls touch. */
export function evidenceReport(stack: Stack, controls: SourcedControl[], system: ReportedSystem): EvidenceReport {
  const resources = stack.node.findAll().filter(CfnResource.isCfnResource);
  const evaluations: (Evaluation & { requirements: string[] })[] = [];
  for (const node of resources) {
    for (const rule of PCI_DSS_401_RULES) {
      let result: unknown;
      try {
        result = RULE_IMPLEMENTATIONS[rule.name](node);
      } catch {
        result = NagRuleCompliance.NON_COMPLIANT; // cdk-nag counts a rule that throws as a finding
      }
      if (result === NagRuleCompliance.NOT_APPLICABLE) continue;
      const met = result === NagRuleCompliance.COMPLIANT || (Array.isArray(result) && result.length === 0);
      const id = `${PCI_DSS_401_PACK}-${rule.name}`;
      const reason = met ? undefined : acknowledgementFor(node, id);
      evaluations.push({
        rule: id,
        resource: node.node.path,
        type: node.cfnResourceType,
        checks: rule.checks,
        result: met ? 'passes' : reason ? 'acknowledged' : 'fails',
        ...(reason ? { reason } : {}),
        requirements: rule.requirements,
      });
    }
  }
  const types = new Set(resources.map((r) => r.cfnResourceType));
  const touched = new Set([...evaluations.flatMap((e) => e.requirements), ...controls.flatMap((c) => c.requirements)]);
  const requirements = [...touched].sort(byNumber).map((requirement) => ({
    requirement,
    evaluations: evaluations.filter((e) => e.requirements.includes(requirement)).map(({ requirements: _, ...e }) => e),
    controls: controls.filter((c) => c.requirements.includes(requirement)),
    afterDeploy: PCI_DSS_MAPPING.rules.filter((r) => r.check.kind === 'after-deploy' && r.requirements.includes(requirement) &&
      (r.resourceTypes.length === 0 || r.resourceTypes.some((t) => types.has(t)))).map((r) => r.configRule),
  }));
  return {
    standard: `PCI DSS v${PCI_DSS_VERSION}`,
    stack: stack.stackName,
    system,
    principals: Object.entries(RESPONSIBILITY).map(([requirement, responsibility]) => ({
      requirement,
      title: PRINCIPAL[requirement],
      ...responsibility,
      evidencedRequirements: requirements.filter((r) => r.requirement.split('.')[0] === requirement).length,
    })),
    notice: REPORT_NOTICE,
    mapping: PCI_DSS_MAPPING.provenance,
    requirements,
    acknowledgements: stack.node.findAll().flatMap((c) => acknowledgementsOn(c).map(([rule, reason]) => ({ resource: c.node.path, rule, reason }))),
  };
}

/** 1.2.5 < 1.10 < 10.3.1 < A1.1.2. */
function byNumber(a: string, b: string): number {
  const key = (r: string) => r.split('.').map((p) => (p.startsWith('A') ? 100 + Number(p.slice(1)) : Number(p)));
  const [x, y] = [key(a), key(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? -1) !== (y[i] ?? -1)) return (x[i] ?? -1) - (y[i] ?? -1);
  return 0;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The same report for people: one section per principal requirement, one table per requirement. */
export function renderMarkdown(report: EvidenceReport): string {
  const lines = [
    `# ${report.standard} evidence: ${report.stack}`, '', `> ${report.notice}`, '',
    `System: stack ${report.system.stack}, account ${report.system.account}, region ${report.system.region}; template ` +
    `\`${report.system.templateFile}\` (SHA-256 ${report.system.templateSha256}); @fw/core ${report.system.versions.framework}, ` +
    `cdk-nag ${report.system.versions.cdkNag}, aws-cdk-lib ${report.system.versions.awsCdkLib}; written ${report.system.generatedAt}.`, '',
    `Rules: PciDss401Checks, after AWS's conformance pack \`${report.mapping.file}\` (${report.mapping.repository} ` +
    `${report.mapping.commit.slice(0, 12)}) and the requirement mapping at ${report.mapping.requirementsFrom}.`, '',
  ];
  lines.push('## Who answers for each principal requirement', '',
    '| Requirement | The template and configuration | You | AWS or the identity provider | Requirements with evidence below |', '|---|---|---|---|---|');
  for (const p of report.principals) {
    lines.push(`| ${p.requirement}: ${cell(p.title)} | ${cell(p.framework)} | ${cell(p.customer)} | ${cell(p.others ?? '-')} | ${p.evidencedRequirements} |`);
  }
  lines.push('');
  let principal = '';
  for (const r of report.requirements) {
    const head = r.requirement.split('.')[0];
    if (head !== principal) {
      principal = head;
      lines.push(`## Requirement ${head}: ${PRINCIPAL[head] ?? ''}`, '');
    }
    lines.push(`### ${r.requirement}`, '');
    if (r.evaluations.length) {
      lines.push('| Resource | Type | Rule | Checks | Result |', '|---|---|---|---|---|');
      for (const e of r.evaluations) {
        lines.push(`| ${cell(e.resource)} | ${e.type} | ${e.rule} | ${cell(e.checks)} | ${e.result}${e.reason ? `: ${cell(e.reason)}` : ''} |`);
      }
      lines.push('');
    }
    for (const c of r.controls) lines.push(`- Application control (${c.source}): ${c.statement} Configured in: ${c.configuredIn}.`);
    if (r.afterDeploy.length) lines.push(`- Only AWS Config, after deployment, can confirm: ${r.afterDeploy.join(', ')}.`);
    if (r.controls.length || r.afterDeploy.length) lines.push('');
  }
  lines.push('## Every acknowledgement in the stack', '', '| Resource | Rule | Reason |', '|---|---|---|');
  for (const a of report.acknowledgements) lines.push(`| ${cell(a.resource)} | ${a.rule} | ${cell(a.reason)} |`);
  return lines.join('\n') + '\n';
}
