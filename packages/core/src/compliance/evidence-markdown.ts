import { FRAMEWORK_SOURCE } from './inventory-controls';
import { type Coverage, COVERAGE_ORDER, type EvidenceReport } from './report-model';
import { PRINCIPAL_TITLES } from './responsibility';
import { gradeOf } from '../contract/compliance-control';
import { PLACEHOLDER_DIGEST } from '../contract/spec-validation';

// The evidence report as an assessor reads it (Markdown): the first page, the system, then each requirement's evidence.

/** What the diagrams show, and what is still the assessor's to verify (docs/pci-dss.md says the same). */
export const DIAGRAM_LIMITS = 'They show what the templates deploy and permit; the assessor still verifies that they match the ' +
  'running environment and every connection outside these stacks (on-premises networks, other accounts, the identity ' +
  'provider\'s side), and that the scope each deployment states (pciDssScope) is right.';

/**
 * Text as one GFM table cell: a backslash escaped first (so that `\|` stays text), then `|`; a line ending (CR or LF,
 * both end a CommonMark line) or another control character becomes a space.
 */
export const cell = (text: string) => text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/[\x00-\x1f\x7f]/g, ' ');

/**
 * The first page an assessor reads: per principal requirement, how many of its requirements reach each coverage, how
 * many deviations and exposures it has; the sections below give each one's evidence and what is left to test.
 */
function atAGlance(report: EvidenceReport): string[] {
  const columns: Coverage[] = ['exposed', ...[...COVERAGE_ORDER].reverse()];
  const lines = ['## At a glance', '', `| Requirement | ${columns.join(' | ')} | deviations |`, `|---|${columns.map(() => '---|').join('')}---|`];
  for (const p of report.principals) {
    const under = report.requirements.filter((r) => r.requirement.split('.')[0] === p.requirement);
    const deviations = report.deviations.filter((d) => d.requirement.split('.')[0] === p.requirement).length;
    lines.push(`| ${p.requirement} | ${columns.map((c) => under.filter((r) => r.coverage === c).length).join(' | ')} | ${deviations} |`);
  }
  lines.push('', `Known vulnerabilities deployed: ${report.knownVulnerabilities.length}; deviations: ${report.deviations.length}. ` +
    'A count is of requirements this report lists; none of them is a verdict.', '');
  return lines;
}

/** What the Markdown report says before its first table: the system, the rules, the bill of materials, scope, legend. */
function preamble(report: EvidenceReport): string[] {
  const lines = [
    `# ${report.standard} evidence: ${report.stack}`, '', `> ${report.notice}`, '',
    `System: stack ${report.system.stack}, account ${report.system.account}, region ${report.system.region}; template ` +
    `\`${report.system.templateFile}\` (SHA-256 ${report.system.templateSha256}); @fw/core ${report.system.versions.framework}, ` +
    `cdk-nag ${report.system.versions.cdkNag}, aws-cdk-lib ${report.system.versions.awsCdkLib}; written ${report.system.generatedAt}; ` +
    `resolved configuration SHA-256 ${report.system.resolvedContextSha256 ?? 'not named'}` +
    `${report.system.resolvedContextFile ? ` (\`${report.system.resolvedContextFile}\`)` : ''}; source revision ${report.system.sourceRevision}` +
    `${report.billOfMaterials?.placeholderDigests.length ? `; images not identified (a placeholder digest, all zeros, is no image's identity): ${report.billOfMaterials.placeholderDigests.map((d) => d.replace(`@${PLACEHOLDER_DIGEST}`, '')).join(', ')}` : ''}.`, '',
    `Rules: PciDss401Checks, after AWS's conformance pack \`${report.mapping.file}\` (${report.mapping.repository} ` +
    `${report.mapping.commit.slice(0, 12)}) and the requirement mapping at ${report.mapping.requirementsFrom}.`, '',
  ];
  const bom = report.billOfMaterials;
  if (bom) {
    lines.push(`Bill of materials (6.3.2): \`${bom.file}\` (CycloneDX, SHA-256 ${bom.sha256}), ${bom.components} components` +
      (bom.placeholderDigests.length ? `; ${bom.placeholderDigests.length} image(s) not identified (see System).` : '.'), '');
  }
  if (report.diagrams?.length) {
    lines.push('Diagrams, drawn from the synthesised templates (security-group rules, listeners, routes, endpoints), not kept by hand: ' +
      report.diagrams.map((d) => `${d.title} (${d.requirement}) \`${d.file}\` (SHA-256 ${d.sha256})`).join('; ') + '. ' + DIAGRAM_LIMITS, '');
  }
  lines.push(`Scope: ${report.scope.derived ? `${report.scope.derived.scope} (derived)` : report.scope.stated}. ${report.scope.statement}`, '');
  if (report.defaultCredentials.length) {
    lines.push('**Change first (2.2.2).** The image starts with these accounts at its vendor\'s published password, which the ' +
      'framework can neither see nor change: ' + report.defaultCredentials.map((c) => `\`${cell(c.account)}\` (${cell(c.change)})`).join('; ') + '.', '');
  }
  if (report.outboundConnections.length) {
    lines.push('Connections the application declares it opens outside these stacks, drawn in both diagrams; no security-group rule ' +
      'names their destination: ' + report.outboundConnections.map((c) => `${cell(c.name)} (${cell(c.destination)}, from the ` +
      `${c.from ?? 'application'}${c.carriesAccountData ? ', may carry account data or keys that protect it' : ''}): ${cell(c.purpose)}`).join('; ') + '.', '');
  }
  lines.push(`After deployment: ${report.afterDeployment.configConformancePack} ${report.afterDeployment.securityHubStandard}`, '');
  lines.push('Coverage of a requirement follows from its testing procedures (PCI DSS v4.0.1) that the checks show: ' +
    '`configuration-shown` (every procedure that examines configuration is shown for these resources; documentation, ' +
    'records, interviews and observation are still the assessor\'s), `partial` (some procedure is shown in part, or the ' +
    'application declares a control), `supporting`, `after-deploy` (only AWS Config in the deployed account can see it) or ' +
    '`not-addressed`. A check whose failure is acknowledged earns nothing (it is listed under deviations). `exposed` ' +
    'outranks them all: the stack deploys components under published advisories. None is a verdict: an assessor tests ' +
    'each requirement.', '');
  return lines;
}

/** The same report for people: one section per principal requirement, one table per requirement. */
export function renderMarkdown(report: EvidenceReport): string {
  const lines = preamble(report);
  lines.push(...atAGlance(report));
  lines.push('## Who answers for each principal requirement', '',
    '| Requirement | Applies | The template and configuration | You | AWS or the identity provider | Requirements listed below |', '|---|---|---|---|---|---|');
  for (const p of report.principals) {
    lines.push(`| ${p.requirement}: ${cell(p.title)} | ${cell(p.applicability)} | ${cell(p.framework)} | ${cell(p.customer)} | ${cell(p.others ?? '-')} | ${p.evidencedRequirements} |`);
  }
  lines.push('');
  let principal = '';
  for (const r of report.requirements) {
    const head = r.requirement.split('.')[0];
    if (head !== principal) {
      principal = head;
      lines.push(`## Requirement ${head}: ${PRINCIPAL_TITLES[head] ?? ''}`, '');
    }
    lines.push(`### ${r.requirement}: ${r.coverage}`, '', `Coverage ${r.coverage}, from ${r.coverageBy}`, '');
    if (r.procedures.length) {
      lines.push(`Testing procedures: ${r.procedures.map((p) => `${p.id} (${p.methods.join(', ')}): ` +
        (p.shown === 'not shown' ? 'for the assessor' : `${p.shown} by ${p.by.join(', ')}`)).join('; ')}.`, '');
    }
    if (r.evaluations.length) {
      lines.push('| Resource | Type | Rule | Checks | Result | Grade toward this requirement |', '|---|---|---|---|---|---|');
      for (const e of r.evaluations) {
        lines.push(`| ${cell(e.resource)} | ${e.type} | ${e.rule} | ${cell(e.checks)} | ${e.result}${e.reason ? `: ${cell(e.reason)}` : ''} | ${e.grade}${e.procedures.length ? ` (${e.procedures.join(', ')})` : ''}: ${cell(e.gradeReason)} |`);
      }
      lines.push('');
    }
    for (const c of r.controls) {
      lines.push(`- ${c.source === FRAMEWORK_SOURCE ? 'Framework' : 'Application'} control (${c.source}, ${gradeOf(c)}): ${c.statement} Configured in: ${c.configuredIn}.`);
    }
    if (r.afterDeploy.length) lines.push(`- Only AWS Config, after deployment, can confirm: ${r.afterDeploy.join(', ')}.`);
    if (r.controls.length || r.afterDeploy.length) lines.push('');
  }
  lines.push('## Known vulnerabilities deployed (6.3.1, 6.3.3)', '');
  if (report.knownVulnerabilities.length === 0) {
    lines.push('The application declares none.', '');
  } else {
    lines.push('Published advisories against what the application installs, and why each is deployed anyway: 6.3.3 puts ' +
      'a critical vulnerability, as you rank it under 6.3.1, on a month from its fix\'s release and the others on your ' +
      'defined time frame, so each accepted one is a decision to examine against your ranking.', '',
    '| Advisory | Component | Version | Severity | Fixed in | Accepted | Owner | Reference |', '|---|---|---|---|---|---|---|---|');
    for (const v of report.knownVulnerabilities) {
      const accepted = v.accepted ? `${cell(v.accepted.reason)}${v.accepted.until ? ` (until ${v.accepted.until})` : ''}` : 'not accepted';
      const stated = (text?: string) => (text ? cell(text) : 'not stated');
      lines.push(`| ${v.id} | ${v.component} | ${v.version} | ${v.severity} | ${v.fixedIn} | ${accepted} | ` +
        `${v.accepted ? stated(v.accepted.owner) : ''} | ${v.accepted ? stated(v.accepted.reference) : ''} |`);
    }
    lines.push('');
  }
  lines.push('## Deviations: acknowledged failures, which earn nothing', '');
  if (report.deviations.length === 0) {
    lines.push('None: no check fails on a resource of this stack with its failure acknowledged.', '');
  } else {
    lines.push('| Requirement | Rule | Resource | Reason |', '|---|---|---|---|');
    for (const d of report.deviations) lines.push(`| ${d.requirement} | ${d.rule} | ${cell(d.resource)} | ${cell(d.reason)} |`);
    lines.push('');
  }
  lines.push('## Every acknowledgement in the stack', '', '| Resource | Rule | Reason |', '|---|---|---|');
  for (const a of report.acknowledgements) lines.push(`| ${cell(a.resource)} | ${a.rule} | ${cell(a.reason)} |`);
  return lines.join('\n') + '\n';
}
