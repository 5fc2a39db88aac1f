import { App, Stack } from 'aws-cdk-lib';
import { ApplicationFactory, JenkinsSpec, RuntimeType, SecurityProfile } from '../src';
import { SIGN_IN } from './support/jenkins';
import { propsFor, REGION_ENV, testDefaults } from './support/synth';
import { ContainerImageSpec } from '../src/container-image/container-image-spec';

/**
 * Each variable the application gets is set once (injection review 6, F4b, F5): a `secrets` entry named like a
 * variable the framework or the plugin sets would replace it on EC2 (systemd keeps the environment file's entry over
 * `Environment=`: the build server's JAVA_OPTS with its hardening flags, its checked OIDC_WELL_KNOWN_URL) while ECS
 * refuses it only at deploy; a name that is no variable name would write other lines into an environment file.
 * Refused at synth on both runtimes, naming both setters; only names are shown.
 */
const ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:ci/override-AbCdEf';

function factory(runtime: RuntimeType, spec: any, props: object) {
  const stack = new Stack(new App(), 'Ci', { env: REGION_ENV });
  return () => new ApplicationFactory(stack, 'App', runtime, spec, { ...propsFor(SecurityProfile.DEV), ...testDefaults(spec), ...props });
}

describe.each([RuntimeType.FARGATE, RuntimeType.EC2])('on %s', (runtime) => {
  test.each([
    ['JAVA_OPTS', 'JenkinsSpec.containerEnvironmentVariables()'],
    ['CASC_JENKINS_CONFIG', 'JenkinsSpec.containerEnvironmentVariables()'],
    ['JENKINS_HOME', 'JenkinsSpec.containerEnvironmentVariables()'],
    ['JENKINS_LOG', 'JenkinsSpec.containerEnvironmentVariables()'],
    ['OIDC_WELL_KNOWN_URL', 'the OIDC integration'],
    ['OIDC_CLIENT_SECRET', 'the OIDC integration'],
    ['FW_WORKERS_CLUSTER_ARN', 'the framework for the workers'],
  ])('a secret named %s is refused, naming who sets it', (name, setBy) => {
    const build = factory(runtime, new JenkinsSpec(), { ...SIGN_IN, secrets: { [name]: ARN } });
    expect(build).toThrow(`${name} is set by ${setBy} and by the secrets key; each variable is set once: rename it in the secrets key`);
    expect(build).not.toThrow(ARN);
  });

  test('negative control: a secret of its own name passes', () => {
    expect(factory(runtime, new JenkinsSpec(), { ...SIGN_IN, secrets: { DEPLOY_TOKEN: ARN } })).not.toThrow();
  });
});

test.each([['A\nB'], ['X="1"\nLD_PRELOAD'], ['$(touch x)'], ['1ABC'], ['A=B']])('an image\'s environment name %j is refused', (name) => {
  const spec = new ContainerImageSpec({ applicationId: 'app', image: 'nginx:1.27', port: 80, user: '101:101', dataPath: '/data', environment: { [name]: 'v' } });
  expect(factory(RuntimeType.EC2, spec, {})).toThrow(`ContainerImageSpec.containerEnvironmentVariables() names the variable ${JSON.stringify(name)}; ` +
    'allowed: a letter or _, then letters, digits and _');
});

test('an image\'s environment named like the database\'s variable is refused, naming both', () => {
  const spec = new ContainerImageSpec({
    applicationId: 'app',
    image: 'nginx:1.27',
    port: 80,
    user: '101:101',
    dataPath: '/data',
    environment: { DB_HOST: 'elsewhere' },
    database: { engine: 'postgres', majorVersion: '17', databaseName: 'app', environment: { host: 'DB_HOST' } },
  } as any);
  expect(factory(RuntimeType.FARGATE, spec, {})).toThrow(/DB_HOST is set by ContainerImageSpec\.containerEnvironmentVariables\(\) and by ContainerImageSpec\.database\(\)\.environment/);
});
