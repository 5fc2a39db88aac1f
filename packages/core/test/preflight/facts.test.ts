import { JenkinsSpec, RuntimeType, SecurityProfile } from '../../src';
import { CONTEXT_KEYS } from '../../src/context/context-keys';
import type { ExistingVpc } from '../../src/context/existing-vpc';
import { deploymentFacts } from '../../src/preflight/facts';
import { DOCKER_HUB_CREDENTIAL, IMAGE_DIGESTS, OIDC, propsFor, synth } from '../support/synth';

// What preflight asks AWS about, read from a synthesised PRODUCTION build server in a given VPC that creates its own
// endpoints, with the conformance pack and Security Hub's standard: one synth, every fact.

const GIVEN = { ...CONTEXT_KEYS.find((k) => k.name === 'existingVpc')!.example as ExistingVpc, endpoints: 'create' };
const props = {
  ...propsFor(SecurityProfile.PRODUCTION), authMode: 'application-oidc', oidc: OIDC, existingVpc: GIVEN, pciConformancePack: true, securityHubPciDss: true,
};
const { json } = synth(RuntimeType.FARGATE, props, new JenkinsSpec());
const facts = deploymentFacts({ WikiStack: json }, { existingVpc: JSON.stringify(GIVEN), dockerHubCredentialArn: DOCKER_HUB_CREDENTIAL }, 'eu-west-1');

test('the given VPC, as existingVpc states it', () => {
  expect(facts.existingVpc).toMatchObject({ vpcId: GIVEN.vpcId, endpoints: 'create' });
  expect(facts.existingVpc!.subnets.map((s) => s.subnetId).sort()).toEqual(
    [...GIVEN.loadBalancerSubnets, ...GIVEN.computeSubnets, ...GIVEN.dataSubnets ?? []].map((s) => s.subnetId).sort());
});

test('the endpoints the template creates in it, with their services resolved in the region', () => {
  expect(facts.endpoints.map((e) => `${e.service} ${e.type} ${e.privateDns} ${e.vpcId}`).sort()).toEqual(expect.arrayContaining([
    `logs Interface true ${GIVEN.vpcId}`, `s3 Gateway false ${GIVEN.vpcId}`, `secretsmanager Interface true ${GIVEN.vpcId}`,
  ]));
  const s3 = facts.endpoints.find((e) => e.service === 's3')!;
  expect(s3.routeTableIds.sort()).toEqual(GIVEN.computeSubnets.map((s) => s.routeTableId).sort());
});

test('the cache rule, and each image pulled through it with the pinned digest', () => {
  expect(facts.cacheRules).toEqual([{ prefix: expect.stringMatching(/^fw-hub-[0-9a-f]{8}$/), credentialArn: DOCKER_HUB_CREDENTIAL }]);
  const prefix = facts.cacheRules[0].prefix;
  expect(facts.cachedImages.map((i) => `${i.repository}:${i.tag}@${i.digest}`).sort()).toEqual(
    Object.entries(IMAGE_DIGESTS).map(([image, digest]) => `${prefix}/${image}@${digest}`).sort());
  // The controller's container, as the template runs it: what the image's own configuration is compared with.
  const controller = facts.containers.find((c) => c.image.includes(`${prefix}/jenkins/jenkins:`))!;
  expect(controller).toMatchObject({ stack: 'WikiStack', ports: expect.arrayContaining([8080]), command: false });
  expect(controller.mounts.length).toBeGreaterThan(0);
});

test('the secrets named, the zone and its record, the certificate requested, and the compliance services', () => {
  expect(facts.secretArns).toContain(DOCKER_HUB_CREDENTIAL);
  expect(facts.secretArns.every((a) => !a.includes('*'))).toBe(true);
  expect(facts.zoneRecords).toEqual([{ zoneId: 'Z0123456789ABCDEFGHIJ', names: ['wiki.example.com'] }]);
  expect(facts.requestedCertificates).toEqual([{ domainName: 'wiki.example.com', zoneIds: ['Z0123456789ABCDEFGHIJ'] }]);
  expect([facts.conformancePack, facts.securityHubStandard]).toEqual([true, true]);
});

test('what the deployment adds toward the quotas', () => {
  expect(facts.counts.targetGroups).toBeGreaterThan(0);
  expect(facts.counts.mostRules.inbound.rules).toBeGreaterThan(0);
  expect(facts.counts.mostRules.inbound.group).toMatch(/^WikiStack\//);
});
