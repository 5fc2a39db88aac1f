import { MockedAws } from './support';
import { RuntimeType, SecurityProfile } from '../../src';
import { machineImageChecks } from '../../src/preflight/checks/machine-images';
import { deploymentFacts, type DeploymentFacts } from '../../src/preflight/facts';
import type { Finding } from '../../src/preflight/finding';
import { EC2_IMAGE_ID, propsFor, synth } from '../support/synth';

// The pinned EC2 image (ec2ImageId) as the account has it, against EC2 DescribeImages answers shaped as botocore's
// model gives them (support.ts); the fact read from synthesised templates.

const aws = new MockedAws();
afterEach(() => {
  expect(aws.sent().filter((s) => s.misfits.length > 0)).toEqual([]);
  aws.reset();
});
afterAll(() => aws.restore());

const EC2 = '@aws-sdk/client-ec2';
const NAME = 'al2023-ami-2023.9.20251117.1-kernel-6.1-x86_64';
const FAMILY = 'al2023-ami-2023.*-kernel-6.1-x86_64';
const image = (extra: object = {}) => ({
  ImageId: EC2_IMAGE_ID, Name: NAME, State: 'available', Architecture: 'x86_64', ImageOwnerAlias: 'amazon', CreationDate: '2025-11-17T10:00:00.000Z', ...extra,
});
const facts = { machineImages: [{ stack: 'Ci', imageId: EC2_IMAGE_ID }] } as unknown as DeploymentFacts;
const statuses = (findings: Finding[]) => findings.map((f) => `${f.status} ${f.key}: ${f.message}`);
const answer = (found: object[], family: object[] = []) => {
  aws.answer(EC2, 'DescribeImages', { Images: found }, { Filters: [{ Name: 'image-id', Values: [EC2_IMAGE_ID] }] });
  aws.answer(EC2, 'DescribeImages', { Images: family }, { Owners: ['amazon'], Filters: [{ Name: 'name', Values: [FAMILY] }] });
};

test('the fact: the image a STAGING or PRODUCTION launch template names; DEV\'s is read at deployment, not asked', () => {
  const production = synth(RuntimeType.EC2, propsFor(SecurityProfile.PRODUCTION)).json;
  expect(deploymentFacts({ Ci: production }, {}, 'eu-west-1').machineImages).toEqual([{ stack: 'Ci', imageId: EC2_IMAGE_ID }]);
  expect(deploymentFacts({ Ci: synth(RuntimeType.EC2).json }, {}, 'eu-west-1').machineImages).toEqual([]);
});

test('passes: AWS\'s Amazon Linux 2023, available, x86_64, the newest of its family', async () => {
  answer([image()], [image()]);
  expect(statuses(await machineImageChecks(facts, aws.calls()))).toEqual([
    `ok ec2ImageId: ${EC2_IMAGE_ID} (${NAME}) is available, x86_64, the newest release of ${FAMILY}`,
  ]);
});

test('names a newer release and a deprecated image, so moving the pin is a decision', async () => {
  const newer = image({ ImageId: 'ami-0fedcba9876543210', Name: 'al2023-ami-2023.9.20251201.0-kernel-6.1-x86_64', CreationDate: '2025-12-01T10:00:00.000Z' });
  answer([image({ DeprecationTime: '2025-12-01T00:00:00.000Z' })], [image(), newer]);
  expect(statuses(await machineImageChecks(facts, aws.calls()))).toEqual([
    `warn ec2ImageId: ${EC2_IMAGE_ID} (${NAME}) was deprecated on 2025-12-01T00:00:00.000Z`,
    `warn ec2ImageId: ${EC2_IMAGE_ID} (${NAME}): 1 newer release of ${FAMILY}, the newest ami-0fedcba9876543210 (${newer.Name})`,
  ]);
});

test('fails: an image the account cannot launch in the region, one not available, one for another architecture; names another distribution', async () => {
  answer([]);
  expect(statuses(await machineImageChecks(facts, aws.calls()))).toEqual([`fail ec2ImageId: ${EC2_IMAGE_ID} is no image this account can launch in eu-west-1`]);
  aws.reset();
  answer([image({ State: 'deregistered' })]);
  expect(statuses(await machineImageChecks(facts, aws.calls()))).toEqual([`fail ec2ImageId: ${EC2_IMAGE_ID} (${NAME}) is deregistered, not available`]);
  aws.reset();
  answer([image({ Architecture: 'arm64' })]);
  expect(statuses(await machineImageChecks(facts, aws.calls()))).toEqual([`fail ec2ImageId: ${EC2_IMAGE_ID} (${NAME}) is built for arm64; the instances are x86_64`]);
  aws.reset();
  answer([image({ ImageOwnerAlias: undefined, Name: 'hardened-al2023-2025-11' })]);
  expect(statuses(await machineImageChecks(facts, aws.calls()))).toEqual([`warn ec2ImageId: ${EC2_IMAGE_ID} (hardened-al2023-2025-11) is not AWS's Amazon Linux 2023`]);
});
