import { App, Stack } from 'aws-cdk-lib';
import { ApplicationFactory, JenkinsSpec, RuntimeType, SecurityProfile } from '../src';
import { pinnedImage, propsFor, REGION_ENV, testDefaults } from './support/synth';
import { SONARQUBE_SETTINGS } from '../src/build-server/jenkins-sonarqube';
import { cell } from '../src/compliance/evidence-markdown';
import { markupText } from '../src/compliance/oscal-assessment-results';
import { containerImageProps } from '../src/container-image/container-image-config';
import { ContainerImageSpec } from '../src/container-image/container-image-spec';
import { httpsUrl } from '../src/context/key-parsers';
import { configuredSpec } from '../src/context/plugin-settings';
import { parseSecretReference } from '../src/context/secret-reference';

/**
 * What is checked is what is rendered, and a refusal never echoes a secret (injection review 6, F6-F8, F10).
 */
describe('OIDC URLs: the URL parser drops spaces, tabs and line breaks before it reads, so they are refused', () => {
  test.each([' https://login.example.com', 'https://login.example.com/\nx', 'https://login.example.com/a b', 'https://login.example.com/\tx',
    'https://login.example.com/x\u0000y', 'https://login.example.com/ '])('%j is refused', (url) => {
    expect(httpsUrl(url)).toEqual({ allowed: 'an https:// URL, without spaces or control characters' });
  });
  test('negative control: a URL is rendered exactly as it was checked', () => {
    expect(httpsUrl('https://login.example.com/oauth2/authorize')).toEqual({ value: 'https://login.example.com/oauth2/authorize' });
  });
});

describe('refusals show no secret', () => {
  const PASSWORD = 'hunter2-SECRET-E';
  test.each([
    [`arn:aws:secretsmanager:eu-west-1:123456789012:secret:db-AbCdEf:${PASSWORD}`, /db-AbCdEf" with 1 field after it \(not shown\)/],
    [`arn:aws:secretsmanager:eu-west-1:123456789012:secret:db:${PASSWORD}:x:y`, /a partial ARN/],
    [`arn:aws:ssm:eu-west-1:123456789012:parameter/${PASSWORD}`, /an ARN of ssm/],
  ])('a secret reference %s is refused without what follows the secret\'s name', (value, reason) => {
    const parsed = parseSecretReference('secrets.X', 'X', value) as { problem: string };
    expect(parsed.problem).toMatch(reason);
    expect(parsed.problem).not.toContain(PASSWORD);
  });
  test('containerImage.environment with a value that is no text names the entry, never a value', () => {
    const read = () => containerImageProps('app', { image: 'nginx:1.27', port: 80, user: '101:101', dataPath: '/data', environment: { DB_PASSWORD: PASSWORD, N: 1 } });
    expect(read).toThrow('containerImage.environment (entries "N") is not allowed');
    expect(read).not.toThrow(PASSWORD);
  });
  test('the build server\'s SonarQube secret-ARN settings are sensitive: a pasted token is not shown', () => {
    const token = 'squ_0123456789abcdef0123456789abcdefINJ6TOK';
    const configure = () => configuredSpec('JenkinsSpec', new JenkinsSpec(), {
      [SONARQUBE_SETTINGS.serverUrl]: 'https://sonar.example.com',
      [SONARQUBE_SETTINGS.tokenSecretArn]: token,
      [SONARQUBE_SETTINGS.webhookSecretArn]: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:sonar-webhook-AbCdEf',
    });
    expect(configure).toThrow(/sonarQubeTokenSecretArn \(hidden, 43 characters\)/);
    expect(configure).not.toThrow(token);
  });
});

describe('text from configuration in the report\'s Markdown tables stays in its cell', () => {
  /** The cells of a GFM table row: split at each `|` not escaped by a backslash (itself not escaped). */
  const cells = (row: string) => row.split(/(?<!(?:^|[^\\])(?:\\\\)*\\)\|/).slice(1, -1);
  test.each([
    ['a | pipe'], ['a \\| escaped pipe'], ['a\r| 8.2.1 | FORGED-ROW | Passed |'], ['a\n| forged'], ['back\\slash \\\\| x'],
  ])('%j', (reason) => {
    const row = `| SECURITY-3972 | ${cell(reason)} | owner |`;
    expect(row).not.toMatch(/[\r\n]/);
    expect(cells(row)).toHaveLength(3);
  });
  test('negative control: the escaping before issue 61 let a backslash or a CR end the cell', () => {
    const before = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
    expect(cells(`| x | ${before('a \\| escaped pipe')} | o |`)).toHaveLength(4);
    expect(`| x | ${before('a\r| forged')} | o |`).toMatch(/\r/);
  });
});

test.each([RuntimeType.FARGATE, RuntimeType.EC2])('a root container (0:0) is refused in PRODUCTION on %s; Fargate runs it in STAGING', (runtime) => {
  const spec = new ContainerImageSpec({ applicationId: 'app', image: 'nginx:1.27', port: 80, user: '0:0', dataPath: '/data' });
  const build = (profile: SecurityProfile) => () => new ApplicationFactory(new Stack(new App(), 'App', { env: REGION_ENV }), 'App', runtime, spec,
    { ...propsFor(profile), ...testDefaults(spec), ...pinnedImage(runtime, propsFor(profile)) });
  expect(build(SecurityProfile.PRODUCTION)).toThrow(/containerUser\(\) is '0:0': uid 0 is root/);
  if (runtime === RuntimeType.FARGATE) expect(build(SecurityProfile.STAGING)).not.toThrow();
});

test('text from configuration in an OSCAL markup field reads as written: no emphasis, link, insert or line break', () => {
  expect(markupText('a *b* [x](y) {{ insert: param, p }} <b> \\ c\r\n- d')).toBe('a \\*b\\* \\[x\\](y) \\{\\{ insert: param, p \\}\\} \\<b\\> \\\\ c  - d');
  expect(markupText('Fixed in core 2.568.3, not yet pinned (docs/build-server.md).')).toBe('Fixed in core 2.568.3, not yet pinned (docs/build-server.md).');
});
