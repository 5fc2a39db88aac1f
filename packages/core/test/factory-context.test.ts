import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ApplicationFactory, ApplicationFactoryProps, DeploymentApp, RuntimeType, SecurityProfile } from '../src';
import { WikiSpec } from './fixtures/wiki-spec';
import { pinnedImage, resources } from './support/synth';
import { userErrorOf } from './support/user-error';

/** A cdk.json of a PRODUCTION deployment with TLS, as a user writes it (strings, as `-c` gives them). */
const PRODUCTION_CONTEXT = {
  stackName: 'wiki-prod',
  securityProfile: 'PRODUCTION',
  pciDssScope: 'CONNECTED',
  sslEnabled: 'true',
  domain: 'example.com',
  subdomain: 'wiki',
  hostedZoneId: 'Z0123456789ABCDEFGHIJ',
  alarmEmail: 'security@example.com',
};

/** The specification's "use in code": a stack and a factory, here under an app that carries context keys. */
function useInCode(context: Record<string, unknown>, runtime: RuntimeType, props?: ApplicationFactoryProps, stackName = 'wiki-prod') {
  const app = new App({ context });
  const stack = new Stack(app, stackName, { env: { region: 'eu-west-1' } });
  const factory = new ApplicationFactory(stack, 'Wiki', runtime, new WikiSpec(), { ...pinnedImage(runtime, props ?? {}, context), ...props });
  return { app, stack, factory };
}

describe.each([RuntimeType.FARGATE, RuntimeType.EC2])('the context keys reach a factory made in code, on %s', (runtime) => {
  test('a PRODUCTION context and a factory with no props deploy PRODUCTION with TLS', () => {
    const { stack, factory } = useInCode(PRODUCTION_CONTEXT, runtime);
    expect(factory.context).toMatchObject({ securityProfile: SecurityProfile.PRODUCTION, sslEnabled: true, fqdn: 'wiki.example.com' });
    expect(factory.url).toBe('https://wiki.example.com');
    const json = Template.fromStack(stack).toJSON();
    const listeners = resources(json, 'AWS::ElasticLoadBalancingV2::Listener').map(([, l]) => l.Properties);
    expect(listeners.map((l) => l.Protocol).sort()).toEqual(['HTTP', 'HTTPS']);
    expect(resources(json, 'AWS::WAFv2::WebACLAssociation')).toHaveLength(1);
  });

  test('a setting in code that contradicts the context fails, naming the key and both values', () => {
    const error = userErrorOf(() => useInCode(PRODUCTION_CONTEXT, runtime, { securityProfile: SecurityProfile.DEV }));
    expect(error.message).toContain('securityProfile: the factory\'s props "DEV", the context "PRODUCTION"');
  });

  test('the same value in both is fine, `-c` text and code booleans alike', () => {
    const { factory } = useInCode(PRODUCTION_CONTEXT, runtime, { sslEnabled: true, securityProfile: SecurityProfile.PRODUCTION });
    expect(factory.context.sslEnabled).toBe(true);
  });

  test('a setting only in code is used', () => {
    const { factory } = useInCode({ stackName: 'wiki-prod' }, runtime, { securityProfile: SecurityProfile.STAGING });
    expect(factory.context.securityProfile).toBe(SecurityProfile.STAGING);
  });

  test('the context\'s stackName and the stack\'s own name must agree', () => {
    const error = userErrorOf(() => useInCode(PRODUCTION_CONTEXT, runtime, undefined, 'other-stack'));
    expect(error.message).toContain('stackName: the stack\'s name "other-stack", the context "wiki-prod"');
  });

  test('the context\'s runtimeType and the factory\'s must agree', () => {
    const other = runtime === RuntimeType.EC2 ? 'FARGATE' : 'EC2';
    const error = userErrorOf(() => useInCode({ ...PRODUCTION_CONTEXT, runtimeType: other }, runtime));
    expect(error.message).toContain(`runtimeType: the factory's runtimeType "${runtime}", the context "${other}"`);
  });
});

test('a region in the context needs a stack in that region: the factory cannot move an environment-agnostic stack', () => {
  const app = new App({ context: { region: 'eu-west-1' } });
  const error = userErrorOf(() => new ApplicationFactory(new Stack(app, 'Wiki'), 'Wiki', RuntimeType.FARGATE, new WikiSpec()));
  expect(error.message).toContain('region: the stack has none (environment-agnostic), the context "eu-west-1"');
});

test('a secret ARN in both places that differs is named without showing either value', () => {
  const arn = (n: string) => `arn:aws:secretsmanager:eu-west-1:123456789012:secret:wiki/oidc-${n}`;
  const oidc = {
    issuer: 'https://login.example.com',
    authorizationEndpoint: 'https://login.example.com/a',
    tokenEndpoint: 'https://login.example.com/t',
    userInfoEndpoint: 'https://login.example.com/u',
    clientId: 'wiki',
    clientSecretArn: arn('AbCdEf'),
  };
  const error = userErrorOf(() => useInCode({ stackName: 'wiki-prod', oidcClientSecretArn: arn('ZyXwVu') }, RuntimeType.FARGATE, { authMode: 'alb-oidc', oidc }));
  expect(error.message).toContain('oidcClientSecretArn: the factory\'s props (hidden), the context (hidden)');
  expect(error.message).not.toContain('AbCdEf');
});

test('the deployment app\'s entry point for plugins found by the host language takes the one the context names', () => {
  const context = { stackName: 'ci', applicationId: 'wiki', runtimeType: 'FARGATE', securityProfile: 'DEV', sslEnabled: 'false' };
  const stack = DeploymentApp.addToWithPlugins(new App({ context }), [new WikiSpec()]);
  expect(stack.stackName).toBe('ci');
  const error = userErrorOf(() => DeploymentApp.addToWithPlugins(new App({ context: { ...context, applicationId: 'jenkins' } }), [new WikiSpec()]));
  expect(error.message).toBe('No plugin given has applicationId \'jenkins\'. Available: wiki.');
});
