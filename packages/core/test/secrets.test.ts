import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { ApplicationFactory, ApplicationFactoryProps, PciDssScope, Platform, RuntimeType, SecurityProfile } from '../src';
import { WikiSpec } from './fixtures/wiki-spec';
import { PLATFORM_PROPS } from './support/platform';
import { DEFAULT_STUBS, runInSandbox, SANDBOX_NEEDS, sandboxUnavailable } from './support/sandbox';
import { needing } from './support/shellcheck';
import { applicationTask, IMAGE_DIGESTS, REGION_ENV, userData } from './support/synth';
import { parseSecretReference, SECRET_ARN_EXAMPLE, SECRET_JSON_KEY_EXAMPLE } from '../src/context/secret-reference';

// Every form of a secret reference ECS takes, from the three places a deployment gives them: a secret created in the
// same app (a token), the JSON-key form, and the `secrets` context key.

const ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:';
const DB = `${ARN}db-AbCdEf`;
const API = `${ARN}api-token-XyZ123`;
const ENV_FILE = '/etc/fw/application.env';

/** A wiki whose stack also creates its own secret (`SAME_APP`), with `props` and the context `context`. */
function deploy(runtime: RuntimeType, props: (secret: secretsmanager.ISecret) => ApplicationFactoryProps, context: Record<string, unknown> = {}) {
  const app = new App({ context });
  const stack = new Stack(app, 'WikiStack', { env: REGION_ENV });
  const secret = new secretsmanager.Secret(stack, 'SameApp');
  new ApplicationFactory(stack, 'App', runtime, new WikiSpec(), props(secret));
  return { json: Template.fromStack(stack).toJSON(), secretId: stack.getLogicalId(secret.node.defaultChild as secretsmanager.CfnSecret) };
}

/** The same app's secret, a JSON key of another, both as props; and one by the context key alone. */
const BY_PROPS = (secret: secretsmanager.ISecret): ApplicationFactoryProps => ({
  secrets: { SAME_APP: secret.secretArn, DB_PASSWORD: `${DB}:password::` },
});
const BY_CONTEXT = { secrets: { API_TOKEN: API } };

describe.each([RuntimeType.FARGATE, RuntimeType.EC2])('%s', (runtime) => {
  const byProps = deploy(runtime, BY_PROPS);
  const byContext = deploy(runtime, () => ({}), BY_CONTEXT);

  if (runtime === RuntimeType.FARGATE) {
    test('each reaches the container as a secret: the same app\'s by its Ref, the JSON key in ECS\'s form, the context key\'s', () => {
      const secrets = (json: any) => applicationTask(json).Properties.ContainerDefinitions.find((c: any) => c.Name === 'Application').Secrets;
      expect(secrets(byProps.json)).toEqual([
        { Name: 'SAME_APP', ValueFrom: { Ref: byProps.secretId } },
        { Name: 'DB_PASSWORD', ValueFrom: `${DB}:password::` },
      ]);
      expect(secrets(byContext.json)).toEqual([{ Name: 'API_TOKEN', ValueFrom: API }]);
    });
  } else {
    test('each is read at boot into the environment file, never its value into the template', () => {
      const script = userData(byProps.json);
      expect(script).toMatch(new RegExp(`^fw_env_secret '[^']+' 'DB_PASSWORD' '[^']+' '${DB}' 'password'$`, 'm'));
      expect(userData(byContext.json)).toMatch(new RegExp(`^fw_env_secret '[^']+' 'API_TOKEN' '[^']+' '${API}'$`, 'm'));
    });
  }
});

needing(SANDBOX_NEEDS, sandboxUnavailable()).describe('the EC2 boot, in a sandbox: what the environment file receives', () => {
  const byProps = deploy(RuntimeType.EC2, BY_PROPS);
  const byContext = deploy(RuntimeType.EC2, () => ({}), BY_CONTEXT);
  const SAME_APP_ARN = `${ARN}WikiStackSameApp-Q1w2E3`;
  /** CloudFormation's deploy-time values as example ones: the same app's secret, its region, the file system. */
  const runnable = (script: string, secretId: string) => script
    .replace(new RegExp(`\\{"Fn::Select":\\[3,\\{"Fn::Split":\\[":",\\{"Ref":"${secretId}"\\}\\]\\}\\]\\}`, 'g'), 'eu-west-1')
    .replace(new RegExp(`\\{"Ref":"${secretId}"\\}`, 'g'), SAME_APP_ARN)
    .replace(/\{"Ref":"(\w+)"\}/g, (_ref, id: string) => (/AccessPoint/.test(id) ? 'fsap-0123456789abcdef0' : 'fs-0123456789abcdef0'));
  /** Secrets Manager as the stub answers: each secret's SecretString by its ARN. */
  const aws = (answers: Record<string, string>) => ({
    ...DEFAULT_STUBS,
    aws: `case "$*" in ${Object.entries(answers).map(([arn, value]) => `*"--secret-id ${arn} "*) printf '%s\\n' '${value}' ;;`).join(' ')} *) exit 254 ;; esac`,
  });

  test('the same app\'s secret and one key of a JSON secret', () => {
    const run = runInSandbox(runnable(userData(byProps.json), byProps.secretId),
      aws({ [SAME_APP_ARN]: 'same-app-value', [DB]: '{"username": "wiki", "password": "pw \\"q\\" 1"}' }));
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.written(ENV_FILE)).toBe('SAME_APP="same-app-value"\nDB_PASSWORD="pw \\"q\\" 1"\n');
    expect(run.log).toContain(`reading DB_PASSWORD from Secrets Manager (${DB}, key password of its JSON)`);
  });

  test('the context key\'s secret', () => {
    const run = runInSandbox(runnable(userData(byContext.json), byContext.secretId), aws({ [API]: 'api-value' }));
    expect(run.status).toBe(0);
    expect(run.written(ENV_FILE)).toBe('API_TOKEN="api-value"\n');
  });

  test('a JSON secret without the key stops the boot, naming the key and never the document', () => {
    const run = runInSandbox(runnable(userData(byProps.json), byProps.secretId),
      aws({ [SAME_APP_ARN]: 'same-app-value', [DB]: '{"username": "wiki", "pasword": "typo-canary"}' }));
    expect(run.status).not.toBe(0);
    expect(run.log).toContain('the SecretString has no key password');
    expect([run.stdout, run.stderr, ...run.log].join('\n')).not.toContain('typo-canary');
    expect(run.written(ENV_FILE)).toBe('SAME_APP="same-app-value"\n');
  });
});

describe('each refused form has its own message, naming the variable and the plugin, with an example', () => {
  const refused = (secrets: Record<string, unknown>) => () =>
    deploy(RuntimeType.FARGATE, () => ({ secrets: secrets as Record<string, string> }));

  test.each([
    ['a variable name that is none', { 'DB-PASSWORD': DB },
      'secrets (for WikiSpec).DB-PASSWORD: "DB-PASSWORD" is not an environment variable name; allowed: letters, digits and _, not starting with a digit, for example DB_PASSWORD.'],
    ['a value that is not an ARN, never shown', { DB_PASSWORD: 'hunter2-canary' },
      `secrets (for WikiSpec).DB_PASSWORD is not an ARN (the value is not shown: it may be the secret itself); give the complete ARN as Secrets Manager shows it (for example ${SECRET_ARN_EXAMPLE}), the JSON-key form for one key of a JSON secret (${SECRET_JSON_KEY_EXAMPLE}), or a secret of the same app by its secretArn.`],
    ['an ARN of another service', { DB_PASSWORD: 'arn:aws:ssm:eu-west-1:123456789012:parameter/db' },
      'secrets (for WikiSpec).DB_PASSWORD is an ARN of ssm ("arn:aws:ssm:eu-west-1:123456789012:"...), not of a Secrets Manager secret;'],
    ['a partial ARN', { DB_PASSWORD: `${ARN}db` },
      `secrets (for WikiSpec).DB_PASSWORD is "${ARN}db", a partial ARN: it lacks the - and six characters Secrets Manager appends to the name, which ECS and IAM need;`],
    ['a JSON key without the two version fields', { DB_PASSWORD: `${DB}:password` },
      `secrets (for WikiSpec).DB_PASSWORD is "${DB}" with 1 field after it (not shown): the JSON-key form has three fields after the secret's name, <json-key>:<version-stage>:<version-id>, the last two may be empty (for example ${SECRET_JSON_KEY_EXAMPLE}).`],
    ['both a version stage and a version id', { DB_PASSWORD: `${DB}:password:AWSCURRENT:0123` },
      'secrets (for WikiSpec).DB_PASSWORD names both a version stage and a version id; ECS takes one of them'],
  ])('%s', (_name, secrets, message) => {
    expect(refused(secrets)).toThrow(message);
    try {
      refused(secrets)();
    } catch (e) {
      expect((e as Error).message).not.toContain('hunter2-canary');
      expect((e as Error).message.split('\n')).toHaveLength(2);
    }
  });

  test('a deploy-time value that is not a secret\'s secretArn', () => {
    const app = new App();
    const stack = new Stack(app, 'WikiStack', { env: REGION_ENV });
    const secret = new secretsmanager.Secret(stack, 'SameApp');
    expect(() => new ApplicationFactory(stack, 'App', RuntimeType.FARGATE, new WikiSpec(), { secrets: { DB_PASSWORD: `prefix-${secret.secretArn}` } }))
      .toThrow('secrets (for WikiSpec).DB_PASSWORD is a value known only at deploy time, but not a secret\'s secretArn');
  });

  test('the parser reads the accepted forms, the JSON key and the version apart', () => {
    expect(parseSecretReference('s.X', 'X', DB)).toEqual({ secretArn: DB });
    expect(parseSecretReference('s.X', 'X', `${DB}:password::`)).toEqual({ secretArn: DB, jsonKey: 'password' });
    expect(parseSecretReference('s.X', 'X', `${DB}::AWSPREVIOUS:`)).toEqual({ secretArn: DB, versionStage: 'AWSPREVIOUS' });
  });
});

describe('on a platform', () => {
  /** A platform of `securityProfile` in its stack, and the wiki in its own with a secret that stack creates. */
  function attach(securityProfile: SecurityProfile) {
    const app = new App();
    const platform = new Platform(new Stack(app, 'Platform', { env: REGION_ENV }), 'Platform', { ...PLATFORM_PROPS, securityProfile });
    const stack = new Stack(app, 'Wiki', { env: REGION_ENV });
    const secret = new secretsmanager.Secret(stack, 'SameApp');
    return () => new ApplicationFactory(stack, 'App', RuntimeType.FARGATE, new WikiSpec(), {
      platform,
      subdomain: 'wiki',
      pciDssScope: PciDssScope.CONNECTED,
      imageDigests: IMAGE_DIGESTS,
      secrets: { SAME_APP: secret.secretArn, KEY: `${secret.secretArn}:password::`, DB_PASSWORD: DB },
    });
  }

  test('STAGING and PRODUCTION refuse a secret the app creates, which the endpoint policy would import: by the variables, with what to give instead', () => {
    // Without the refusal the platform's stack imports the secret's ARN from the application's stack (Fn::ImportValue)
    // and is deployed after it, while the application reads the platform's SSM parameters when it is deployed.
    for (const profile of [SecurityProfile.STAGING, SecurityProfile.PRODUCTION]) {
      expect(attach(profile)).toThrow(new RegExp(`^Application Wiki \\(wiki\\) on platform Platform reads SAME_APP, KEY from a secret whose ARN is known only at deploy time .* In ${profile} the platform's Secrets Manager endpoint .* Give the secret's complete ARN instead \\(for example ${SECRET_ARN_EXAMPLE}\\)`));
    }
  });

  test('DEV, whose platform has no endpoints, takes it', () => {
    expect(attach(SecurityProfile.DEV)).not.toThrow();
  });
});

describe.each([RuntimeType.FARGATE, RuntimeType.EC2])('secrets under a customer-managed key (secretKeyArns) on %s', (runtime) => {
  const KEY = 'arn:aws:kms:eu-west-1:123456789012:key/12345678-1234-1234-1234-123456789012';
  const build = (props: ApplicationFactoryProps) => {
    const stack = new Stack(new App(), 'Wiki', { env: REGION_ENV });
    new ApplicationFactory(stack, 'App', runtime, new WikiSpec(), { secrets: { DB_PASSWORD: SECRET_ARN_EXAMPLE }, ...props });
    return Template.fromStack(stack).toJSON();
  };
  /** Each kms:Decrypt statement of the template: its keys and its condition. */
  const decrypts = (json: any) => Object.values<any>(json.Resources).filter((r) => r.Type === 'AWS::IAM::Policy')
    .flatMap((p) => p.Properties.PolicyDocument.Statement).filter((s: any) => s.Action === 'kms:Decrypt');

  test('the role that reads the secrets may decrypt with the keys named, through Secrets Manager only', () => {
    expect(decrypts(build({ secretKeyArns: [KEY] }))).toContainEqual({
      Effect: 'Allow',
      Action: 'kms:Decrypt',
      Resource: KEY,
      Condition: { StringEquals: { 'kms:ViaService': 'secretsmanager.eu-west-1.amazonaws.com' } },
    });
    expect(decrypts(build({})).filter((s: any) => JSON.stringify(s.Resource).includes(':kms:eu-west-1:123456789012:key/'))).toEqual([]);
  });

  test('an alias, or a key named twice, is refused with what is allowed', () => {
    expect(() => build({ secretKeyArns: ['arn:aws:kms:eu-west-1:123456789012:alias/secrets'] }))
      .toThrow(/secretKeyArns .* is not allowed; expected a list of 1 to 10 KMS key ARNs, each once/);
    expect(() => build({ secretKeyArns: [KEY, KEY] })).toThrow(/secretKeyArns .* is not allowed/);
  });
});
