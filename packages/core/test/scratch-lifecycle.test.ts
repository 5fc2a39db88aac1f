import { AuthMode, Ec2Storage, RuntimeType } from '../src';
import { SonarSpec } from './fixtures/sonar-spec';
import { checkLifecycle } from './support/lifecycle';
import { type OnPlatform, otherWiki, PLATFORM_PROPS, synthPlatform } from './support/platform';
import { OIDC } from './support/synth';

const sonar = (id: string, runtime: RuntimeType, extra = {}): OnPlatform => ({ stackName: id, runtime, props: { subdomain: id.toLowerCase(), ...extra },
  spec: () => new (class extends SonarSpec { public applicationId() { return id.toLowerCase(); } public efsDataPath() { return `/${id.toLowerCase()}`; } })() });
const BASE: OnPlatform[] = [
  { stackName: 'Efs', runtime: RuntimeType.FARGATE, spec: () => otherWiki('efs'), props: { subdomain: 'efs' } },
  { stackName: 'Ebs', runtime: RuntimeType.EC2, spec: () => otherWiki('ebs'), props: { subdomain: 'ebs', ec2Storage: Ec2Storage.EBS } },
  { stackName: 'Oidc', runtime: RuntimeType.FARGATE, spec: () => otherWiki('oidc'), props: { subdomain: 'oidc', authMode: AuthMode.ALB_OIDC, oidc: OIDC } },
  sonar('Db', RuntimeType.FARGATE),
];
test('scratch', () => {
  const s0 = synthPlatform(BASE).templates;
  const s1 = synthPlatform(BASE.slice(0, 1)).templates;
  const s3 = synthPlatform(BASE, { ...PLATFORM_PROPS, dockerHubCredentialArn: PLATFORM_PROPS.dockerHubCredentialArn + 'x' }).templates;
  console.log(JSON.stringify(checkLifecycle([s0, s1, s0]), undefined, 1));
  console.log(JSON.stringify(checkLifecycle([s0, s3]), undefined, 1));
});
