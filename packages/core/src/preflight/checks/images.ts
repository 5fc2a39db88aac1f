import type { AwsCalls } from '../clients';
import type { DeploymentFacts } from '../facts';
import { errorName, fail, type Finding, ok, warn } from '../finding';
import { imageConfigChecks } from './image-config';

const ECR = '@aws-sdk/client-ecr';
/** BatchGetImage's `acceptedMediaTypes`: the valid values botocore 1.44.18's ECR model lists. */
const MEDIA_TYPES = ['application/vnd.docker.distribution.manifest.v2+json', 'application/vnd.oci.image.manifest.v1+json', 'application/vnd.docker.distribution.manifest.v1+json'];
/** A placeholder digest: all zeros. */
const PLACEHOLDER = /^sha256:0{64}$/;

/**
 * Each image pulled through the deployment's ECR pull-through cache, pinned by digest (`imageDigests`): where the cache
 * rule exists already, the digest ECR gives for the pinned tag in the cache (BatchGetImage by tag, which has the
 * cache fetch it from Docker Hub with the rule's credential) against the pin. A task or an instance pulls
 * `tag@digest`, and the cache fetches on a pull by tag (aws/containers-roadmap#2837): asking by tag here both fills
 * the cache and shows the tag has not moved. Before the first deployment the rule does not exist, and this says so.
 */
export async function imageChecks(facts: DeploymentFacts, aws: AwsCalls): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const rule of facts.cacheRules) {
    const images = facts.cachedImages.filter((i) => i.prefix === rule.prefix);
    const rules = (await aws.call(ECR, 'DescribePullThroughCacheRules', { ecrRepositoryPrefixes: [rule.prefix] }).catch((e) => {
      if (errorName(e) === 'PullThroughCacheRuleNotFoundException') return { pullThroughCacheRules: [] };
      throw e;
    })).pullThroughCacheRules ?? [];
    if (rules.length === 0) {
      findings.push(warn('images', 'imageDigests', `the cache rule ${rule.prefix} does not exist yet (the deployment creates it): the ${images.length} pinned images are not checked`,
        'run preflight again after the first deployment, before the images are needed again; or check each tag\'s digest on Docker Hub before deploying'));
      continue;
    }
    if (rules[0].credentialArn && rules[0].credentialArn !== rule.credentialArn) {
      findings.push(warn('images', 'dockerHubCredentialArn', `the cache rule ${rule.prefix} uses ${rules[0].credentialArn}; the deployment gives ${rule.credentialArn}`,
        'the deployment updates the rule; check the new secret holds the Docker Hub credential'));
    }
    for (const image of images) {
      const { finding, manifest } = await imageDigest(image, aws);
      findings.push(finding, ...finding.status === 'ok' ? await imageConfigChecks(image, manifest, facts, aws) : []);
    }
  }
  return findings;
}

/** The digest check, and the manifest the cache returned with it. */
async function imageDigest(image: DeploymentFacts['cachedImages'][number], aws: AwsCalls): Promise<{ finding: Finding; manifest?: string }> {
  const name = `${image.repository}:${image.tag}`;
  if (PLACEHOLDER.test(image.digest)) {
    return { finding: fail('images', 'imageDigests', `${name} is pinned to the placeholder digest ${image.digest}`, 'set imageDigests to the digest of the image you reviewed (docker buildx imagetools inspect <image>:<tag>)') };
  }
  let response: any;
  try {
    response = await aws.call(ECR, 'BatchGetImage', { repositoryName: image.repository, imageIds: [{ imageTag: image.tag }], acceptedMediaTypes: MEDIA_TYPES });
  } catch (e) {
    if (errorName(e) === 'RepositoryNotFoundException') {
      // A cache repository is created by the first pull; a task pulls by tag and digest, which the cache may not fetch.
      return {
        finding: warn('images', 'imageDigests', `${name} is not in the cache yet: a task pulls it by tag and digest, which the cache may not fetch on a first pull `
          + '(aws/containers-roadmap#2837)', `pull it once by tag through the cache (docker pull <account>.dkr.ecr.${aws.region}.amazonaws.com/${name}), then run preflight again`),
      };
    }
    return { finding: fail('images', 'imageDigests', `${name}: the cache answered ${errorName(e)}`, 'check the cache rule and its Docker Hub credential (dockerHubCredentialArn)') };
  }
  const failure = response.failures?.[0];
  if (failure) {
    return {
      finding: fail('images', 'imageDigests', `${name}: the cache answered ${failure.failureCode}${failure.failureReason ? ` (${failure.failureReason})` : ''}`,
        failure.failureCode?.startsWith('Upstream') ? 'check the Docker Hub credential (dockerHubCredentialArn) and Docker Hub\'s rate limit' : 'check the tag exists on Docker Hub'),
    };
  }
  const served = response.images?.[0]?.imageId?.imageDigest;
  return served === image.digest
    ? { finding: ok('images', 'imageDigests', `${name} is ${image.digest} in the cache, as pinned`), manifest: response.images[0].imageManifest }
    : {
      finding: fail('images', 'imageDigests', `${name} is ${served ?? 'not served'} in the cache; the deployment pins ${image.digest}`,
        'the tag moved upstream or the pin is wrong: review the image the tag names now, then set imageDigests to its digest'),
    };
}
