import { aws_ecr as ecr, aws_ecs as ecs, aws_iam as iam, type RemovalPolicy, Stack, Token } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { purposeKey } from './keys';
import { shortHash } from './names';
import { wildcardPolicy } from '../compliance/acknowledge';
import { DOCKER_HUB, registryOf } from '../contract/image-reference';
import { IMAGE_DIGEST_SUFFIX } from '../contract/spec-validation';
import { UserError } from '../errors';

/** Whether an image comes from Docker Hub: no registry, or one of Docker Hub's names. */
export function isDockerHubImage(image: string): boolean {
  const registry = registryOf(image);
  return registry === undefined || (DOCKER_HUB.hosts as readonly string[]).includes(registry);
}

/** Whether an image names a tag or a digest; without either, Docker takes `latest`, whatever it is that day. */
export function hasTagOrDigest(image: string): boolean {
  const name = image.slice(image.lastIndexOf('/') + 1);
  return name.includes(':') || name.includes('@');
}

/**
 * The cache's repository prefix for a stack and credential: ECR takes 2 to 30 characters (botocore 1.44.8,
 * `PullThroughCacheRuleRepositoryPrefix`), and a rule is unique in the account and region, so each stack has its own.
 * The credential is part of it: the rule's `CredentialArn` is create-only and its prefix is its name
 * (aws/cloudformation/resource-schemas.json), so another credential needs another prefix, or the update would fail
 * replacing the rule under the same name. The same secret with a new value keeps the prefix.
 */
export function cachePrefix(stackName: string, credentialArn: string): string {
  return `fw-hub-${shortHash(`${stackName}\n${credentialArn}`)}`;
}

/**
 * What ECR's repositories for cached images get (an ECR lifecycle policy): the newest `CACHED_IMAGES_KEPT` images of
 * each, whatever their tags; the task definitions pin digests, and an expired image is pulled again from upstream.
 */
export const CACHED_IMAGES_KEPT = 20;

export interface DockerHubCacheProps {
  /** The Secrets Manager secret (`ecr-pullthroughcache/...`) with the Docker Hub credential, in the stack's account and region. */
  readonly credentialArn: string;
  /** Of the key that encrypts the cached images. */
  readonly removalPolicy: RemovalPolicy;
}

/**
 * An ECR pull-through cache of Docker Hub, with the credential ECR signs in with, and the repository creation template
 * for its prefix: ECR creates a repository at the first pull of each image, and without a template it would have
 * AWS-owned encryption, no lifecycle policy and no tags.
 */
export class DockerHubCache extends Construct {
  public readonly prefix: string;

  constructor(scope: Construct, id: string, props: DockerHubCacheProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.prefix = cachePrefix(stack.stackName, props.credentialArn);
    refuseCredentialElsewhere(stack, props.credentialArn);
    new ecr.CfnPullThroughCacheRule(this, 'Rule', {
      ecrRepositoryPrefix: this.prefix,
      upstreamRegistry: DOCKER_HUB.upstream,
      upstreamRegistryUrl: DOCKER_HUB.url,
      credentialArn: props.credentialArn,
    });
    const key = purposeKey(this, 'Key', 'cached container images', props.removalPolicy);
    // A template with a KMS key or tags needs a role of its own for ECR to create the repositories with ("Create a
    // custom policy for repository creation templates", ECR user guide), here limited to the cache's repositories and key.
    const role = new iam.Role(this, 'RepositoryCreationRole', {
      assumedBy: new iam.ServicePrincipal('ecr.amazonaws.com'),
      description: `ECR creates the repositories of the pull-through cache ${this.prefix} with this role`,
    });
    const policy = wildcardPolicy(this, 'RepositoryCreation', role, 'repository creation', [
      new iam.PolicyStatement({
        actions: ['ecr:CreateRepository', 'ecr:TagResource'],
        resources: [stack.formatArn({ service: 'ecr', resource: 'repository', resourceName: `${this.prefix}/*` })],
      }),
      new iam.PolicyStatement({ actions: ['kms:CreateGrant', 'kms:RetireGrant', 'kms:DescribeKey'], resources: [key.keyArn] }),
    ], 'ECR creates the cache\'s repositories under its prefix at the first pull of each image; their names are not known before.');
    new ecr.CfnRepositoryCreationTemplate(this, 'RepositoryTemplate', {
      prefix: this.prefix,
      appliedFor: ['PULL_THROUGH_CACHE'],
      description: `Repositories of the pull-through cache of Docker Hub in ${stack.stackName}`,
      encryptionConfiguration: { encryptionType: 'KMS', kmsKey: key.keyArn },
      lifecyclePolicy: JSON.stringify({
        rules: [{
          rulePriority: 1,
          description: `Keep the newest ${CACHED_IMAGES_KEPT} images`,
          selection: { tagStatus: 'any', countType: 'imageCountMoreThan', countNumber: CACHED_IMAGES_KEPT },
          action: { type: 'expire' },
        }],
      }),
      resourceTags: [{ key: 'fw:cache-of', value: stack.stackName }],
      customRoleArn: role.roleArn,
    }).node.addDependency(policy);
  }
}

/**
 * ECR signs in to Docker Hub with a secret of the rule's own account and region; a literal ARN of another is refused
 * at synth, naming both (a deploy-time ARN is left to ECR).
 */
function refuseCredentialElsewhere(stack: Stack, credentialArn: string): void {
  if (Token.isUnresolved(credentialArn)) return;
  const [, , , region, account] = credentialArn.split(':');
  const problems = [
    ...!Token.isUnresolved(stack.region) && region !== stack.region ? [`its region is ${region}, the stack's ${stack.region}`] : [],
    ...!Token.isUnresolved(stack.account) && account !== stack.account ? [`its account is ${account}, the stack's ${stack.account}`] : [],
  ];
  if (problems.length > 0) {
    throw new UserError(`dockerHubCredentialArn ${credentialArn}: ${problems.join('; ')}. ECR's pull-through cache takes a ` +
      'credential in its own account and region: create the secret (ecr-pullthroughcache/...) there and give its ARN.');
  }
}

/** Whether an image reference ends in a digest (`@sha256:` and 64 hex digits). */
export function hasDigest(image: string): boolean {
  return IMAGE_DIGEST_SUFFIX.test(image);
}

/**
 * Where a task pulls its images from: each image with its digest when `digests` gives one, Docker Hub's through the
 * cache of `prefix`, every other registry's as named.
 */
export class ImageSource {
  constructor(private readonly prefix?: string, private readonly digests: Record<string, string> = {}) {}

  /** The image pinned by its digest, when it names none and `digests` has one. */
  public pinned(image: string): string {
    return !hasDigest(image) && this.digests[image] ? `${image}@${this.digests[image]}` : image;
  }

  /**
   * The image a task runs, pinned: a Docker Hub image as `<account>.dkr.ecr.<region>.<suffix>/<prefix>/<path>` (an
   * official image's path starts with `library/`: ECR user guide, "Using pull through cache rules"), others unchanged.
   */
  public reference(scope: Construct, named: string): string {
    const image = this.pinned(named);
    if (!this.cached(image)) return image;
    const stack = Stack.of(scope);
    return `${stack.account}.dkr.ecr.${stack.region}.${stack.urlSuffix}/${this.cachePath(image)}`;
  }

  /**
   * The image for a container, with the pulls granted to the task's execution role (once a task definition).
   */
  public containerImage(taskDefinition: ecs.TaskDefinition, image: string): ecs.ContainerImage {
    this.grantPulls(taskDefinition, image, taskDefinition.obtainExecutionRole());
    return ecs.ContainerImage.fromRegistry(this.reference(taskDefinition, image));
  }

  /**
   * Lets `role` pull `image` through the cache (once a scope, as the policy `ImagePulls`; nothing for an image the cache
   * does not serve): the authorisation token, and on the cache's repositories the layer reads, the import from upstream
   * and the repository's creation at the first pull (ECR user guide, "IAM permissions required to sync an upstream
   * registry").
   */
  public grantPulls(scope: Construct, image: string, role: iam.IRole): iam.Policy | undefined {
    if (!this.cached(image)) return undefined;
    const existing = scope.node.tryFindChild('ImagePulls');
    if (existing) return existing as iam.Policy;
    const stack = Stack.of(scope);
    return wildcardPolicy(scope, 'ImagePulls', role, 'image pull', [
      new iam.PolicyStatement({ actions: ['ecr:GetAuthorizationToken'], resources: ['*'] }),
      new iam.PolicyStatement({
        actions: ['ecr:BatchGetImage', 'ecr:GetDownloadUrlForLayer', 'ecr:BatchImportUpstreamImage', 'ecr:CreateRepository'],
        resources: [stack.formatArn({ service: 'ecr', resource: 'repository', resourceName: `${this.prefix}/*` })],
      }),
    ], 'ecr:GetAuthorizationToken takes no resource; the pulls are limited to the pull-through cache\'s repositories, ' +
      'which ECR creates under its prefix at the first pull of each image.');
  }

  /** The region of the ECR registry the image is pulled from (the cache's: the stack's), or undefined for another registry. */
  public loginRegion(scope: Construct, image: string): string | undefined {
    return this.cached(image) ? Stack.of(scope).region : undefined;
  }

  /**
   * The cache's repository, the tag and the pinned digest of an image pulled through the cache by digest (what
   * `ImageDigestCheck` compares), or undefined for one that is not.
   */
  public pinnedInCache(named: string): { readonly repository: string; readonly tag: string; readonly digest: string } | undefined {
    const [name, digest] = this.pinned(named).split('@');
    const colon = name.lastIndexOf(':');
    if (!this.cached(name) || !digest || colon <= name.lastIndexOf('/')) return undefined;
    return { repository: this.cachePath(name.slice(0, colon)), tag: name.slice(colon + 1), digest };
  }

  /** A Docker Hub image's path in the cache: under its prefix, an official image's under `library/`. */
  private cachePath(image: string): string {
    const registry = registryOf(image);
    const path = registry ? image.slice(registry.length + 1) : image;
    return `${this.prefix}/${path.includes('/') ? path : `library/${path}`}`;
  }

  /** Whether a task pulls the image through the cache. */
  private cached(image: string): boolean {
    return this.prefix !== undefined && isDockerHubImage(image);
  }
}
