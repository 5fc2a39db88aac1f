import { AL2023_IMAGE_PARAMETER } from '../contract/ec2-context';
import { DOCKER_HUB, registryOf } from '../contract/image-reference';
import { RuntimeType } from '../contract/runtime-type';
import { type SoftwareComponent, SoftwareComponentType } from '../contract/software-component';
import { pinnedByPlaceholder } from '../contract/spec-validation';

/**
 * What the framework itself deploys of the bill of materials: each container image, pinned as the tasks run it (its
 * tag, and its digest when one is given), and on EC2 the operating system: the image `ec2ImageId` pins, or in DEV
 * the one AWS's parameter resolves to at deploy. Each with its package URL (purl-spec's `oci` type for an image
 * identified by its digest, `docker` for one known by its tag only, `generic` for the machine image), and an image's
 * digest as its SHA-256 unless it is the placeholder.
 */
export function deployedComponents(runtimeType: RuntimeType, images: string[], ec2ImageId?: string): SoftwareComponent[] {
  return [
    ...images.map(imageComponent),
    ...runtimeType === RuntimeType.EC2 ? [{
      name: 'amazon-linux-2023',
      // Pinned in STAGING and PRODUCTION (ec2ImageId); DEV's is the parameter's value when it deploys.
      version: ec2ImageId ?? `resolved at deploy (the newest image of the parameter ${AL2023_IMAGE_PARAMETER})`,
      type: SoftwareComponentType.OPERATING_SYSTEM,
      purl: ec2ImageId ? `pkg:generic/amazon-linux-2023@${ec2ImageId}` : 'pkg:generic/amazon-linux-2023',
    }] : [],
  ];
}

/** An image reference (`[host/]path[:tag][@sha256:hex]`) as a component. */
function imageComponent(image: string): SoftwareComponent {
  const [name, digest] = image.split('@');
  const slash = name.lastIndexOf('/');
  const colon = name.lastIndexOf(':');
  const [repository, tag] = colon > slash ? [name.slice(0, colon), name.slice(colon + 1)] : [name, 'latest'];
  const host = registryOf(repository);
  const path = host ? repository.slice(host.length + 1) : repository;
  const identified = digest !== undefined && !pinnedByPlaceholder(`${tag}@${digest}`);
  // purl-spec: oci's name is the last path segment, the digest its version, where it lives and the tag qualifiers.
  const purl = identified
    ? `pkg:oci/${path.split('/').pop()}@${encodeURIComponent(digest)}?repository_url=${encodeURIComponent(`${host ?? DOCKER_HUB.hosts[0]}/${path}`)}` +
      `&tag=${encodeURIComponent(tag)}`
    : `pkg:docker/${path}@${encodeURIComponent(digest ?? tag)}${host ? `?repository_url=${encodeURIComponent(host)}` : ''}`;
  return {
    name: repository,
    version: digest ? `${tag}@${digest}` : tag,
    type: SoftwareComponentType.CONTAINER,
    purl,
    ...identified && digest.startsWith('sha256:') ? { sha256: digest.slice('sha256:'.length) } : {},
  };
}
