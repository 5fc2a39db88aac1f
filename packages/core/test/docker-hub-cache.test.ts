import * as fs from 'fs';
import * as path from 'path';
import { App, CfnResource, Stack } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { ApplicationFactory, JenkinsSpec, RuntimeType, SecurityProfile } from '../src';
import { WikiSpec } from './fixtures/wiki-spec';
import { DOCKER_HUB_CREDENTIAL, OIDC, only, propsFor, REGION_ENV, resources, synth } from './support/synth';
import { DOCKER_HUB_CREDENTIAL_ARN } from '../src/context/key-parsers';
import { DOCKER_HUB } from '../src/contract/image-reference';
import { CACHED_IMAGES_KEPT, cachePrefix, hasTagOrDigest, ImageSource, isDockerHubImage } from '../src/infrastructure/docker-hub-cache';
import { ecrLayerBucket } from '../src/infrastructure/endpoints';

/**
 * Docker Hub allows 100 anonymous pulls in 6 hours per address (Docker's "Docker Hub usage and limits"), and every
 * Fargate task pulls: in STAGING and PRODUCTION the framework pulls Docker Hub images through an ECR pull-through cache.
 * The rule's values are checked against ECR's API model (aws/ecr/pull-through-cache.json, from botocore 1.44.8).
 */
const ECR = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'aws', 'ecr', 'pull-through-cache.json'), 'utf-8'));
const SIGN_IN = { authMode: 'application-oidc', oidc: OIDC, domain: 'example.com' };

test('the rule\'s upstream, its credential and its prefix are values ECR takes', () => {
  expect(ECR.UpstreamRegistry.enum).toContain(DOCKER_HUB.upstream);
  expect(ECR.upstreamRegistryUrlDocumentation).toContain(`Docker Hub (<code>${DOCKER_HUB.upstream}</code>) – <code>${DOCKER_HUB.url}</code>`);
  const credential = new RegExp(ECR.CredentialArn.pattern);
  expect(credential.test(DOCKER_HUB_CREDENTIAL)).toBe(true);
  // The context key accepts nothing ECR would refuse.
  for (const arn of [DOCKER_HUB_CREDENTIAL, 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:ecr-pullthroughcache/hub/team-x-AbCdEf']) {
    expect([arn, DOCKER_HUB_CREDENTIAL_ARN.test(arn), credential.test(arn)]).toEqual([arn, true, true]);
  }
  expect(DOCKER_HUB_CREDENTIAL_ARN.test('arn:aws:secretsmanager:eu-west-1:123456789012:secret:docker-hub-AbCdEf')).toBe(false);
  for (const stackName of ['a', 'fw-build-server', 'x'.repeat(128)]) {
    const prefix = cachePrefix(stackName, DOCKER_HUB_CREDENTIAL);
    expect(prefix.length).toBeGreaterThanOrEqual(ECR.PullThroughCacheRuleRepositoryPrefix.min);
    expect(prefix.length).toBeLessThanOrEqual(ECR.PullThroughCacheRuleRepositoryPrefix.max);
    expect(prefix).toMatch(new RegExp(ECR.PullThroughCacheRuleRepositoryPrefix.pattern));
  }
});

test('Docker Hub images go through the cache, official ones under library/ (ECR user guide, pull through cache); others stay', () => {
  const stack = new Stack(new App(), 'S', { env: { account: '123456789012', region: 'eu-west-1' } });
  const images = new ImageSource('fw-hub-12345678');
  const ecr = `123456789012.dkr.ecr.eu-west-1.${stack.urlSuffix}/fw-hub-12345678`;
  expect(images.reference(stack, 'jenkins/jenkins:2.568.2-lts-jdk21')).toBe(`${ecr}/jenkins/jenkins:2.568.2-lts-jdk21`);
  expect(images.reference(stack, 'nginx:1.27.3')).toBe(`${ecr}/library/nginx:1.27.3`);
  expect(images.reference(stack, 'docker.io/library/nginx:1.27.3')).toBe(`${ecr}/library/nginx:1.27.3`);
  expect(images.reference(stack, 'jenkins/jenkins:2.568.2@sha256:' + 'a'.repeat(64))).toBe(`${ecr}/jenkins/jenkins:2.568.2@sha256:${'a'.repeat(64)}`);
  for (const other of ['ghcr.io/example/wiki:1.4.2', 'public.ecr.aws/docker/library/nginx:1', 'localhost:5000/x:1', '123456789012.dkr.ecr.eu-west-1.amazonaws.com/app:1']) {
    expect(isDockerHubImage(other)).toBe(false);
    expect(images.reference(stack, other)).toBe(other);
  }
  expect(new ImageSource().reference(stack, 'nginx:1.27.3')).toBe('nginx:1.27.3');
  expect([hasTagOrDigest('nginx'), hasTagOrDigest('localhost:5000/nginx'), hasTagOrDigest('nginx:1'), hasTagOrDigest('nginx@sha256:ab')]).toEqual([false, false, true, true]);
});

describe('the build server in STAGING', () => {
  const { json } = synth(RuntimeType.FARGATE, { ...propsFor(SecurityProfile.STAGING), ...SIGN_IN }, new JenkinsSpec());
  const prefix = cachePrefix('WikiStack', DOCKER_HUB_CREDENTIAL);

  test('a pull-through cache rule of Docker Hub with the credential, and the controller and agents pulled through it', () => {
    expect(only(json, 'AWS::ECR::PullThroughCacheRule').Properties).toEqual({
      EcrRepositoryPrefix: prefix, UpstreamRegistry: 'docker-hub', UpstreamRegistryUrl: 'registry-1.docker.io', CredentialArn: DOCKER_HUB_CREDENTIAL,
    });
    const images = resources(json, 'AWS::ECS::TaskDefinition').flatMap(([, t]) => t.Properties.ContainerDefinitions.map((c: any) => JSON.stringify(c.Image)));
    expect(images.length).toBe(3); // the controller, its init container, the agent
    for (const image of images) expect(image).toContain('.dkr.ecr.eu-west-1.');
    expect(images.some((i) => i.includes(`/${prefix}/jenkins/jenkins:`))).toBe(true);
    expect(images.some((i) => i.includes(`/${prefix}/jenkins/inbound-agent:`))).toBe(true);
  });

  test('the repositories ECR creates for the cache get a creation template: KMS under a key of their own, a lifecycle policy, tags', () => {
    const template = only(json, 'AWS::ECR::RepositoryCreationTemplate').Properties;
    const model = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'aws', 'ecr', 'repository-creation-template.json'), 'utf-8'));
    // What ECR takes (aws/ecr/repository-creation-template.json, from botocore's ECR model).
    expect(template.Prefix).toBe(prefix);
    expect(new RegExp(model.Prefix.pattern).test(template.Prefix)).toBe(true);
    expect(template.AppliedFor).toEqual(['PULL_THROUGH_CACHE']);
    expect(model.RCTAppliedFor.enum).toContain('PULL_THROUGH_CACHE');
    expect(model.EncryptionType.enum).toContain(template.EncryptionConfiguration.EncryptionType);
    expect(template.EncryptionConfiguration).toEqual({ EncryptionType: 'KMS', KmsKey: { 'Fn::GetAtt': [expect.stringMatching(/DockerHubCacheKey/), 'Arn'] } });
    expect(template.LifecyclePolicy.length).toBeLessThanOrEqual(model.LifecyclePolicyTextForRepositoryCreationTemplate.max);
    expect(JSON.parse(template.LifecyclePolicy).rules).toEqual([expect.objectContaining({
      selection: { tagStatus: 'any', countType: 'imageCountMoreThan', countNumber: CACHED_IMAGES_KEPT }, action: { type: 'expire' },
    })]);
    expect(template.ResourceTags).toEqual([{ Key: 'fw:cache-of', Value: 'WikiStack' }]);
    expect(template.Description.length).toBeLessThanOrEqual(model.RepositoryTemplateDescription.max);
    // ECR creates them with a role of the stack's, which may create and tag the cache's repositories and grant on its key only.
    const [roleId] = template.CustomRoleArn['Fn::GetAtt'];
    expect(json.Resources[roleId].Properties.AssumeRolePolicyDocument.Statement).toEqual([expect.objectContaining({ Principal: { Service: 'ecr.amazonaws.com' } })]);
    const [[, policy]] = resources(json, 'AWS::IAM::Policy').filter(([, p]) => JSON.stringify(p.Properties.Roles).includes(roleId));
    const statements = policy.Properties.PolicyDocument.Statement;
    expect(statements.map((s: any) => [s.Action, JSON.stringify(s.Resource)])).toEqual([
      [['ecr:CreateRepository', 'ecr:TagResource'], expect.stringContaining(`:repository/${prefix}/*`)],
      [['kms:CreateGrant', 'kms:RetireGrant', 'kms:DescribeKey'], expect.stringMatching(/^\{"Fn::GetAtt":\["\w*DockerHubCacheKey\w+","Arn"\]\}$/)],
    ]);
  });

  test('the execution roles may pull, import and create only the cache\'s repositories', () => {
    const statements = resources(json, 'AWS::IAM::Policy').flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
    const pulls = statements.filter((s: any) => [s.Action].flat().includes('ecr:BatchImportUpstreamImage'));
    expect(pulls.length).toBe(3); // the application's task, the agents', the check of the application's pinned digest
    for (const s of pulls) {
      expect(s.Action).toEqual(['ecr:BatchGetImage', 'ecr:GetDownloadUrlForLayer', 'ecr:BatchImportUpstreamImage', 'ecr:CreateRepository']);
      expect(JSON.stringify(s.Resource)).toContain(`:repository/${prefix}/*`);
    }
  });

  test('the S3 gateway endpoint lets ECR\'s layers through (its own policy refuses buckets of other accounts)', () => {
    const endpoint = resources(json, 'AWS::EC2::VPCEndpoint').map(([, e]) => e.Properties).find((e) => e.VpcEndpointType === 'Gateway');
    expect(JSON.stringify(endpoint.PolicyDocument)).toContain(`:s3:::${ecrLayerBucket('eu-west-1')}/*`);
  });
});

test('a credential of another region or account is refused, naming both: ECR takes one of its own account and region', () => {
  const attempt = (credential: string) => () => {
    const stack = new Stack(new App(), 'WikiStack', { env: { region: 'eu-west-1', account: '123456789012' } });
    new ApplicationFactory(stack, 'App', RuntimeType.FARGATE, new JenkinsSpec(), { ...propsFor(SecurityProfile.STAGING), ...SIGN_IN, dockerHubCredentialArn: credential } as any);
  };
  expect(attempt(DOCKER_HUB_CREDENTIAL.replace('eu-west-1', 'us-east-1'))).toThrow(
    /^dockerHubCredentialArn arn:aws:secretsmanager:us-east-1:123456789012:secret:ecr-pullthroughcache\/docker-hub-AbCdEf: its region is us-east-1, the stack's eu-west-1\. ECR's pull-through cache takes a credential in its own account and region/);
  expect(attempt(DOCKER_HUB_CREDENTIAL.replace('123456789012', '210987654321'))).toThrow(/its account is 210987654321, the stack's 123456789012\./);
  expect(attempt(DOCKER_HUB_CREDENTIAL)).not.toThrow();
});

test('without the credential, STAGING and PRODUCTION refuse a Docker Hub image, naming the member, the image and the key', () => {
  for (const profile of [SecurityProfile.STAGING, SecurityProfile.PRODUCTION]) {
    const { dockerHubCredentialArn, ...props } = propsFor(profile);
    expect(dockerHubCredentialArn).toBeDefined();
    expect(() => synth(RuntimeType.FARGATE, { ...props, ...SIGN_IN, alarmEmail: 'security@example.com' }, new JenkinsSpec())).toThrow(new RegExp(
      'JenkinsSpec: defaultContainerImage\\(\\) is the Docker Hub image "jenkins/jenkins:[^"]+", and ephemeralWorkers\\(\\).image is the Docker Hub ' +
      `image "jenkins/inbound-agent:[^"]+"; in ${profile} every task would pull from Docker Hub, .* Set dockerHubCredentialArn to a Secrets Manager secret named ecr-pullthroughcache/`));
  }
  // DEV pulls from Docker Hub, and an image from another registry needs no cache.
  expect(resources(synth(RuntimeType.FARGATE, SIGN_IN as any, new JenkinsSpec()).json, 'AWS::ECR::PullThroughCacheRule')).toEqual([]);
  const wikiInStaging = synth(RuntimeType.FARGATE, { ...propsFor(SecurityProfile.STAGING), dockerHubCredentialArn: undefined });
  expect(resources(wikiInStaging.json, 'AWS::ECR::PullThroughCacheRule')).toEqual([]);
});

test('an image with neither tag nor digest warns: it floats to whatever latest is', () => {
  class Floating extends WikiSpec { public defaultContainerImage() { return 'example/wiki'; } }
  const app = new App();
  const stack = new Stack(app, 'S', { env: REGION_ENV });
  new ApplicationFactory(stack, 'App', RuntimeType.FARGATE, new Floating());
  Annotations.fromStack(stack).hasWarning('/S/App', Match.stringLikeRegexp('Floating\\.defaultContainerImage\\(\\) is "example/wiki", with neither a tag nor a digest'));
});

describe('PRODUCTION runs images pinned by digest', () => {
  const { imageDigests, ...withoutDigests } = propsFor(SecurityProfile.PRODUCTION);
  const production = { ...withoutDigests, ...SIGN_IN, alarmEmail: 'security@example.com' };

  test('an image pinned by tag only is refused, naming the members, the key and how to read a digest', () => {
    expect(imageDigests).toBeDefined();
    expect(() => synth(RuntimeType.FARGATE, production, new JenkinsSpec())).toThrow(new RegExp(
      'JenkinsSpec: defaultContainerImage\\(\\) is "jenkins/jenkins:[^"]+", and ephemeralWorkers\\(\\).image is "jenkins/inbound-agent:[^"]+", ' +
      'pinned by tag only; in PRODUCTION every image is pinned by digest, .* context key imageDigests, for example \\{"jenkins/jenkins:.*": ' +
      '"sha256:<64 hex digits>", .*docker buildx imagetools inspect jenkins/jenkins:'));
    // STAGING takes tags.
    const { imageDigests: _none, ...staging } = propsFor(SecurityProfile.STAGING);
    expect(() => synth(RuntimeType.FARGATE, { ...staging, ...SIGN_IN }, new JenkinsSpec())).not.toThrow();
  });

  test('with imageDigests, the tasks run `<image>@<digest>` through the cache; an image named with its digest needs none', () => {
    const { json } = synth(RuntimeType.FARGATE, {
      ...production,
      imageDigests: {
        'jenkins/jenkins:2.568.2-lts-jdk21': `sha256:${'a'.repeat(64)}`,
        'jenkins/inbound-agent:3355.v388858a_47b_33-5-jdk21': `sha256:${'b'.repeat(64)}`,
      },
    }, new JenkinsSpec());
    const images = resources(json, 'AWS::ECS::TaskDefinition').flatMap(([, t]) => t.Properties.ContainerDefinitions.map((c: any) => JSON.stringify(c.Image)));
    expect(images.filter((i) => i.includes(`/jenkins/jenkins:2.568.2-lts-jdk21@sha256:${'a'.repeat(64)}`))).toHaveLength(2);
    expect(images.filter((i) => i.includes(`/jenkins/inbound-agent:3355.v388858a_47b_33-5-jdk21@sha256:${'b'.repeat(64)}`))).toHaveLength(1);
    class Pinned extends WikiSpec { public defaultContainerImage() { return `ghcr.io/example/wiki:1.4.2@sha256:${'c'.repeat(64)}`; } }
    expect(() => synth(RuntimeType.FARGATE, withoutDigests, new Pinned())).not.toThrow();
  });

  test('the key takes image references mapped to sha256 digests, and nothing else', () => {
    const bad = { ...production, imageDigests: { 'jenkins/jenkins:2.568.2-lts-jdk21': 'latest' } };
    expect(() => synth(RuntimeType.FARGATE, bad, new JenkinsSpec())).toThrow(/imageDigests .* is not allowed; expected a JSON object of image references to digests/);
  });
});

test('a refused image stops synth before anything is built', () => {
  const stack = new Stack(new App(), 'S', { env: REGION_ENV });
  const { dockerHubCredentialArn: _none, ...staging } = propsFor(SecurityProfile.STAGING);
  expect(() => new ApplicationFactory(stack, 'App', RuntimeType.FARGATE, new JenkinsSpec(), { ...staging, ...SIGN_IN }))
    .toThrow(/the Docker Hub image "jenkins\/jenkins:/);
  expect(stack.node.findAll().filter((c) => CfnResource.isCfnResource(c))).toEqual([]);
});
