// The build server's test fixtures, shared by test/build-server/jenkins-*.test.ts.
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import * as YAML from 'yaml';
import { applicationTask, OIDC, propsFor, synth } from './synth';
import { filesWritten } from './user-data-files';
import { AuthMode, BashUserDataBuilder, Ec2Context, JenkinsSpec, RuntimeType, SecurityProfile } from '../../src';
import { JENKINS_PLUGINS } from '../../src/build-server/versions';

/** The pinned version of a plugin, as plugins.txt installs it. */
export const pinned = (id: string) => JENKINS_PLUGINS.find((p) => p.id === id)!.version;

export const EFS: Ec2Context = {
  stackName: 'ci',
  securityProfile: 'PRODUCTION',
  runtimeType: 'EC2',
  logGroupName: '/aws/ci/EC2/PRODUCTION',
  serviceUser: 'jenkins',
  fqdn: 'ci.example.com',
  sslEnabled: true,
  hasEfs: true,
  efsId: 'fs-0123456789abcdef0',
  accessPointId: 'fsap-0123456789abcdef0',
};

export const SONAR = {
  serverUrl: 'https://sonarqube.example.com',
  tokenSecretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:ci/sonar-token-AbCdEf',
  webhookSecretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:ci/sonar-webhook-AbCdEf',
};

/** Jenkins signs users in itself: the one auth mode it accepts. */
export const SIGN_IN = { authMode: AuthMode.APPLICATION_OIDC, oidc: OIDC, domain: 'example.com' };

export function ec2Script(context: Ec2Context = EFS, spec = new JenkinsSpec()): string {
  const builder = new BashUserDataBuilder();
  spec.configureUserData(builder, context);
  return builder.render();
}

/** The Fargate task's application container and its init container. */
export function fargateContainers(props = {}, spec = new JenkinsSpec()) {
  const { json } = synth(RuntimeType.FARGATE, { ...SIGN_IN, ...props }, spec);
  const definitions = applicationTask(json).Properties.ContainerDefinitions;
  return { app: definitions.find((c: any) => c.Name === 'Application'), init: definitions.find((c: any) => c.Name === 'Initialization'), json };
}

/** A synth, and the framework's local-address warnings of it. */
export function synthWithWarnings(runtime: RuntimeType, props: object) {
  const { json, stack } = synth(runtime, props, new JenkinsSpec());
  const warnings = Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('@fw/core:local-address'))
    .map((w: any) => String(w.entry.data).replace(/ \[ack: .*\]$/, ''));
  return { json, warnings };
}

export function env(container: any): Record<string, string> {
  return Object.fromEntries((container.Environment ?? []).map((e: any) => [e.Name, e.Value]));
}

/** The configuration as each runtime delivers it, parsed back. */
export function fargateConfiguration(spec = new JenkinsSpec(), profile = SecurityProfile.DEV): any {
  const { json } = synth(RuntimeType.FARGATE, { ...propsFor(profile), ...SIGN_IN, alarmEmail: ALARM_EMAIL }, spec);
  const init = applicationTask(json).Properties.ContainerDefinitions.find((c: any) => c.Name === 'Initialization');
  const script: string = init.Command[0];
  const variable = /printf '%s' "\$(FW_FILE_\d+)" \| base64 -d > '\/fw\/config\/jenkins.yaml'/.exec(script)![1];
  return YAML.parse(Buffer.from(env(init)[variable], 'base64').toString('utf-8'));
}

export const ALARM_EMAIL = 'security@example.com';
/** The configuration the EC2 user data writes (unpacked as the instance's shell would; the sandbox runs it below). */
export function ec2Configuration(spec = new JenkinsSpec(), profile = SecurityProfile.DEV): any {
  return YAML.parse(filesWritten(ec2Script({ ...EFS, securityProfile: profile }, spec))['/etc/jenkins/casc/jenkins.yaml']);
}
