// examples/quality-gate: the build server and SonarQube with its PostgreSQL database on one PRODUCTION platform, from
// cdk.json alone. `npx cdk synth` there runs the four compliance packs (PRODUCTION) and the CDK's CloudFormation
// validation (on, as a user runs it), and its templates must hold what docs/writing-a-plugin.md ("A database") and
// docs/build-agents.md ("SonarQube") say.
const assert = require('node:assert');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');
const { resources, rolloutProblems, synthExample, templatesIn } = require('./example-synth');

const { cdkJson, outdir, run, template } = synthExample('quality-gate');

test('synthesises, PRODUCTION\'s packs and the CDK\'s validation passing, nothing imported', () => {
  assert.strictEqual(run.status, 0, run.stderr);
  assert.doesNotMatch(run.stderr, /CloudFormation Validate/);
  for (const stack of ['qg-platform', 'qg-build-server', 'qg-sonarqube']) {
    assert.doesNotMatch(JSON.stringify(template(stack)), /Fn::ImportValue/, stack);
  }
});

test('SonarQube\'s PostgreSQL, in its own stack: encrypted, deletion-protected, Multi-AZ, its password managed by RDS, backed up', () => {
  assert.deepStrictEqual(resources(template('qg-platform'), 'AWS::RDS::DBInstance'), []);
  const [[, instance]] = resources(template('qg-sonarqube'), 'AWS::RDS::DBInstance');
  const p = instance.Properties;
  assert.deepStrictEqual([p.Engine, p.StorageEncrypted, p.DeletionProtection, p.MultiAZ, p.ManageMasterUserPassword, p.DBName],
    ['postgres', true, true, true, true, 'sonarqube']);
  assert.strictEqual(p.MasterUserPassword, undefined);
  assert.ok(p.BackupRetentionPeriod >= 7);
  assert.strictEqual(resources(template('qg-sonarqube'), 'AWS::Backup::BackupSelection')
    .filter(([, s]) => JSON.stringify(s.Properties.BackupSelection.Resources).includes(':db:')).length, 1);
});

test('SonarQube\'s task gets the connection, the password as a secret reference; only its group reaches the port', () => {
  const sonar = template('qg-sonarqube');
  const [[, task]] = resources(sonar, 'AWS::ECS::TaskDefinition').filter(([, t]) => t.Properties.ContainerDefinitions.some((c) => c.Name === 'Application'));
  const container = task.Properties.ContainerDefinitions.find((c) => c.Name === 'Application');
  assert.match(JSON.stringify(container.Secrets.find((s) => s.Name === 'SONAR_JDBC_PASSWORD').ValueFrom), /MasterUserSecret\.SecretArn.*:password::/);
  assert.match(JSON.stringify(container.Environment.find((e) => e.Name === 'SONAR_JDBC_URL').Value), /jdbc:postgresql:/);
  const ingress = resources(sonar, 'AWS::EC2::SecurityGroupIngress').filter(([, r]) => r.Properties.FromPort === 5432);
  assert.strictEqual(ingress.length, 1);
  assert.match(JSON.stringify(ingress[0][1].Properties.SourceSecurityGroupId), /ApplicationFargateSecurityGroup/);
  for (const stack of ['qg-platform', 'qg-build-server']) {
    assert.strictEqual(resources(template(stack), 'AWS::EC2::SecurityGroupIngress').filter(([, r]) => r.Properties.FromPort === 5432).length, 0, stack);
  }
});

test('cfn-lint: no error and no warning in any of its templates, the database\'s included', { skip: spawnSync('cfn-lint', ['--version']).status !== 0 && !process.env.CI }, () => {
  const files = ['qg-platform', 'qg-build-server', 'qg-sonarqube'].map((stack) => path.join(outdir, `${stack}.template.json`));
  // W3005 and W3691 as in packages/core/test/platform-lifecycle.test.ts, where each is explained.
  const lint = spawnSync('cfn-lint', ['--format', 'parseable', '--ignore-checks', 'W3005', 'W3691', '--', ...files], { encoding: 'utf-8' });
  assert.strictEqual(lint.stdout + lint.stderr, '');
  assert.strictEqual(lint.status, 0);
});

test('the build server\'s configuration names SonarQube by the HTTPS address of pluginSettings, its secrets by reference', () => {
  const settings = cdkJson.applications.find((a) => a.applicationId === 'jenkins').pluginSettings;
  const [[, task]] = resources(template('qg-build-server'), 'AWS::ECS::TaskDefinition').filter(([, t]) => t.Properties.ContainerDefinitions.some((c) => c.Name === 'Initialization'));
  const containers = task.Properties.ContainerDefinitions;
  // The configuration as code reaches the controller as files the init container writes, base64 in its environment.
  const files = containers.find((c) => c.Name === 'Initialization').Environment.map((e) => Buffer.from(e.Value, 'base64').toString('utf-8'));
  const casc = files.find((f) => f.includes('sonarGlobalConfiguration'));
  assert.ok(casc, 'no configuration as code with a SonarQube installation');
  assert.match(casc, new RegExp(`serverUrl: "?${settings.sonarQubeUrl.replace(/[.]/g, '\\.')}"?`));
  const secrets = containers.find((c) => c.Name === 'Application').Secrets;
  assert.deepStrictEqual(secrets.find((s) => s.Name === 'SONAR_TOKEN'), { Name: 'SONAR_TOKEN', ValueFrom: settings.sonarQubeTokenSecretArn });
});

test('inside the VPC, both host names resolve to the private load balancer: the quality gate never leaves the VPC', () => {
  for (const [stack, host] of [['qg-sonarqube', 'sonar.example.com.'], ['qg-build-server', 'ci.example.com.']]) {
    const zones = resources(template(stack), 'AWS::Route53::HostedZone').map(([, z]) => z.Properties);
    assert.deepStrictEqual(zones.map((z) => [z.Name, z.VPCs.length]), [[host, 1]], stack);
  }
  const settings = cdkJson.applications.find((a) => a.applicationId === 'jenkins').pluginSettings;
  assert.strictEqual(new URL(settings.sonarQubeUrl).host, 'sonar.example.com');
});

test('each application\'s report states the pciDssScope set on its own entry; the platform\'s derives the widest of theirs, naming them (R13)', () => {
  for (const [i, stack] of ['qg-build-server', 'qg-sonarqube'].entries()) {
    const report = JSON.parse(fs.readFileSync(path.join(outdir, `${stack}.pci-dss-4.0.1.json`), 'utf-8'));
    assert.strictEqual(report.scope.stated, cdkJson.applications[i].pciDssScope, stack);
    assert.match(report.scope.statement, /^You state that/, stack);
  }
  const platform = JSON.parse(fs.readFileSync(path.join(outdir, 'qg-platform.pci-dss-4.0.1.json'), 'utf-8'));
  assert.strictEqual(platform.scope.stated, 'not stated');
  assert.deepStrictEqual(platform.scope.derived, { scope: 'CONNECTED', from: ['qg-build-server', 'qg-sonarqube'] });
  assert.match(platform.scope.statement, /^Not stated here; derived as CONNECTED from what runs on this stack in the same cloud assembly: qg-build-server, qg-sonarqube state CONNECTED/);
  assert.match(fs.readFileSync(path.join(outdir, 'qg-platform.pci-dss-4.0.1.md'), 'utf-8'), /^Scope: CONNECTED \(derived\)\. Not stated here; /m);
});

test('SonarQube\'s report lists the administrator its image starts with as the first thing to change (2.2.2), with no password', () => {
  const report = JSON.parse(fs.readFileSync(path.join(outdir, 'qg-sonarqube.pci-dss-4.0.1.json'), 'utf-8'));
  assert.deepStrictEqual(report.defaultCredentials, cdkJson.applications[1].containerImage.defaultCredentials);
  const markdown = fs.readFileSync(path.join(outdir, 'qg-sonarqube.pci-dss-4.0.1.md'), 'utf-8');
  assert.match(markdown, /^\*\*Change first \(2\.2\.2\)\.\*\* The image starts with these accounts at its vendor's published password, [^\n]*: `admin` \(at the first sign-in/m);
  const build = JSON.parse(fs.readFileSync(path.join(outdir, 'qg-build-server.pci-dss-4.0.1.json'), 'utf-8'));
  assert.deepStrictEqual(build.defaultCredentials, []);
  // The build server's builds reach SonarQube and the payment-gateway key: declared, drawn in the platform's diagrams.
  assert.deepStrictEqual(build.outboundConnections.map((c) => c.name), ['Payment-gateway key (withPaymentGatewayKey)', 'SonarQube']);
  assert.match(fs.readFileSync(path.join(outdir, 'qg-platform.data-flow.dot'), 'utf-8'), /^  declared1 \[label="SonarQube\\nsonar\.example\.com\\n\(declared by the application\)"/m);
});

test('each report says who signs users in as its own stack does: SonarQube (authMode none) claims neither identity-provider sign-in nor no default passwords', () => {
  const principal = (stack, requirement) => {
    const report = JSON.parse(fs.readFileSync(path.join(outdir, `${stack}.pci-dss-4.0.1.json`), 'utf-8'));
    return report.principals.find((p) => p.requirement === requirement);
  };
  const sonarSignIn = principal('qg-sonarqube', '8');
  assert.doesNotMatch(`${sonarSignIn.framework} ${sonarSignIn.others ?? ''}`, /identity provider|OIDC/);
  assert.match(sonarSignIn.framework, /^Nothing: nobody signs users in before the application \(authMode none\)/);
  assert.match(sonarSignIn.customer, /default administrator changed before it serves anyone/);
  assert.doesNotMatch(principal('qg-sonarqube', '2').framework, /no default passwords/);
  // The build server signs users in through the identity provider (application-oidc): its report says so.
  assert.match(principal('qg-build-server', '8').framework, /^The application signs users in through your identity provider \(OIDC\)/);
});

// The platform's diagrams draw every application attached to it in the same cloud assembly (test/examples/diagrams.test.js
// checks the build server's the same way, with the negative controls).
test('the platform\'s diagrams draw both applications from their templates, cited by SHA-256; every rule is a flow and every flow a rule', () => {
  const crypto = require('node:crypto');
  const { flowsMatchRules, readSvg } = require('./diagram-checks');
  const report = JSON.parse(fs.readFileSync(path.join(outdir, 'qg-platform.pci-dss-4.0.1.json'), 'utf-8'));
  for (const { file, sha256 } of report.diagrams) {
    assert.strictEqual(crypto.createHash('sha256').update(fs.readFileSync(path.join(outdir, file))).digest('hex'), sha256, file);
  }
  const svg = fs.readFileSync(path.join(outdir, 'qg-platform.data-flow.svg'), 'utf-8');
  assert.deepStrictEqual(readSvg(svg).stacks, ['qg-platform', 'qg-build-server', 'qg-sonarqube']);
  for (const stack of ['qg-platform', 'qg-build-server', 'qg-sonarqube']) {
    const result = flowsMatchRules(fs.readFileSync(path.join(outdir, `${stack}.data-flow.svg`), 'utf-8'), outdir);
    assert.deepStrictEqual(result.problems, [], stack);
    assert.ok(result.flows > 5, `${stack}: ${JSON.stringify(result)}`);
  }
  // Each application's scope, as its entry states it, is its node's fill (dot.ts's SCOPE_STYLE: CONNECTED is amber).
  for (const [i, stack] of ['qg-build-server', 'qg-sonarqube'].entries()) {
    const node = [...readSvg(svg).nodes.values()].find((n) => n.kind === 'node-application' && n.texts.includes(stack));
    assert.strictEqual(cdkJson.applications[i].pciDssScope, 'CONNECTED');
    const start = svg.indexOf(`<g id="${node.id}" class="node`);
    const own = svg.slice(start, svg.slice(start + 1).search(/<g id="[^"]*" class="(?:node|edge|cluster)/) + start + 1);
    assert.match(own, /fill="#fce8b2"/, stack);
  }
});

test('in Chromium, the platform\'s network and data-flow diagrams draw both host names, the database and the internet-facing load balancer, and nothing overlaps', () => {
  const { browserCheck } = require('./diagram-checks');
  for (const kind of ['network', 'data-flow']) {
    const result = browserCheck(fs.readFileSync(path.join(outdir, `qg-platform.${kind}.svg`), 'utf-8'),
      ['ci.example.com', 'sonar.example.com', 'Database (postgres)', 'Load balancer (internet-facing)']);
    assert.deepStrictEqual({ missing: result.missing, notDrawn: result.notDrawn, overflows: result.overflows, collisions: result.collisions },
      { missing: [], notDrawn: [], overflows: [], collisions: [] }, kind);
  }
});

test('SonarQube\'s database flows are drawn encrypted, a solid line: its parameter group refuses plain connections (the review\'s R4(a))', () => {
  const { readSvg } = require('./diagram-checks');
  for (const stack of ['qg-platform', 'qg-sonarqube']) {
    const svg = fs.readFileSync(path.join(outdir, `${stack}.data-flow.svg`), 'utf-8');
    const drawing = readSvg(svg);
    const own = (f) => svg.slice(svg.indexOf(`<g id="${f.id}" class="edge flow">`)).split(/\n(?=<g id="[^"]*" class="(?:node|edge))/)[0];
    const db = [...drawing.nodes.values()].find((n) => n.texts.includes('Database (postgres)'));
    const flows = drawing.flows.filter((f) => f.to === db.id);
    assert.ok(flows.length > 0, stack);
    for (const f of flows) {
      assert.ok(f.texts.includes('TLS (the database refuses plain connections)'), f.texts.join(' / '));
      assert.doesNotMatch(own(f), /stroke-dasharray/, f.id);
    }
    // The check sees dashes: the load balancer's plain HTTP to SonarQube is dashed.
    const plain = drawing.flows.find((f) => f.texts.includes('plain HTTP inside the VPC'));
    assert.match(own(plain), /stroke-dasharray/, plain.id);
  }
});

test('thirty applications on the platform: its diagrams draw every one, every rule is still a flow, and nothing overlaps in Chromium', () => {
  const { stackDiagrams } = require('../../packages/core/lib/compliance/diagrams/diagram-files');
  const { browserCheck, flowsMatchRules } = require('./diagram-checks');
  // SonarQube's template thirty times under other names and host names: what the platform's report draws with them.
  const sonar = JSON.stringify(template('qg-sonarqube'));
  const apps = Array.from({ length: 30 }, (_, i) => ({ stack: `app${i + 1}`, scope: 'CDE', template: JSON.parse(sonar.replace(/sonar\.example\.com/g, `app${i + 1}.example.com`)) }));
  const assembly = [{ stack: 'qg-platform', template: template('qg-platform') }, ...apps];
  const files = stackDiagrams(['qg-platform'], assembly, { generatedAt: '2026-12-06T00:00:00.000Z', sourceRevision: 'not stated' }).get('qg-platform');
  const svg = (name) => files.find((f) => f.file === `qg-platform.${name}.svg`).text;
  const result = flowsMatchRules(svg('data-flow'), outdir, new Map(assembly.map((s) => [s.stack, s.template])));
  assert.deepStrictEqual(result.problems, []);
  assert.ok(result.rules > 30 * 5, JSON.stringify(result));
  for (const kind of ['network', 'data-flow']) {
    const seen = browserCheck(svg(kind), [...apps.map((a) => `${a.stack}.example.com`), 'Load balancer (internet-facing)']);
    assert.deepStrictEqual({ missing: seen.missing, notDrawn: seen.notDrawn, overflows: seen.overflows, collisions: seen.collisions },
      { missing: [], notDrawn: [], overflows: [], collisions: [] }, kind);
  }
});

test('PRODUCTION: every ECS service rolls back on its health alarms, and runs one task at a time', () => {
  assert.deepStrictEqual(rolloutProblems(templatesIn(outdir), true), []);
});
