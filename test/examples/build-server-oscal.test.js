// The evidence reports as OSCAL assessment-results documents, which `cdk synth` of the main job leaves beside the
// JSON and Markdown reports (FARGATE in cdk.out, EC2 in cdk.out/ec2): validated with compliance-trestle's models of
// NIST's OSCAL schema (test/oscal/validate.sh), with two broken copies as negative controls; and the CycloneDX bills of
// materials beside them, validated with cyclonedx-python-lib in the same run, with two broken copies too.
const assert = require('node:assert');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { test } = require('node:test');

const cdkOut = path.join(__dirname, '..', '..', 'examples', 'build-server', 'cdk.out');
const documents = [cdkOut, path.join(cdkOut, 'ec2')].map((dir) => path.join(dir, 'build-server.pci-dss-4.0.1.oscal.json'));

test('both runtimes\' documents hold one observation per requirement of the report, and no finding', () => {
  for (const file of documents) {
    const oscal = JSON.parse(fs.readFileSync(file, 'utf-8'))['assessment-results'];
    const report = JSON.parse(fs.readFileSync(file.replace('.oscal.json', '.json'), 'utf-8'));
    const observations = oscal.results[0].observations;
    assert.deepStrictEqual(observations.map((o) => o.props.find((p) => p.name === 'requirement').value), report.requirements.map((r) => r.requirement));
    assert.deepStrictEqual(observations.map((o) => o.props.find((p) => p.name === 'coverage').value), report.requirements.map((r) => r.coverage));
    assert.strictEqual(oscal.metadata.props.find((p) => p.name === 'template-sha256').value, report.system.templateSha256);
    // A finding would state each requirement satisfied or not: the assessor's conclusion, not the template's.
    assert.strictEqual(oscal.results[0].findings, undefined);
    assert.doesNotMatch(JSON.stringify(oscal), /\bsatisfied\b|\bmet\b/i);
  }
});

const definitions = documents.map((file) => file.replace('.oscal.json', '.oscal-component-definition.json'));

test('the component definitions name the framework, with the rules behind each requirement, and the plugin\'s controls', () => {
  for (const file of definitions) {
    const { components } = JSON.parse(fs.readFileSync(file, 'utf-8'))['component-definition'];
    assert.deepStrictEqual(components.map((c) => c.title.split(' ')[0]), ['@fw/core', 'JenkinsSpec']);
    const implemented = components[0]['control-implementations'][0]['implemented-requirements'];
    // Only what the framework earns something toward is listed as implemented (the review's R9: 14 of 39 were not).
    const report = JSON.parse(fs.readFileSync(file.replace('.oscal-component-definition.json', '.json'), 'utf-8'));
    const coverage = Object.fromEntries(report.requirements.map((r) => [`pcidss-${r.requirement}`, r.coverage]));
    assert.deepStrictEqual(implemented.filter((r) => coverage[r['control-id']] === 'not-addressed').map((r) => r['control-id']), []);
    assert.ok(report.requirements.some((r) => r.coverage === 'not-addressed' && r.evaluations.length > 0), 'the report has such requirements, left out');
    assert.match(implemented.find((r) => r['control-id'] === 'pcidss-4.2.1').description, /PCI\.DSS\.401-ListenerTls12: /);
    // Who answers, as data: each implemented requirement names the roles the metadata defines, with what each answers for.
    const roles = JSON.parse(fs.readFileSync(file, 'utf-8'))['component-definition'].metadata.roles.map((r) => r.id);
    assert.deepStrictEqual(roles, ['template', 'entity', 'provider']);
    for (const r of implemented) {
      assert.deepStrictEqual(r['responsible-roles'].map((x) => x['role-id']).slice(0, 2), ['template', 'entity'], r['control-id']);
      assert.ok(r['responsible-roles'].every((x) => roles.includes(x['role-id']) && x.remarks.length > 0), r['control-id']);
    }
  }
});

const boms = [cdkOut, path.join(cdkOut, 'ec2')].map((dir) => path.join(dir, 'build-server.cyclonedx.json'));

test('both bills of materials give every component a package URL and list SECURITY-3972 under vulnerabilities, affecting core', () => {
  for (const file of boms) {
    const bom = JSON.parse(fs.readFileSync(file, 'utf-8'));
    assert.strictEqual(bom.specVersion, '1.6');
    assert.deepStrictEqual(bom.components.filter((c) => !/^pkg:[a-z]+\//.test(c.purl ?? '')).map((c) => c.name), []);
    const core = bom.components.find((c) => c.name === 'jenkins-core')['bom-ref'];
    assert.deepStrictEqual(bom.vulnerabilities.find((v) => v.id === 'SECURITY-3972').affects.map((a) => a.ref), [core]);
    assert.ok(bom.dependencies.length > bom.components.length, 'the stack and every component have a dependency entry');
  }
});

test('compliance-trestle validates both documents and both component definitions, and refuses a control id that is no OSCAL token and a missing import-ap; ' +
  'cyclonedx-python-lib validates both bills of materials, and refuses a severity outside the schema and a dependency on no listed component', () => {
  const broken = fs.mkdtempSync(path.join(os.tmpdir(), 'oscal-'));
  const original = JSON.parse(fs.readFileSync(documents[0], 'utf-8'));
  const badId = structuredClone(original);
  badId['assessment-results'].results[0]['reviewed-controls']['control-selections'][0]['include-controls'][0]['control-id'] = '10.5.1';
  const noPlan = structuredClone(original);
  delete noPlan['assessment-results']['import-ap'];
  const bom = JSON.parse(fs.readFileSync(boms[0], 'utf-8'));
  const badSeverity = structuredClone(bom);
  badSeverity.vulnerabilities[0].ratings[0].severity = 'High';
  const danglingDependency = structuredClone(bom);
  danglingDependency.dependencies[0].dependsOn.push('not-listed@1');
  const files = [...documents, path.join(broken, 'bad-id.json'), path.join(broken, 'no-plan.json'), ...definitions,
    ...boms, path.join(broken, 'bad-severity.json'), path.join(broken, 'dangling-dependency.json')];
  fs.writeFileSync(files[2], JSON.stringify(badId));
  fs.writeFileSync(files[3], JSON.stringify(noPlan));
  fs.writeFileSync(files[8], JSON.stringify(badSeverity));
  fs.writeFileSync(files[9], JSON.stringify(danglingDependency));
  const run = spawnSync('bash', [path.join(__dirname, '..', 'oscal', 'validate.sh'), ...files], { encoding: 'utf-8' });
  process.stdout.write(run.stdout);
  process.stderr.write(run.stderr);
  assert.strictEqual(run.status, 1, 'the broken copies make it fail');
  for (const file of documents) assert.match(run.stdout, new RegExp(`^valid ${file}: OSCAL \\d+\\.\\d+\\.\\d+, \\d+ observations$`, 'm'));
  for (const file of definitions) assert.match(run.stdout, new RegExp(`^valid ${file}: OSCAL \\d+\\.\\d+\\.\\d+, 2 components$`, 'm'));
  assert.match(run.stdout, new RegExp(`^invalid ${files[2]}: .*control-selections`, 'm'));
  assert.match(run.stdout, new RegExp(`^invalid ${files[3]}: .* at import-ap: Field required$`, 'm'));
  for (const file of boms) assert.match(run.stdout, new RegExp(`^valid ${file}: CycloneDX 1\\.6, \\d+ components, \\d+ vulnerabilities$`, 'm'));
  assert.match(run.stdout, new RegExp(`^invalid ${files[8]}: 'High' is not one of .* at vulnerabilities/0/ratings/0/severity$`, 'm'));
  assert.match(run.stdout, new RegExp(`^invalid ${files[9]}: UnknownComponentDependencyException: .*not-listed@1`, 'm'));
});
