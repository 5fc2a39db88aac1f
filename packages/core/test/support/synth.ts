import { gunzipSync } from 'zlib';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ApplicationFactory, ApplicationFactoryProps, Ec2Storage, IApplicationSpec, PciDssScope, RuntimeType, SecurityProfile } from '../../src';
import { AGENT_IMAGE, JENKINS_IMAGE } from '../../src/build-server/versions';
import { PACKED_HELPERS_VARIABLE } from '../../src/runtimes/ec2-user-data';
import { WikiSpec } from '../fixtures/wiki-spec';

/** A region (access logs need one) and no account: availability zones stay deploy-time, no lookup. */
export const REGION_ENV = { region: 'eu-west-1' };
export const TLS: ApplicationFactoryProps = {
  sslEnabled: true, domain: 'example.com', subdomain: 'wiki', hostedZoneId: 'Z0123456789ABCDEFGHIJ',
};
export const OIDC = {
  issuer: 'https://login.example.com',
  authorizationEndpoint: 'https://login.example.com/authorize',
  tokenEndpoint: 'https://login.example.com/token',
  userInfoEndpoint: 'https://login.example.com/userinfo',
  clientId: 'wiki',
  clientSecretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:wiki/oidc-AbCdEf',
};

/** The credential of the ECR pull-through cache of Docker Hub, as STAGING and PRODUCTION need it for Docker Hub images. */
export const DOCKER_HUB_CREDENTIAL = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:ecr-pullthroughcache/docker-hub-AbCdEf';

/**
 * Digests of the images the tests deploy, as PRODUCTION requires them (`imageDigests`). Not the images' real digests,
 * which only Docker Hub and the registries could say: synth checks their form, nothing pulls them.
 */
export const IMAGE_DIGESTS: Record<string, string> = {
  [JENKINS_IMAGE]: `sha256:${'1'.repeat(64)}`,
  [AGENT_IMAGE]: `sha256:${'2'.repeat(64)}`,
};

/** Who receives the alarms in the tests' PRODUCTION deployments (alarmRecipientRequired). */
export const ALARM_EMAIL = 'security@example.com';

/**
 * The props of a profile as the tests deploy it: STAGING and PRODUCTION with TLS (PRODUCTION requires it, and both
 * require it for signing in, which the build server always does) and the pull-through cache of Docker Hub, DEV without;
 * PRODUCTION with someone to receive the alarms.
 */
export function propsFor(profile: SecurityProfile): ApplicationFactoryProps {
  return profile === SecurityProfile.DEV ? { securityProfile: profile }
    : {
      securityProfile: profile,
      ...TLS,
      dockerHubCredentialArn: DOCKER_HUB_CREDENTIAL,
      imageDigests: IMAGE_DIGESTS,
      pciDssScope: PciDssScope.CONNECTED,
      ...profile === SecurityProfile.PRODUCTION ? { alarmEmail: ALARM_EMAIL } : {},
    };
}

export interface Synthesised {
  readonly app: App;
  readonly stack: Stack;
  readonly factory: ApplicationFactory;
  readonly template: Template;
  readonly json: any;
}

/**
 * Every known vulnerability `spec` declares, accepted: PRODUCTION refuses them otherwise, and most tests are about
 * something else (known-vulnerabilities.test.ts is about that).
 */
export function acceptingAll(spec: IApplicationSpec): ApplicationFactoryProps['acceptedAdvisories'] {
  return Object.fromEntries(spec.knownVulnerabilities().map((v) => [v.id, { reason: 'accepted in the tests', owner: 'the tests', reference: 'TEST-1' }]));
}

/**
 * What most tests take as given and PRODUCTION requires: the plugin's known vulnerabilities accepted (`acceptingAll`)
 * and a stated `pciDssScope` (CONNECTED), unless `props` or the context says otherwise.
 */
export function testDefaults(spec: IApplicationSpec, context: Record<string, unknown> = {}): ApplicationFactoryProps {
  return { acceptedAdvisories: acceptingAll(spec), ...context.pciDssScope === undefined ? { pciDssScope: PciDssScope.CONNECTED } : {} };
}

/** An Amazon Linux 2023 image id for the tests' EC2 deployments in STAGING and PRODUCTION, which must name one. */
export const EC2_IMAGE_ID = 'ami-0123456789abcdef0';

/** `ec2ImageId` where an EC2 deployment's profile pins the image and neither `props` nor the context names one. */
export function pinnedImage(runtime: RuntimeType, props: ApplicationFactoryProps, context: Record<string, unknown> = {}): ApplicationFactoryProps {
  const profile = (props.securityProfile ?? context.securityProfile ?? SecurityProfile.DEV) as SecurityProfile;
  const needed = runtime === RuntimeType.EC2 && profile !== SecurityProfile.DEV && props.ec2ImageId === undefined && context.ec2ImageId === undefined;
  return needed ? { ec2ImageId: EC2_IMAGE_ID } : {};
}

/**
 * A fresh app (with the context keys `context`; or `app`, beside what it holds) and stack with one factory,
 * synthesised, with `testDefaults` under `props`.
 */
export function synth(runtime: RuntimeType, props: ApplicationFactoryProps = {}, spec: IApplicationSpec = new WikiSpec(),
  context: Record<string, unknown> = {}, app = new App({ context })): Synthesised {
  const stack = new Stack(app, 'WikiStack', { env: REGION_ENV });
  // PRODUCTION's alarms need someone to receive them (alarmRecipientRequired), unless the test says otherwise.
  const production = (props.securityProfile ?? context.securityProfile) === SecurityProfile.PRODUCTION && context.alarmEmail === undefined;
  const factory = new ApplicationFactory(stack, 'App', runtime, spec,
    { ...testDefaults(spec, context), ...production ? { alarmEmail: ALARM_EMAIL } : {}, ...pinnedImage(runtime, props, context), ...props });
  const template = Template.fromStack(stack);
  return { app, stack, factory, template, json: template.toJSON() };
}

/** Every runtime with every profile, for the tests that must hold on all of them. */
export const RUNTIMES_AND_PROFILES = [RuntimeType.FARGATE, RuntimeType.EC2].flatMap((runtime) =>
  [SecurityProfile.DEV, SecurityProfile.STAGING, SecurityProfile.PRODUCTION].map((profile) => [runtime, profile] as const));

/** Every runtime with every profile and every storage it has (EC2: EFS and EBS). */
export const RUNTIMES_PROFILES_AND_STORAGE = [
  ...RUNTIMES_AND_PROFILES.map(([runtime, profile]) => [runtime, profile, Ec2Storage.EFS] as const),
  ...RUNTIMES_AND_PROFILES.filter(([runtime]) => runtime === RuntimeType.EC2)
    .map(([runtime, profile]) => [runtime, profile, Ec2Storage.EBS] as const),
];

/** The logical id of the security group whose description starts with `description`, if there is one. */
export function securityGroupId(json: any, description: string): string | undefined {
  return resources(json, 'AWS::EC2::SecurityGroup').find(([, g]) => g.Properties.GroupDescription.startsWith(description))?.[0];
}

/** The logical id a `{ "Ref": id }` or `{ "Fn::GetAtt": [id, attribute] }` names. */
export function refTarget(value: any): string {
  return value.Ref ?? value['Fn::GetAtt']?.[0];
}

/** Every resource of a type, as [logicalId, resource]. */
export function resources(json: any, type: string): Array<[string, any]> {
  return Object.entries<any>(json.Resources).filter(([, r]) => r.Type === type);
}

/** The one resource of a type. */
export function only(json: any, type: string): any {
  const found = resources(json, type);
  if (found.length !== 1) throw new Error(`expected one ${type}, found ${found.length}`);
  return found[0][1];
}

/** The application's task definition (the one whose container is `Application`); workers have their own. */
export function applicationTask(json: any): any {
  const found = resources(json, 'AWS::ECS::TaskDefinition')
    .filter(([, r]) => r.Properties.ContainerDefinitions.some((c: any) => c.Name === 'Application'));
  if (found.length !== 1) throw new Error(`expected one task definition with an Application container, found ${found.length}`);
  return found[0][1];
}

/**
 * The EC2 user data of the launch template, with CloudFormation references shown as JSON and its helper functions
 * unpacked where the boot unpacks them (`unpackedHelpers`), so a test reads and runs them as the instance defines them.
 */
export function userData(json: any): string {
  return unpackedHelpers(deployedUserData(json));
}

/** The EC2 user data exactly as the launch template holds it (helpers packed), references shown as JSON. */
export function deployedUserData(json: any): string {
  const value = only(json, 'AWS::EC2::LaunchTemplate').Properties.LaunchTemplateData.UserData['Fn::Base64'];
  if (typeof value === 'string') return value;
  const [separator, parts] = value['Fn::Join'];
  return parts.map((p: unknown) => (typeof p === 'string' ? p : JSON.stringify(p))).join(separator);
}

/** A script whose packed helper functions (`fw_helpers=$(... | base64 -d | gunzip)`, `eval`) stand there as text. */
export function unpackedHelpers(script: string): string {
  const v = PACKED_HELPERS_VARIABLE;
  return script.replace(new RegExp(`^${v}=\\$\\(printf '%s' '([A-Za-z0-9+/=]+)' \\| base64 -d \\| gunzip\\)\\neval "\\$${v}"$`, 'm'),
    (_line, packed: string) => gunzipSync(Buffer.from(packed, 'base64')).toString('utf-8'));
}
