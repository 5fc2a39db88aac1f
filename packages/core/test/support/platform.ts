import { App, Stack } from 'aws-cdk-lib';
import { DOCKER_HUB_CREDENTIAL, IMAGE_DIGESTS, OIDC, pinnedImage, REGION_ENV, testDefaults } from './synth';
import {
  ApplicationFactory, ApplicationFactoryProps, AuthMode, Ec2Storage, IApplicationSpec, JenkinsSpec, Platform, PlatformProps, RuntimeType,
  SecurityProfile,
} from '../../src';
import { WikiSpec } from '../fixtures/wiki-spec';

/** The wiki under another name and directory: a third, fourth, fifth kind of application. */
export function otherWiki(applicationId: string): IApplicationSpec {
  return new (class extends WikiSpec {
    public applicationId() { return applicationId; }
    public efsDataPath() { return `/${applicationId}`; }
  })();
}

export const PLATFORM_PROPS: PlatformProps = {
  securityProfile: SecurityProfile.PRODUCTION,
  domain: 'example.com',
  hostedZoneId: 'Z0123456789ABCDEFGHIJ',
  alarmEmail: 'security@example.com',
  vpcCidr: '10.20.0.0/16',
  dockerHubCredentialArn: DOCKER_HUB_CREDENTIAL,
};

export interface OnPlatform {
  readonly stackName: string;
  readonly runtime: RuntimeType;
  readonly spec: () => IApplicationSpec;
  readonly props: ApplicationFactoryProps;
}

/** The build server on Fargate, the wiki on EC2 (EFS), the docs wiki on Fargate, which admits the build server. */
export const THREE: OnPlatform[] = [
  { stackName: 'Jenkins', runtime: RuntimeType.FARGATE, spec: () => new JenkinsSpec(), props: { subdomain: 'ci', authMode: AuthMode.APPLICATION_OIDC, oidc: OIDC } },
  { stackName: 'Wiki', runtime: RuntimeType.EC2, spec: () => new WikiSpec(), props: { subdomain: 'wiki' } },
  { stackName: 'Docs', runtime: RuntimeType.FARGATE, spec: () => otherWiki('docs'), props: { subdomain: 'docs', allowFrom: [{ applicationId: 'jenkins', port: 3000 }] } },
];

/** Two more: one on EC2 with EBS, one on Fargate. */
export const FIVE: OnPlatform[] = [
  ...THREE,
  { stackName: 'Notes', runtime: RuntimeType.EC2, spec: () => otherWiki('notes'), props: { subdomain: 'notes', ec2Storage: Ec2Storage.EBS } },
  { stackName: 'Forum', runtime: RuntimeType.FARGATE, spec: () => otherWiki('forum'), props: { subdomain: 'forum' } },
];

export interface SynthesisedPlatform {
  readonly app: App;
  readonly platform: Platform;
  readonly factories: Record<string, ApplicationFactory>;
  /** Every stack's template by stack name, the platform's under 'Platform'. */
  readonly templates: Record<string, any>;
}

/** A platform in its stack and each application in a stack of its own, in one app, synthesised. */
export function synthPlatform(applications: OnPlatform[], props: PlatformProps = PLATFORM_PROPS): SynthesisedPlatform {
  const app = new App();
  const platform = new Platform(new Stack(app, 'Platform', { env: REGION_ENV }), 'Platform', props);
  const factories = Object.fromEntries(applications.map((a) => [a.stackName,
    new ApplicationFactory(new Stack(app, a.stackName, { env: REGION_ENV }), 'App', a.runtime, a.spec(),
      {
        platform,
        imageDigests: IMAGE_DIGESTS,
        ...testDefaults(a.spec()),
        ...pinnedImage(a.runtime, { securityProfile: props.securityProfile }),
        ...a.props,
      })]));
  const assembly = app.synth();
  return { app, platform, factories, templates: Object.fromEntries(assembly.stacks.map((s) => [s.stackName, s.template])) };
}

/** How many resources of each type the templates create together. */
export function countByType(templates: Record<string, any>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const template of Object.values(templates)) {
    for (const resource of Object.values<any>(template.Resources)) counts[resource.Type] = (counts[resource.Type] ?? 0) + 1;
  }
  return counts;
}
