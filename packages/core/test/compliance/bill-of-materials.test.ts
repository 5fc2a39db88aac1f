// The bill of materials' content, from the build server's declarations and the framework's images, without a synth:
// the main job's own documents are validated with CycloneDX's library in test/examples/build-server-oscal.test.js.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { JenkinsSpec, RuntimeType, SoftwareComponentType } from '../../src';
import { JENKINS_CORE, JENKINS_PLUGINS } from '../../src/build-server/versions';
import { billOfMaterials } from '../../src/compliance/bill-of-materials';
import { deployedComponents } from '../../src/compliance/deployed-components';
import type { ReportedSystem } from '../../src/compliance/report-model';
import { specProblems } from '../../src/contract/spec-validation';

const SYSTEM: ReportedSystem = {
  stack: 'build-server',
  account: '111111111111',
  region: 'eu-west-1',
  templateFile: 'build-server.template.json',
  templateSha256: 'a'.repeat(64),
  versions: { framework: '0.0.0', cdkNag: '2', awsCdkLib: '2' },
  generatedAt: '2026-12-06T00:00:00Z',
  sourceRevision: 'not stated',
};
const DIGEST = `sha256:${'b'.repeat(64)}`;
const IMAGES = deployedComponents(RuntimeType.EC2, [`jenkins/jenkins:2.568.2-lts-jdk21@${DIGEST}`,
  `123456789012.dkr.ecr.eu-west-1.amazonaws.com/team/app:1.2@sha256:${'0'.repeat(64)}`, 'nginx:1.29'], 'ami-0123456789abcdef0');
const spec = new JenkinsSpec();
const ACCEPTED = { reason: 'config.xml POSTs blocked at the WAF', until: '2027-01-31', owner: 'platform-security', reference: 'SEC-12' };
const bom = JSON.parse(billOfMaterials(SYSTEM, [...spec.softwareComponents(), ...IMAGES],
  spec.knownVulnerabilities().map((v) => (v.id === 'SECURITY-3972' ? { ...v, accepted: ACCEPTED } : v))).text);
const component = (name: string) => bom.components.find((c: any) => c.name === name);

test('every plugin has its Maven coordinates from its pom (plugin-closure.json) and needs Jenkins core and the plugins its pom requires', () => {
  const closure = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'jenkins', 'plugin-closure.json'), 'utf-8')).plugins;
  expect(component('amazon-ecs').purl).toBe(`pkg:maven/com.cloudbees.jenkins.plugins/amazon-ecs@${closure['amazon-ecs'].version}?type=hpi`);
  expect(component('configuration-as-code').purl).toMatch(/^pkg:maven\/io\.jenkins\/configuration-as-code@/);
  const ecs = bom.dependencies.find((d: any) => d.ref === `amazon-ecs@${closure['amazon-ecs'].version}`);
  expect(ecs.dependsOn).toContain(`jenkins-core@${JENKINS_CORE.version}`);
  for (const id of Object.keys(closure['amazon-ecs'].requires)) expect(ecs.dependsOn).toContain(`${id}@${closure[id].version}`);
  // Every reference in the graph names a listed component, and the stack deploys core, not a plugin core needs nothing of.
  const refs = new Set([SYSTEM.stack, ...bom.components.map((c: any) => c['bom-ref'])]);
  expect(bom.dependencies.flatMap((d: any) => [d.ref, ...d.dependsOn]).filter((r: string) => !refs.has(r))).toEqual([]);
  const top = bom.dependencies.find((d: any) => d.ref === SYSTEM.stack).dependsOn;
  expect(top).not.toContain(`jenkins-core@${JENKINS_CORE.version}`);
  expect(top).toContain(`${JENKINS_PLUGINS[0].id}@${JENKINS_PLUGINS[0].version}`);
});

test('images: oci by digest with the digest as hash, docker by tag, a placeholder digest never a hash; the machine image generic', () => {
  expect(component('jenkins/jenkins')).toMatchObject({
    purl: `pkg:oci/jenkins@sha256%3A${'b'.repeat(64)}?repository_url=docker.io%2Fjenkins%2Fjenkins&tag=2.568.2-lts-jdk21`,
    hashes: [{ alg: 'SHA-256', content: 'b'.repeat(64) }],
  });
  const ecr = component('123456789012.dkr.ecr.eu-west-1.amazonaws.com/team/app');
  expect(ecr.purl).toBe(`pkg:docker/team/app@sha256%3A${'0'.repeat(64)}?repository_url=123456789012.dkr.ecr.eu-west-1.amazonaws.com`);
  expect([ecr.hashes, ecr.properties]).toEqual([undefined, [{ name: 'fw:placeholder-digest', value: 'true' }]]);
  expect(component('nginx').purl).toBe('pkg:docker/nginx@1.29');
  expect(component('amazon-linux-2023').purl).toBe('pkg:generic/amazon-linux-2023@ami-0123456789abcdef0');
  expect(deployedComponents(RuntimeType.EC2, [])[0].purl).toBe('pkg:generic/amazon-linux-2023');
});

test('each known vulnerability names what it affects, its rating, its fix and its acceptance; a plugin\'s own component without purl gets a generic one', () => {
  expect(bom.vulnerabilities.map((v: any) => v.id)).toEqual(spec.knownVulnerabilities().map((v) => v.id));
  expect(bom.vulnerabilities.find((v: any) => v.id === 'SECURITY-3972')).toMatchObject({
    source: { url: 'https://www.jenkins.io/security/advisory/2026-09-02/' },
    ratings: [{ severity: 'high' }],
    recommendation: 'Upgrade jenkins-core to 2.568.3 or later.',
    analysis: { detail: 'Accepted in acceptedAdvisories: config.xml POSTs blocked at the WAF (until 2027-01-31); by platform-security; recorded in SEC-12.' },
    affects: [{ ref: `jenkins-core@${JENKINS_CORE.version}` }],
  });
  expect(bom.vulnerabilities.find((v: any) => v.id === 'SECURITY-3908').analysis.detail).toBe('Deployed without an acceptance (a profile that only warns).');
  const own = JSON.parse(billOfMaterials(SYSTEM, [{ name: 'my tool', version: '1.0/a', type: SoftwareComponentType.APPLICATION }]).text);
  expect(own.components[0].purl).toBe('pkg:generic/my%20tool@1.0%2Fa');
  expect(own.vulnerabilities).toBeUndefined();
});

test('a plugin\'s vulnerability must name a listed component, a dependency a listed name, a hash 64 hex digits', () => {
  const wrong = new class extends JenkinsSpec {
    public knownVulnerabilities() { return [{ id: 'CVE-2026-1', component: 'core', version: '2.568.2', severity: 'High', fixedIn: '2.568.3' }]; }
    public softwareComponents() {
      return [{ name: 'a', version: '1', type: SoftwareComponentType.LIBRARY, dependsOn: ['b'], sha256: 'XYZ' }];
    }
  }();
  expect(specProblems(wrong, 'P')).toEqual(expect.arrayContaining([
    'P.softwareComponents()[0].sha256 "XYZ"; allowed: 64 lower-case hexadecimal digits.',
    'P.softwareComponents()[0].dependsOn ["b"]; allowed: names of the other components listed.',
    'P.knownVulnerabilities()[0] affects "core" "2.568.2", which P.softwareComponents() does not list; allowed: the name and version of a listed component.',
  ]));
});
