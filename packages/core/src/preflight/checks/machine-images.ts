import { AL2023_CURRENT_IMAGE_COMMAND } from '../../contract/ec2-context';
import type { AwsCalls } from '../clients';
import type { DeploymentFacts } from '../facts';
import { fail, type Finding, ok, warn } from '../finding';

const EC2 = '@aws-sdk/client-ec2';
const KEY = 'ec2ImageId';
/** The architecture of the framework's instances (its launch templates' default instance types, and DEV's image). */
const ARCHITECTURE = 'x86_64';
/** The name of AWS's own Amazon Linux 2023 images: `al2023-ami-<version>-kernel-<kernel>-<architecture>`. */
const AL2023_NAME = /^al2023-ami-(?:minimal-)?(2023\.[\d.]+)-(kernel-.+)$/;

/**
 * Each pinned EC2 image (`ec2ImageId`) exists for this account in the region, is available, is built for the
 * framework's instances, and is AWS's Amazon Linux 2023 (the boot script uses its dnf, SSM agent, aws CLI and python3:
 * another image is named, to be checked by its owner); one past its deprecation time, or with a newer release of the
 * same image family, is named, so that moving the pin is a decision taken, not one forgotten.
 */
export async function machineImageChecks(facts: DeploymentFacts, aws: AwsCalls): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const imageId of [...new Set(facts.machineImages.map((m) => m.imageId))]) {
    // By a filter, not ImageIds: an image this account cannot launch is an empty answer rather than an error.
    const [image] = (await aws.call(EC2, 'DescribeImages', { Filters: [{ Name: 'image-id', Values: [imageId] }] })).Images ?? [];
    if (!image) {
      findings.push(fail('machine-image', KEY, `${imageId} is no image this account can launch in ${aws.region}`, `give an image of ${aws.region}: ${AL2023_CURRENT_IMAGE_COMMAND}`));
      continue;
    }
    findings.push(...await imageFindings(image, aws));
  }
  return findings;
}

async function imageFindings(image: any, aws: AwsCalls): Promise<Finding[]> {
  const id = `${image.ImageId} (${image.Name})`;
  if (image.State !== 'available') return [fail('machine-image', KEY, `${id} is ${image.State}, not available`, `give an available image: ${AL2023_CURRENT_IMAGE_COMMAND}`)];
  if (image.Architecture !== ARCHITECTURE) {
    return [fail('machine-image', KEY, `${id} is built for ${image.Architecture}; the instances are ${ARCHITECTURE}`, `give an ${ARCHITECTURE} image: ${AL2023_CURRENT_IMAGE_COMMAND}`)];
  }
  const name = AL2023_NAME.exec(image.Name ?? '');
  if (image.ImageOwnerAlias !== 'amazon' || !name) {
    return [warn('machine-image', KEY, `${id} is not AWS's Amazon Linux 2023`, 'the boot uses Amazon Linux 2023\'s dnf, SSM agent, aws CLI and python3: check the image has them, or use AWS\'s')];
  }
  const findings: Finding[] = [];
  if (image.DeprecationTime && new Date(image.DeprecationTime) < new Date()) {
    findings.push(warn('machine-image', KEY, `${id} was deprecated on ${image.DeprecationTime}`, `move to a current release: ${AL2023_CURRENT_IMAGE_COMMAND}`));
  }
  const family = image.Name.replace(name[1], '2023.*');
  const newer = ((await aws.call(EC2, 'DescribeImages', { Owners: ['amazon'], Filters: [{ Name: 'name', Values: [family] }] })).Images ?? [])
    .filter((i: any) => i.CreationDate > image.CreationDate).sort((a: any, b: any) => (a.CreationDate < b.CreationDate ? 1 : -1));
  findings.push(newer.length > 0
    ? warn('machine-image', KEY, `${id}: ${newer.length} newer release${newer.length > 1 ? 's' : ''} of ${family}, the newest ${newer[0].ImageId} (${newer[0].Name})`,
      'move ec2ImageId to it once STAGING runs it (a new release carries the distribution\'s security fixes)')
    : ok('machine-image', KEY, `${id} is available, ${ARCHITECTURE}, the newest release of ${family}`));
  return findings;
}
