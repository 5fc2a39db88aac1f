import type { AwsCalls } from '../clients';
import type { CachedImage, DeploymentFacts, TaskContainer } from '../facts';
import { errorName, fail, type Finding, ok, warn } from '../finding';

const ECR = '@aws-sdk/client-ecr';
/** The platform a task or an instance runs: Fargate's default and the EC2 runtime's instances are x86-64 Linux. */
const PLATFORM = { os: 'linux', architecture: 'amd64' };
/** The users an image runs as when its configuration names none, or names root. */
const ROOT = new Set(['', 'root', '0', '0:0', 'root:root']);

/**
 * An image's own configuration (OCI image-spec, "Image Configuration": `config.User`, `ExposedPorts`, `Volumes`,
 * `Entrypoint`, `Cmd`), read from the cache (its manifest by the pinned digest, which the cache holds already, through
 * BatchGetImage; its configuration blob through `GetDownloadUrlForLayer`), against each ECS container that runs it: an image that names no user starts as root, so
 * a container run as another user may fail where it writes; a port the container is sent traffic on that the image
 * does not expose may be one it does not listen on; a volume the image declares that the container does not mount
 * keeps its data in the task's own storage, which a replacement loses; an image with neither entrypoint nor command
 * starts nothing unless the template gives one. Containers on EC2 (run by the user data) are not read here.
 */
export async function imageConfigChecks(image: CachedImage, facts: DeploymentFacts, aws: AwsCalls): Promise<Finding[]> {
  const containers = facts.containers.filter((c) => c.image.includes(`${image.repository}:${image.tag}@${image.digest}`));
  if (containers.length === 0) return [];
  const name = `${image.repository}:${image.tag}`;
  let config: any;
  try {
    config = (await imageConfiguration(image, await manifestOf(image, image.digest, aws), aws))?.config;
  } catch (e) {
    return [warn('images', 'imageDigests', `${name}: its configuration was not read (${errorName(e)})`, 'compare the image\'s user, ports and volumes with the plugin\'s by hand (docker image inspect)')];
  }
  if (!config) return [warn('images', 'imageDigests', `${name}: no ${PLATFORM.os}/${PLATFORM.architecture} configuration in the cache`, 'check the image is built for it')];
  return containers.flatMap((c) => compare(name, config, c));
}

function compare(name: string, config: any, container: TaskContainer): Finding[] {
  const key = 'containerImage';
  const findings: Finding[] = [];
  const imageUser = String(config.User ?? '');
  if (container.user !== undefined && !ROOT.has(container.user) && ROOT.has(imageUser)) {
    findings.push(warn('images', key, `${name} names ${imageUser ? `user ${imageUser}` : 'no user'} (it starts as root); ${container.stack} runs it as ${container.user}`,
      'check it starts as that user (its files and directories must be theirs), or state the image\'s own user'));
  }
  const exposed = Object.keys(config.ExposedPorts ?? {}).map((p) => Number(p.split('/')[0]));
  for (const port of container.ports.filter((p) => exposed.length > 0 && !exposed.includes(p))) {
    findings.push(warn('images', key, `${name} exposes ${exposed.join(', ')}; ${container.stack} sends traffic to ${port}`, 'check the port the application listens on'));
  }
  for (const volume of Object.keys(config.Volumes ?? {}).filter((v) => !container.mounts.includes(v))) {
    findings.push(warn('images', key, `${name} declares the volume ${volume}, which ${container.stack} does not mount: its data stays in the task's storage and a replacement loses it`,
      'make it the data path if it holds data, or check it holds none'));
  }
  if (!container.command && (config.Entrypoint ?? []).length === 0 && (config.Cmd ?? []).length === 0) {
    findings.push(fail('images', key, `${name} names no entrypoint and no command, and ${container.stack} gives none`, 'use an image that starts its application'));
  }
  return findings.length > 0 ? findings : [ok('images', key, `${name}: its user, ports, volumes and command fit ${container.stack}'s container`)];
}

/** The manifest the cache holds under a digest. */
async function manifestOf(image: CachedImage, digest: string, aws: AwsCalls): Promise<any> {
  const response = await aws.call(ECR, 'BatchGetImage', { repositoryName: image.repository, imageIds: [{ imageDigest: digest }] });
  return JSON.parse(response.images?.[0]?.imageManifest ?? '{}');
}

/** The image configuration blob of the manifest (of its linux/amd64 manifest, for an index). */
async function imageConfiguration(image: CachedImage, manifest: any, aws: AwsCalls): Promise<any> {
  let own = manifest;
  if (Array.isArray(manifest.manifests)) {
    const entry = manifest.manifests.find((m: any) => m.platform?.os === PLATFORM.os && m.platform?.architecture === PLATFORM.architecture);
    if (!entry) return undefined;
    own = await manifestOf(image, entry.digest, aws);
  }
  if (!own.config?.digest) return undefined;
  const { downloadUrl } = await aws.call(ECR, 'GetDownloadUrlForLayer', { repositoryName: image.repository, layerDigest: own.config.digest });
  const blob = await fetch(downloadUrl);
  if (!blob.ok) throw Object.assign(new Error(`the configuration blob answered ${blob.status}`), { name: `HTTP ${blob.status}` });
  return blob.json();
}
