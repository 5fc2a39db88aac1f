// The PCI DSS evidence report that `cd examples/build-server && npx cdk synth` leaves beside the template (the test
// command runs that synth just before this file: FARGATE into cdk.out, EC2 into cdk.out/ec2). It reads what an
// assessor would read.
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');
const { unearnedCoverage } = require('../../packages/core/lib/compliance/unearned-coverage');

const cdkOut = path.join(__dirname, '..', '..', 'examples', 'build-server', 'cdk.out');
const read = (dir) => ({
  report: JSON.parse(fs.readFileSync(path.join(dir, 'build-server.pci-dss-4.0.1.json'), 'utf-8')),
  markdown: fs.readFileSync(path.join(dir, 'build-server.pci-dss-4.0.1.md'), 'utf-8'),
});
const { report, markdown } = read(cdkOut);
const RUNTIMES = { FARGATE: { dir: cdkOut, ...read(cdkOut) }, EC2: { dir: path.join(cdkOut, 'ec2'), ...read(path.join(cdkOut, 'ec2')) } };

test('the report sits beside the template and says it supports, not replaces, an assessment', () => {
  assert.ok(fs.existsSync(path.join(cdkOut, 'build-server.template.json')));
  assert.match(report.notice, /supports, and does not replace, a PCI DSS v4\.0\.1 assessment/);
  assert.ok(markdown.startsWith('# PCI DSS v4.0.1 evidence: build-server\n'));
});

test('the report names the system: the template as written (its SHA-256), the versions, the environment, the time', () => {
  const crypto = require('node:crypto');
  const template = fs.readFileSync(path.join(cdkOut, report.system.templateFile));
  assert.strictEqual(report.system.templateSha256, crypto.createHash('sha256').update(template).digest('hex'));
  assert.strictEqual(report.system.stack, 'build-server');
  assert.match(report.system.region, /^[a-z]+-[a-z]+-\d$/);
  assert.strictEqual(report.system.account, 'resolved at deploy');
  assert.strictEqual(report.system.versions.framework, require('../../packages/core/package.json').version);
  assert.match(report.system.versions.cdkNag, /^\d+\.\d+\.\d+$/);
  assert.ok(!Number.isNaN(Date.parse(report.system.generatedAt)));
  assert.match(markdown, new RegExp(`SHA-256 ${report.system.templateSha256}`));
});

test('all twelve principal requirements and A1 to A3 appear, each with who answers for it', () => {
  assert.deepStrictEqual(report.principals.map((p) => p.requirement), ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', 'A1', 'A2', 'A3']);
  for (const p of report.principals) {
    assert.ok(p.title && p.framework && p.customer, p.requirement);
    assert.match(markdown, new RegExp(`^\\| ${p.requirement}: `, 'm'));
  }
  assert.match(report.principals.find((p) => p.requirement === '5').framework, /^Nothing/);
  assert.match(report.principals.find((p) => p.requirement === 'A1').customer, /only if you are a multi-tenant service provider/);
  // A2 and A3 are never printed as applying: nothing deployed uses early TLS, nothing states a designation.
  for (const q of ['A2', 'A3']) assert.strictEqual(report.principals.find((p) => p.requirement === q).applicable, false, q);
  // The count of requirements with evidence is the report's own.
  const ten = report.principals.find((p) => p.requirement === '10');
  assert.strictEqual(ten.evidencedRequirements, report.requirements.filter((r) => r.requirement.split('.')[0] === '10').length);
  assert.ok(ten.evidencedRequirements > 0);
});

test('requirements 1, 3, 4, 7, 8 and 10 each have resources with results, or the build server\'s own controls', () => {
  for (const principal of ['1', '3', '4', '7', '8', '10']) {
    const evidence = report.requirements.filter((r) => r.requirement.split('.')[0] === principal);
    assert.ok(evidence.some((r) => r.evaluations.length > 0 || r.controls.length > 0), `requirement ${principal}`);
    assert.match(markdown, new RegExp(`^## Requirement ${principal}: `, 'm'));
  }
  const evaluations = report.requirements.flatMap((r) => r.evaluations);
  assert.ok(evaluations.some((e) => e.result === 'passes' && e.rule === 'PCI.DSS.401-LogGroupRetentionOneYear'));
  // The WAF in front of the application, under 6.4.2.
  const waf = report.requirements.find((r) => r.requirement === '6.4.2');
  assert.ok(waf && waf.evaluations.some((e) => e.rule === 'PCI.DSS.401-PublicLoadBalancerWaf' && e.result === 'passes'));
  assert.ok(evaluations.some((e) => e.result === 'acknowledged' && /\(PCI DSS v4\.0\.1 [\d., ]+\)$/.test(e.reason)));
  assert.ok(!evaluations.some((e) => e.result === 'fails'));
  assert.ok(report.acknowledgements.length > 10);
  const controls = report.requirements.flatMap((r) => r.controls.map((c) => `${r.requirement} ${c.source}`));
  for (const expected of ['8.4.2 JenkinsSpec', '7.2.1 JenkinsSpec', '10.2.1 JenkinsSpec', '10.4.1 JenkinsSpec', '10.5.1 JenkinsSpec']) {
    assert.ok(controls.includes(expected), expected);
  }
});

for (const [runtime, { dir, report, markdown }] of Object.entries(RUNTIMES)) {
  test(`${runtime}: every requirement has a coverage no higher than its evidence earns; nothing says "met"`, () => {
    const template = fs.readFileSync(path.join(dir, report.system.templateFile));
    assert.strictEqual(report.system.templateSha256, require('node:crypto').createHash('sha256').update(template).digest('hex'));
    assert.strictEqual(report.system.versions.framework, require('../../packages/core/package.json').version);
    assert.ok(!Number.isNaN(Date.parse(report.system.generatedAt)));
    const coverages = ['configuration-shown', 'partial', 'supporting', 'after-deploy', 'not-addressed', 'exposed'];
    for (const r of report.requirements) assert.ok(coverages.includes(r.coverage) && r.coverageBy, `${r.requirement}: ${r.coverage}`);
    assert.deepStrictEqual(unearnedCoverage(report), []);
    assert.doesNotMatch(JSON.stringify(report), /\bmet\b/i);
    assert.doesNotMatch(markdown, /\bmet\b/i);
    const coverage = (q) => report.requirements.find((r) => r.requirement === q)?.coverage;
    for (const q of ['8.2.8', '3.2.1', '3.3.1', '3.3.1.1', '5.3.4']) assert.notStrictEqual(coverage(q), 'configuration-shown', q);
    assert.strictEqual(coverage('8.2.8'), 'partial');
    if (runtime === 'EC2') {
      const imds = report.requirements.find((r) => r.requirement === '8.2.8').evaluations.filter((e) => e.rule === 'PCI.DSS.401-EC2IMDSv2Enabled');
      assert.ok(imds.length > 0 && imds.every((e) => e.grade === 'none'));
    }
    assert.ok(report.requirements.find((r) => r.requirement === '6.4.2').evaluations.some((e) => e.rule === 'PCI.DSS.401-PublicLoadBalancerWaf' && e.result === 'passes'));
    assert.deepStrictEqual(report.principals.map((p) => p.requirement).slice(0, 12), ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12']);
    // The scope cdk.json states; A1 left out, since cdk.json does not say the team is a multi-tenant provider.
    assert.strictEqual(report.scope.stated, 'CONNECTED');
    assert.ok(!report.requirements.some((r) => r.requirement.startsWith('A1')));
    assert.match(markdown, /^Scope: CONNECTED\. You state that this application is connected/m);
  });

  test(`${runtime}: known vulnerabilities first: SECURITY-3972 with its acceptance, 6.3.3 exposed, a risk in the OSCAL document`, () => {
    const advisory = report.knownVulnerabilities.find((v) => v.id === 'SECURITY-3972');
    assert.ok(advisory && advisory.accepted && advisory.accepted.reason.length > 0, 'SECURITY-3972 accepted with a reason');
    assert.strictEqual(report.requirements.find((r) => r.requirement === '6.3.3')?.coverage, 'exposed');
    // v4.0.1: 6.3.1 (ranking) and 6.3.2 (inventory) are supported by the comparison and the bill of materials.
    for (const q of ['6.3.1', '6.3.2']) assert.strictEqual(report.requirements.find((r) => r.requirement === q)?.coverage, 'supporting', q);
    // Never v4.0's 6.3.3 ("critical and high-severity ... within a month"): test/docs/pci-6-3-3-wording.test.js.
    assert.doesNotMatch(markdown, /critical\s+(?:and|or)\s+high/i);
    assert.match(markdown, /^\| SECURITY-3972 \|/m);
    const oscal = JSON.parse(fs.readFileSync(path.join(dir, report.system.templateFile.replace('.template.json', '.pci-dss-4.0.1.oscal.json')), 'utf-8'));
    assert.ok(oscal['assessment-results'].results[0].risks.some((r) => r.title.startsWith('SECURITY-3972:') && r.status === 'deviation-requested'));
    // The bill of materials: referenced with its hash, Jenkins core and every pinned plugin in it; the example's
    // placeholder digests named as such.
    const bomFile = path.join(dir, report.billOfMaterials.file);
    assert.strictEqual(report.billOfMaterials.sha256, require('node:crypto').createHash('sha256').update(fs.readFileSync(bomFile)).digest('hex'));
    const listed = new Set(JSON.parse(fs.readFileSync(bomFile, 'utf-8')).components.map((c) => `${c.name}@${c.version}`));
    const { JENKINS_CORE, JENKINS_PLUGINS, JENKINS_PLUGIN_CLOSURE } = require('../../packages/core/lib/build-server/versions');
    for (const pin of [JENKINS_CORE, ...JENKINS_PLUGINS, ...JENKINS_PLUGIN_CLOSURE]) assert.ok(listed.has(`${pin.id}@${pin.version}`), pin.id);
    assert.ok(report.billOfMaterials.placeholderDigests.length > 0, 'cdk.json\'s all-zero digests are flagged');
    // ... and never given as an identity: the system line names those images as not identified.
    const system = markdown.split('\n').find((l) => l.startsWith('System: '));
    assert.match(system, /; images not identified \(a placeholder digest, all zeros, is no image's identity\): jenkins\/(jenkins|inbound-agent):/);
    assert.doesNotMatch(system, /sha256:0{64}/);
    assert.match(markdown, /^Bill of materials \(6\.3\.2\): `build-server\.cyclonedx\.json` \(CycloneDX, SHA-256 [0-9a-f]{64}\)/m);
    // Every acknowledged failure is a deviation that earns nothing.
    const acknowledged = report.requirements.flatMap((r) => r.evaluations.filter((e) => e.result === 'acknowledged').map((e) => `${r.requirement} ${e.rule} ${e.resource}`));
    assert.deepStrictEqual(report.deviations.map((d) => `${d.requirement} ${d.rule} ${d.resource}`), acknowledged);
  });
}

test('the CDK\'s CloudFormation validation, which `cdk synth` ran on the template, reported nothing', () => {
  // The CDK writes validation-report.json into every cloud assembly; a finding is a plugin report with violations.
  // With CDK_VALIDATION=false it writes the same empty report without validating: the synth before this file ran in
  // this file's environment (the main-job stage's, scripts/test-stages.js), which must leave the validation on.
  assert.notStrictEqual(process.env.CDK_VALIDATION, 'false', 'the main job\'s synth ran without the CDK\'s validation');
  for (const { dir } of Object.values(RUNTIMES)) {
    const validation = JSON.parse(fs.readFileSync(path.join(dir, 'validation-report.json'), 'utf-8'));
    assert.deepStrictEqual(validation.pluginReports, [], dir);
  }
});

test('every known vulnerability the build server deploys is listed with the acceptance cdk.json gives it, on both runtimes', () => {
  const accepted = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'examples', 'build-server', 'cdk.json'), 'utf-8')).context.acceptedAdvisories;
  for (const [runtime, { report: r, markdown: md }] of Object.entries(RUNTIMES)) {
    assert.deepStrictEqual(r.knownVulnerabilities.map((v) => v.id).sort(), Object.keys(accepted).sort(), runtime);
    for (const v of r.knownVulnerabilities) {
      assert.deepStrictEqual(v.accepted, accepted[v.id], `${runtime} ${v.id}`);
      assert.match(v.severity, /^(Critical|High|Medium|Low)$/);
    }
    assert.match(md, /^\| SECURITY-3972 \| jenkins-core \| 2\.568\.2 \| High \| 2\.568\.3 \| Fixed in core 2\.568\.3[^|]*\| build-platform-team \| https:\/\/www\.jenkins\.io\/security\/advisory\/2026-09-02\/#SECURITY-3972; [^|]*\|$/m, runtime);
  }
});
