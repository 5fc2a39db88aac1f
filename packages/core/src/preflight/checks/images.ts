import { PLACEHOLDER_DIGEST } from '../../contract/spec-validation';
import type { AwsCalls } from '../clients';
import type { DeploymentFacts } from '../facts';
import { errorName, fail, type Finding, ok, warn } from '../finding';
import { imageConfigChecks } from './image-config';

const ECR = '@aws-sdk/client-ecr';

/**
 * Each image pulled through the deployment's ECR pull-through cache, pinned by digest (`imageDigests`): where the cache
 * rule exists already, what the cache holds for the pinned tag (DescribeImages, which reads and never pulls: a pull by
 * tag would have the cache fetch from Docker Hub, a change to the account) against the pin. A task or an instance pulls
 * `tag@digest`, which the cache may not fetch on a first pull (aws/containers-roadmap#2837): an image not yet in the
 * cache is named with the pull by tag that fetches it. Before the first deployment the rule does not exist, and this
 * says so.
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
      const finding = await imageDigest(image, aws);
      findings.push(finding, ...finding.status === 'ok' ? await imageConfigChecks(image, facts, aws) : []);
    }
  }
  return findings;
}

/** What the cache holds for the pinned tag, against the pinned digest. */
async function imageDigest(image: DeploymentFacts['cachedImages'][number], aws: AwsCalls): Promise<Finding> {
  const name = `${image.repository}:${image.tag}`;
  if (image.digest === PLACEHOLDER_DIGEST) {
    return fail('images', 'imageDigests', `${name} is pinned to the placeholder digest ${image.digest}`, 'set imageDigests to the digest of the image you reviewed (docker buildx imagetools inspect <image>:<tag>)');
  }
  let held: string | undefined;
  try {
    held = (await aws.call(ECR, 'DescribeImages', { repositoryName: image.repository, imageIds: [{ imageTag: image.tag }] })).imageDetails?.[0]?.imageDigest;
  } catch (e) {
    if (!['RepositoryNotFoundException', 'ImageNotFoundException'].includes(errorName(e))) {
      return fail('images', 'imageDigests', `${name}: the cache answered ${errorName(e)}`, 'check the cache rule and its Docker Hub credential (dockerHubCredentialArn)');
    }
  }
  if (held === undefined) {
    return warn('images', 'imageDigests', `${name} is not in the cache yet: a task pulls it by tag and digest, which the cache may not fetch on a first pull `
      + '(aws/containers-roadmap#2837)', `pull it once by tag through the cache (docker pull <account>.dkr.ecr.${aws.region}.amazonaws.com/${name}), then run preflight again`);
  }
  return held === image.digest
    ? ok('images', 'imageDigests', `${name} is ${image.digest} in the cache, as pinned`)
    : fail('images', 'imageDigests', `${name} is ${held} in the cache; the deployment pins ${image.digest}`,
      'the tag moved upstream or the pin is wrong: review the image the tag names now, then set imageDigests to its digest');
}
