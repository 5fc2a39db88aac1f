import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { EphemeralWorkers, RuntimeType, SecurityProfile } from '../src';
import { WikiSpec } from './fixtures/wiki-spec';
import { propsFor, synth } from './support/synth';
import { secretNames } from '../src/contract/secret-names';

/** The wiki with extra variables in its container's environment, or in its workers'. */
class WikiWith extends WikiSpec {
  constructor(private readonly extra: Record<string, string>, private readonly workerEnvironment?: Record<string, string>) { super(); }
  public containerEnvironmentVariables(fqdn: string, sslEnabled: boolean, authMode: string): Record<string, string> {
    return { ...super.containerEnvironmentVariables(fqdn, sslEnabled, authMode), ...this.extra };
  }
  public ephemeralWorkers(): EphemeralWorkers | undefined {
    return this.workerEnvironment && { image: `busybox:1.37.0@sha256:${'4'.repeat(64)}`, cpu: 256, memoryLimitMiB: 512, applicationPorts: [50000], environment: this.workerEnvironment };
  }
}

const PRODUCTION = propsFor(SecurityProfile.PRODUCTION);

test('a name says it holds a secret by its ending, whatever its case; references do not', () => {
  expect(secretNames({ DB_PASSWORD: 'x', github_token: 'x', AWS_SECRET_ACCESS_KEY: 'x', Api_Key: 'x', SMTP_CREDENTIALS: 'x' }))
    .toEqual(['DB_PASSWORD', 'github_token', 'AWS_SECRET_ACCESS_KEY', 'Api_Key', 'SMTP_CREDENTIALS']);
  expect(secretNames({ DB_PASSWORD_FILE: 'x', CLIENT_SECRET_ARN: 'x', OIDC_TOKEN_ENDPOINT: 'x', PUBLIC_URL: 'x' })).toEqual([]);
  expect(secretNames(undefined)).toEqual([]);
});

describe('a secret in the application container\'s environment, on both runtimes', () => {
  test.each([RuntimeType.FARGATE, RuntimeType.EC2])('%s: PRODUCTION refuses it before the packs, naming each variable and its plugin member', (runtime) => {
    expect(() => synth(runtime, PRODUCTION, new WikiWith({ DB_PASSWORD: 'hunter2', SMTP_TOKEN: 't', LOG_LEVEL: 'info' })))
      .toThrow(/^PRODUCTION refuses a secret in a container's environment: DB_PASSWORD \(WikiWith\.containerEnvironmentVariables\(\)\), SMTP_TOKEN \(WikiWith\.containerEnvironmentVariables\(\)\): the name says it holds a secret.*user data on EC2.*DB_PASSWORD_FILE, DB_PASSWORD_ARN/);
  });

  test.each([RuntimeType.FARGATE, RuntimeType.EC2])('%s: STAGING warns, naming the variable, what to pass instead and the profile that refuses it', (runtime) => {
    const { stack } = synth(runtime, propsFor(SecurityProfile.STAGING), new WikiWith({ DB_PASSWORD: 'hunter2' }));
    Annotations.fromStack(stack).hasWarning('*', Match.stringLikeRegexp(
      '^DB_PASSWORD \\(WikiWith\\.containerEnvironmentVariables\\(\\)\\): the name says it holds a secret.*Secrets Manager ARN.*PRODUCTION refuses it\\. \\[ack: @fw/core:secret-in-environment\\]$'));
  });

  test('below PRODUCTION the pack\'s finding stands too: AwsSolutions-ECS2 is not acknowledged for it', () => {
    const { json } = synth(RuntimeType.FARGATE, {}, new WikiWith({ DB_PASSWORD: 'hunter2' }));
    const task = Object.values<any>(json.Resources).find((r) => r.Type === 'AWS::ECS::TaskDefinition');
    expect((task.Metadata?.cdk_nag?.rules_to_suppress ?? []).map((r: any) => r.id)).not.toContain('AwsSolutions-ECS2');
  });

  test('a reference to a secret passes PRODUCTION, acknowledged with the reason in the template', () => {
    const { json } = synth(RuntimeType.FARGATE, PRODUCTION, new WikiWith({ DB_PASSWORD_FILE: '/run/db', DB_SECRET_ARN: 'arn:x' }));
    const task = Object.values<any>(json.Resources).find((r) => r.Type === 'AWS::ECS::TaskDefinition');
    expect(task.Metadata.cdk_nag.rules_to_suppress.map((r: any) => r.id)).toContain('AwsSolutions-ECS2');
  });
});

test('a secret in the workers\' environment: PRODUCTION refuses it, naming the workers\' member', () => {
  expect(() => synth(RuntimeType.FARGATE, PRODUCTION, new WikiWith({}, { AGENT_TOKEN: 'abc' })))
    .toThrow(/^PRODUCTION refuses a secret in a container's environment: AGENT_TOKEN \(WikiWith\.ephemeralWorkers\(\)\.environment\)/);
  expect(() => synth(RuntimeType.FARGATE, PRODUCTION, new WikiWith({}, { AGENT_NAME: 'abc' }))).not.toThrow();
});
