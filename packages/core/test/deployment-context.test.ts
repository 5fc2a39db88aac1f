import * as fs from 'fs';
import * as path from 'path';
import { App } from 'aws-cdk-lib';
import { AuthMode, DeploymentContextReader, RuntimeType, SecurityProfile } from '../src';
import { CONTEXT_KEYS, OIDC_DEFAULT_SCOPES } from '../src/context/context-keys';

const VALID = {
  stackName: 'build-server',
  applicationId: 'wiki',
  runtimeType: 'FARGATE',
  securityProfile: 'DEV',
  sslEnabled: 'false',
};

const TLS = { domain: 'example.com', subdomain: 'ci', hostedZoneId: 'Z0123456789ABCDEFGHIJ', sslEnabled: 'true' };

const OIDC = {
  oidcIssuer: 'https://login.example.com',
  oidcAuthorizationEndpoint: 'https://login.example.com/authorize',
  oidcTokenEndpoint: 'https://login.example.com/token',
  oidcUserInfoEndpoint: 'https://login.example.com/userinfo',
  oidcClientId: 'build-server',
  oidcClientSecretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:ci/oidc-AbCdEf',
};

function errorOf(values: Record<string, unknown>): string {
  try {
    DeploymentContextReader.fromValues(values);
  } catch (e) {
    expect((e as Error).name).toBe('UserError');
    return (e as Error).message;
  }
  throw new Error('expected the context to be rejected');
}

describe('valid context', () => {
  test('the spec keys with defaults applied', () => {
    const context = DeploymentContextReader.fromValues(VALID);
    expect(context).toEqual(expect.objectContaining({
      stackName: 'build-server',
      applicationId: 'wiki',
      runtimeType: RuntimeType.FARGATE,
      securityProfile: SecurityProfile.DEV,
      sslEnabled: false,
      authMode: 'none',
      ec2Storage: 'efs',
    }));
    // pciDssScope and pciDssMultiTenantProvider too: the evidence report says "not stated" rather than print a default as yours.
    for (const absent of ['domain', 'subdomain', 'fqdn', 'hostedZoneId', 'certificateArn', 'region', 'oidc', 'pciDssScope', 'pciDssMultiTenantProvider'] as const) {
      expect([absent, context[absent]]).toEqual([absent, undefined]);
    }
    // Every other key with a declared default has it when the context leaves the key out (the identity provider's
    // keys only within `oidc`): a new key needs no line here.
    const defaulted = CONTEXT_KEYS.filter((k) => k.default !== undefined && !(k.name in VALID) && !k.name.startsWith('oidc'));
    expect(defaulted.length).toBeGreaterThanOrEqual(4);
    for (const key of defaulted) {
      expect([key.name, (context as unknown as Record<string, unknown>)[key.name]]).toEqual([key.name, key.default]);
    }
  });

  test('a key whose default depends on the profile has its profile\'s value when left out, in each profile', () => {
    const keys = CONTEXT_KEYS.filter((k) => k.defaultByProfile);
    expect(keys.map((k) => k.name)).toContain('containerInsights');
    for (const profile of Object.values(SecurityProfile)) {
      const context = DeploymentContextReader.fromValues({ ...VALID, ...TLS, region: 'eu-west-1', pciDssScope: 'OUT_OF_SCOPE', securityProfile: profile });
      for (const key of keys) {
        const value = (context as unknown as Record<string, unknown>)[key.name];
        expect([profile, key.name, value]).toEqual([profile, key.name, key.defaultByProfile![profile]]);
      }
    }
    // Given, the key's own value wins over the profile's.
    expect(DeploymentContextReader.fromValues({ ...VALID, containerInsights: 'true' }).containerInsights).toBe(true);
  });

  test('the FQDN is formed from subdomain and domain; domain names are lower-cased', () => {
    const ctx = DeploymentContextReader.fromValues({ ...VALID, ...TLS, domain: 'Example.COM' });
    expect(ctx.fqdn).toBe('ci.example.com');
    expect(ctx.sslEnabled).toBe(true);
  });

  test('without a subdomain the FQDN is the domain', () => {
    expect(DeploymentContextReader.fromValues({ ...VALID, ...TLS, subdomain: undefined }).fqdn).toBe('example.com');
  });

  test('JSON values from cdk.json are accepted (boolean sslEnabled)', () => {
    expect(DeploymentContextReader.fromValues({ ...VALID, sslEnabled: false }).sslEnabled).toBe(false);
    expect(DeploymentContextReader.fromValues({ ...VALID, ...TLS, sslEnabled: true }).sslEnabled).toBe(true);
  });

  test('PRODUCTION without pciDssScope: refused, naming the key and its values; the report never prints a default as your scoping', () => {
    const production = {
      ...VALID,
      securityProfile: 'PRODUCTION',
      sslEnabled: 'true',
      domain: 'example.com',
      region: 'eu-west-1',
      certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/12345678-1234-1234-1234-123456789012',
    };
    expect(() => DeploymentContextReader.fromValues(production))
      .toThrow(/securityProfile PRODUCTION needs pciDssScope, the application's role toward the cardholder data environment as your scoping decided: CDE, CONNECTED or OUT_OF_SCOPE\./);
    expect(DeploymentContextReader.fromValues({ ...production, pciDssScope: 'OUT_OF_SCOPE' }).pciDssScope).toBe('OUT_OF_SCOPE');
    // DEV and STAGING do not require it.
    expect(DeploymentContextReader.fromValues({ ...production, securityProfile: 'STAGING' }).pciDssScope).toBeUndefined();
  });

  test('PRODUCTION with TLS and an imported certificate', () => {
    const ctx = DeploymentContextReader.fromValues({
      ...VALID,
      securityProfile: 'PRODUCTION',
      pciDssScope: 'CONNECTED',
      sslEnabled: 'true',
      domain: 'example.com',
      region: 'eu-west-1',
      certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/12345678-1234-1234-1234-123456789012',
    });
    expect(ctx.securityProfile).toBe(SecurityProfile.PRODUCTION);
  });

  test('an auth mode with the identity provider', () => {
    const ctx = DeploymentContextReader.fromValues({ ...VALID, ...TLS, ...OIDC, authMode: 'alb-oidc' });
    expect(ctx.authMode).toBe('alb-oidc');
    expect(ctx.oidc).toEqual({
      issuer: OIDC.oidcIssuer,
      authorizationEndpoint: OIDC.oidcAuthorizationEndpoint,
      tokenEndpoint: OIDC.oidcTokenEndpoint,
      userInfoEndpoint: OIDC.oidcUserInfoEndpoint,
      clientId: 'build-server',
      clientSecretArn: OIDC.oidcClientSecretArn,
      scopes: OIDC_DEFAULT_SCOPES,
    });
  });

  test('oidcScopes: a list from cdk.json, or space-separated text from -c', () => {
    const scopes = (oidcScopes: unknown) => DeploymentContextReader.fromValues({ ...VALID, ...TLS, ...OIDC, authMode: 'alb-oidc', oidcScopes }).oidc?.scopes;
    expect(scopes(['openid', 'email', 'groups'])).toEqual(['openid', 'email', 'groups']);
    expect(scopes(' openid  email groups ')).toEqual(['openid', 'email', 'groups']);
  });

  test('signing in over plain HTTP is DEV\'s alone (signInTlsRequired); with TLS STAGING signs in', () => {
    expect(DeploymentContextReader.fromValues({ ...VALID, ...OIDC, authMode: 'application-oidc' }).authMode).toBe('application-oidc');
    const staging = { ...VALID, ...OIDC, securityProfile: 'STAGING', region: 'eu-west-1', authMode: 'application-oidc' };
    expect(DeploymentContextReader.fromValues({ ...staging, ...TLS }).sslEnabled).toBe(true);
  });

  test('CDK\'s own context keys are not ours to judge', () => {
    expect(() => DeploymentContextReader.fromValues({
      ...VALID,
      '@aws-cdk/core:newStyleStackSynthesis': true,
      'aws:cdk:enable-path-metadata': true,
      'availability-zones:account=1:region=eu-west-1': ['a'],
      'acknowledged-issue-numbers': [1],
    })).not.toThrow();
  });

  test('fromScope reads -c values from the CDK context', () => {
    const app = new App({ context: { ...VALID, runtimeType: 'EC2' } });
    expect(DeploymentContextReader.fromScope(app).runtimeType).toBe(RuntimeType.EC2);
  });
});

describe('every problem is named with the key, the value given and what is allowed', () => {
  test.each([
    ['missing required key', { ...VALID, stackName: undefined }, /stackName is required/],
    ['empty required key', { ...VALID, applicationId: '' }, /applicationId is required/],
    ['unknown key with suggestion', { ...VALID, runtimeTyp: 'EC2' }, /unknown key 'runtimeTyp'; did you mean 'runtimeType'\?/],
    ['unknown key without suggestion', { ...VALID, colour: 'blue' }, /unknown key 'colour' Known keys: stackName, applicationId/],
    ['bad runtime type', { ...VALID, runtimeType: 'LAMBDA' }, /runtimeType "LAMBDA" is not allowed; expected one of FARGATE, EC2\./],
    ['lower-case runtime type', { ...VALID, runtimeType: 'fargate' }, /runtimeType "fargate" is not allowed; expected one of FARGATE, EC2\./],
    ['bad profile', { ...VALID, securityProfile: 'PROD' }, /securityProfile "PROD" is not allowed; expected one of DEV, STAGING, PRODUCTION\./],
    ['bad sslEnabled', { ...VALID, sslEnabled: 'yes' }, /sslEnabled "yes" is not allowed; expected true or false\./],
    ['bad domain', { ...VALID, domain: 'not a domain' }, /domain "not a domain" is not allowed; expected a domain name/],
    ['single-label domain', { ...VALID, domain: 'localhost' }, /domain "localhost" is not allowed/],
    ['bad subdomain', { ...VALID, domain: 'example.com', subdomain: '-ci' }, /subdomain "-ci" is not allowed; expected one or more DNS labels/],
    ['stack name CloudFormation rejects', { ...VALID, stackName: '1-build_server' }, /stackName "1-build_server" is not allowed; expected a CloudFormation stack name/],
    ['stack name too long', { ...VALID, stackName: 'a'.repeat(129) }, /stackName "a{40}…" \(129 characters\) is not allowed/],
    ['number where text is expected', { ...VALID, stackName: 42 }, /stackName 42 is not allowed; expected text: /],
    ['bad auth mode', { ...VALID, authMode: 'saml' }, new RegExp(`authMode "saml" is not allowed; expected one of ${AuthMode.ALL.join(', ')}\\.`)],
    ['bad hosted zone', { ...VALID, domain: 'example.com', hostedZoneId: 'zone1' }, /hostedZoneId "zone1" is not allowed/],
    ['bad certificate', { ...VALID, certificateArn: 'my-cert' }, /certificateArn "my-cert" is not allowed; expected an ACM certificate ARN/],
    ['http issuer', { ...VALID, oidcIssuer: 'http://login.example.com' }, /oidcIssuer "http:\/\/login.example.com" is not allowed; expected an https:\/\/ URL/],
    ['STAGING without a region', { ...VALID, securityProfile: 'STAGING' }, /securityProfile STAGING needs the stack's region/],
    ['bad region', { ...VALID, region: 'europe' }, /region "europe" is not allowed; expected an AWS region such as eu-west-1/],
    ['bad ec2Storage', { ...VALID, ec2Storage: 'nfs' }, /ec2Storage "nfs" is not allowed; expected one of efs, ebs\./],
    ['PRODUCTION without TLS', { ...VALID, securityProfile: 'PRODUCTION', region: 'eu-west-1' }, /sslEnabled "false" is not allowed with securityProfile PRODUCTION: card data must not travel in clear text/],
    ['PRODUCTION without Container Insights', { ...VALID, ...TLS, securityProfile: 'PRODUCTION', region: 'eu-west-1', pciDssScope: 'CDE', containerInsights: 'false' },
      /containerInsights false is not allowed with securityProfile PRODUCTION: its checks require Container Insights on every ECS cluster/],
    ['TLS without domain', { ...VALID, sslEnabled: 'true', hostedZoneId: 'Z1' }, /sslEnabled true needs a domain/],
    ['TLS without zone or certificate', { ...VALID, sslEnabled: 'true', domain: 'example.com' }, /sslEnabled true needs hostedZoneId .* or certificateArn/],
    ['subdomain without domain', { ...VALID, subdomain: 'ci' }, /subdomain "ci" needs a domain/],
    ['hosted zone without domain', { ...VALID, hostedZoneId: 'Z1' }, /hostedZoneId "Z1" needs the zone's domain/],
    ['alb-oidc without TLS', { ...VALID, ...OIDC, authMode: 'alb-oidc' }, /authMode "alb-oidc" needs sslEnabled true/],
    ['application-oidc over plain HTTP in STAGING', { ...VALID, ...OIDC, securityProfile: 'STAGING', region: 'eu-west-1', authMode: 'application-oidc' },
      /authMode "application-oidc" needs sslEnabled true in STAGING: over plain HTTP the sign-in's authorization code, the session cookie and the tokens cross the network in clear text/],
    ['scopes without openid', { ...VALID, oidcScopes: 'profile email' }, /oidcScopes "profile email" is not allowed; expected OAuth scopes as a list or space-separated text, each once, printable ASCII without " or \\, openid among them/],
    ['a scope twice, or with a quote', { ...VALID, oidcScopes: ['openid', 'email', 'email', 'a"b'] }, /oidcScopes \["openid","email","email","a\\"b"\] is not allowed/],
    ['oidc mode without provider', { ...VALID, authMode: 'application-oidc', oidcIssuer: OIDC.oidcIssuer }, /authMode "application-oidc" needs the identity provider: set oidcAuthorizationEndpoint, oidcTokenEndpoint, oidcUserInfoEndpoint, oidcClientId, oidcClientSecretArn\./],
    ['name longer than DNS allows', { ...VALID, domain: `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.com`, subdomain: `${'d'.repeat(60)}.${'e'.repeat(20)}` }, /longer than 253 characters/],
  ])('%s', (_name, values, message) => {
    expect(errorOf(values as Record<string, unknown>)).toMatch(message);
  });

  test('all problems are reported at once, in one error', () => {
    const message = errorOf({ runtimeType: 'LAMBDA', securityProfile: 'PROD', sslEnabled: 'maybe', stackNam: 'x' });
    expect(message).toMatch(/^Invalid deployment context \(6 problems\):/);
    for (const part of ['stackName is required', 'applicationId is required', 'runtimeType "LAMBDA"',
      'securityProfile "PROD"', 'sslEnabled "maybe"', "unknown key 'stackNam'; did you mean 'stackName'?"]) {
      expect(message).toContain(part);
    }
  });

  test('a value pasted where a secret reference belongs is never echoed', () => {
    const message = errorOf({ ...VALID, ...OIDC, authMode: 'application-oidc', oidcClientSecretArn: 'hunter2-super-secret' });
    expect(message).toContain('oidcClientSecretArn (hidden, 20 characters) is not allowed; expected a Secrets Manager secret ARN');
    expect(message).not.toContain('hunter2');
  });
});

describe('docs/context-keys.md documents every key', () => {
  const readme = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'docs', 'context-keys.md'), 'utf-8');
  test.each(CONTEXT_KEYS.map((k: any) => [k.name, k.required]))('%s (required: %s)', (name, required) => {
    expect(readme).toMatch(new RegExp(`^\\| \`${name}\` \\| ${required ? 'yes' : 'no'} \\| `, 'm'));
  });
});
