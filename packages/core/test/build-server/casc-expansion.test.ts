import { spawnSync } from 'child_process';
import { BashUserDataBuilder, JenkinsSpec, type JenkinsSpecProps } from '../../src';
import { refuseExpandedSecrets, refuseExpandedSecretsInFile } from '../../src/build-server/casc-variable';
import { SONARQUBE_SETTINGS } from '../../src/build-server/jenkins-sonarqube';
import { UserError } from '../../src/errors';
import { Shell } from '../../src/userdata/shell';
import { fargateContainers } from '../support/jenkins';
import { runInSandbox, SANDBOX_NEEDS, sandboxUnavailable } from '../support/sandbox';
import { needing } from '../support/shellcheck';

/**
 * No user value reaches jenkins.yaml where configuration-as-code would expand it: `${...}` is resolved at every start
 * from the controller's environment and secrets (configuration-as-code 2117.vc05a_0b_e6b_f4e SecretSourceResolver.java
 * lines 45-69), so `sonarQubeUrl` = `https://sonar.example.com/${OIDC_CLIENT_SECRET}` put the client secret on a page
 * every viewer reads. Each rendered prop and setting is refused with `${`, naming it.
 */
const SECRET = '${OIDC_CLIENT_SECRET}';
const ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:sonar-token-AbCdEf';
const LIBRARY = { repository: 'https://git.example.com/ci/lib.git', version: 'v1' };

/** Each rendered prop, with a value carrying `${` in it. */
const RENDERED: Array<[string, JenkinsSpecProps]> = [
  ['adminGroup', { adminGroup: `admins${SECRET}` }],
  ['developerGroup', { developerGroup: SECRET }],
  ['devopsGroup', { devopsGroup: SECRET }],
  ['viewerGroup', { viewerGroup: SECRET }],
  ['auditorGroup', { auditorGroup: SECRET }],
  ['userIdClaim', { userIdClaim: SECRET }],
  ['syslogHost', { syslogHost: `logs${SECRET}.example.com`, syslogNetwork: '10.0.5.20/32' }],
  ['pipelineLibrary.repository', { pipelineLibrary: { ...LIBRARY, repository: `https://git.example.com/${SECRET}.git` } }],
  ['pipelineLibrary.version', { pipelineLibrary: { ...LIBRARY, version: SECRET } }],
  ['pipelineLibrary.credentialsId', { pipelineLibrary: { ...LIBRARY, credentialsId: SECRET } }],
  ['sonarQube.serverUrl', { sonarQube: { serverUrl: `https://sonar.example.com/${SECRET}`, tokenSecretArn: ARN, webhookSecretArn: ARN } }],
  ['agentImage', { agentImage: `jenkins/inbound-agent:${SECRET}` }],
  ['agentLabel', { agentLabel: `fw${SECRET}` }],
];

test.each(RENDERED)('%s with "${" is refused, naming it and not showing the value', (name, props) => {
  const build = () => new JenkinsSpec(props);
  expect(build).toThrow(UserError);
  expect(build).toThrow(new RegExp(`^JenkinsSpec: ${name.replace('.', '\\.')} contains "\\$\\{", which configuration-as-code would expand`));
  expect(build).not.toThrow(/OIDC_CLIENT_SECRET/);
});

test('the SonarQube address given as a plugin setting is refused the same way, naming the setting', () => {
  const settings = { [SONARQUBE_SETTINGS.serverUrl]: `https://sonar.example.com/${SECRET}`, [SONARQUBE_SETTINGS.tokenSecretArn]: ARN, [SONARQUBE_SETTINGS.webhookSecretArn]: ARN };
  expect(() => new JenkinsSpec().withSettings(settings)).toThrow(/^JenkinsSpec: pluginSettings: sonarQubeUrl contains "\$\{"/);
});

test.each([['oidcIssuer', { issuer: `https://login.example.com/${SECRET}` }], ['oidcClientId', { clientId: SECRET }],
  ['oidcScopes', { scopes: ['openid', SECRET] }]])('the context key %s with "${" is refused too: it reaches jenkins.yaml as a variable\'s value', (key, given) => {
  const provider = {
    issuer: 'https://login.example.com',
    authorizationEndpoint: 'https://login.example.com/a',
    tokenEndpoint: 'https://login.example.com/t',
    userInfoEndpoint: 'https://login.example.com/u',
    clientId: 'ci',
    clientSecretArn: ARN,
  };
  const integration = new JenkinsSpec().oidcIntegration();
  expect(() => integration.environment({ ...provider, ...given })).toThrow(`JenkinsSpec: the identity provider's keys: ${key} contains "\${"`);
  expect(() => integration.environment(provider)).not.toThrow();
});

test('negative control: a lone $ or { is no expansion, and the same values without "${" are taken', () => {
  expect(() => new JenkinsSpec({ adminGroup: 'admins$', viewerGroup: 'view{ers}', sonarQube: { serverUrl: 'https://sonar.example.com/$x', tokenSecretArn: ARN, webhookSecretArn: ARN } })).not.toThrow();
  for (const [, props] of RENDERED) {
    const clean = JSON.parse(JSON.stringify(props).split(SECRET).join('x'));
    expect(() => new JenkinsSpec(clean)).not.toThrow();
  }
});

/**
 * The runtime secrets jenkins.yaml names (`${OIDC_CLIENT_SECRET}`, SonarQube's, the library's) are expanded again at
 * start (SecretSourceResolver.java lines 59-68): synth cannot see their values, so the boot refuses one holding `${`,
 * naming the variable and never the value. Run as each runtime runs it: the init container's sh lines with the secret
 * in the environment (Fargate), and on EC2 the real `fw_env_line` writing the environment file, then the check.
 */
describe('a runtime secret holding "${" stops the boot, naming it and not the value', () => {
  const NAME = 'OIDC_CLIENT_SECRET';
  const REFUSED = ['pw${readFile:/var/jenkins_home/secret.key}', '${SONAR_TOKEN}', 'a\\${b}', 'x"${y}"', 'line one\nthen ${x}'];
  const ALLOWED = ['plain-secret', 'pw$1{2}', '{}$', '$', 'a"b\\c$d`e\'f', '$ {x}', '\\\\{', 'line one\nline "two" $'];

  const fargate = (value: string) => spawnSync('sh', ['-c', refuseExpandedSecrets([NAME]).join('\n')], { env: { [NAME]: value }, encoding: 'utf-8' });
  test.each(REFUSED)('Fargate: %s is refused', (value) => {
    const run = fargate(value);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`${NAME}: its value holds "\${", which configuration-as-code would expand at start (the value is not shown)`);
    expect(run.stderr).not.toContain(value);
  });
  test.each(ALLOWED)('negative control, Fargate: %s passes', (value) => {
    expect(fargate(value).status).toBe(0);
  });
  test('Fargate: the init container is given the secrets it checks, by reference', () => {
    const { init } = fargateContainers();
    expect(init.Secrets.map((s: any) => s.Name)).toEqual([NAME]);
    expect(init.Command[0]).toContain(`case "\${${NAME}-}" in`);
  });

  const FILE = '/etc/fw/application.env';
  const ec2 = (value: string) => {
    const builder = new BashUserDataBuilder();
    builder.addEnvironmentCommands('install -d -m 0700 /etc/fw', `install -m 0600 /dev/null ${FILE}`, `fw_env_line ${FILE} ${NAME} ${Shell.quote(value)}`,
      `fw_env_line ${FILE} OTHER ${Shell.quote('${not-checked}')}`);
    builder.addCommands(...refuseExpandedSecretsInFile(FILE, [NAME, 'ABSENT']), 'echo started');
    return runInSandbox(builder.render());
  };
  needing(SANDBOX_NEEDS, sandboxUnavailable()).describe('EC2', () => {
    test.each(REFUSED)('%s is refused', (value) => {
      const run = ec2(value);
      expect(run.status).toBe(1);
      expect(run.stdout).not.toContain('started');
      expect(run.log).toContain(`${NAME}: its value holds "\${", which configuration-as-code would expand at start (the value is not shown); change the secret in Secrets Manager`);
      expect(run.log.join('\n')).not.toContain(value.split('\n')[0]);
    });
    test.each(ALLOWED)('negative control: %s passes', (value) => {
      const run = ec2(value);
      expect([run.status, run.stdout]).toEqual([0, 'started\n']);
    });
  });
});
