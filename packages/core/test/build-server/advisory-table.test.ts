import * as fs from 'fs';
import * as YAML from 'yaml';
import { AuthMode, JenkinsSpec, SecurityProfile } from '../../src';
import { complianceJobsScript, pipelineScripts } from '../../src/build-server/compliance-jobs';
import { JENKINS_BLOCKED_REQUESTS } from '../../src/build-server/hardening';
import { PINS_UNDER_ADVISORY } from '../../src/build-server/versions';
import { advisoryTable, DOC, EXPOSURE, MITIGATIONS, TABLE_END, TABLE_START } from '../support/advisory-table';

/**
 * docs/build-server.md's table of advisories against the pins is generated from exposure.json, and each mitigation
 * it names holds in what the build server renders (its jenkins.yaml, its environment, its blocked requests), with a
 * SonarQube server and a private library so that credentials and the library are in the configuration.
 */
const ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:ci/secret-AbCdEf';
const spec = new JenkinsSpec({
  sonarQube: { serverUrl: 'https://sonar.example.com', tokenSecretArn: ARN, webhookSecretArn: ARN },
  pipelineLibrary: { repository: 'https://git.example.com/ci/lib.git', version: 'v1', credentialsSecretArn: ARN },
});
const casc = YAML.parse(spec.containerInitialization('ci.example.com', true, AuthMode.APPLICATION_OIDC, SecurityProfile.PRODUCTION).files['jenkins.yaml']);
const javaOpts = spec.containerEnvironmentVariables('ci.example.com', true, AuthMode.APPLICATION_OIDC).JAVA_OPTS.split(' ');
/** Whether a declared block covers the request (waf-blocked-requests.test.ts evaluates the synthesised web ACL itself). */
const blocks = (method: string, requestPath: string, contentType = '') =>
  JENKINS_BLOCKED_REQUESTS.some((b) => new RegExp(b.pathPattern).test(requestPath) && (!('method' in b) || b.method === method) &&
    (!('contentTypePattern' in b) || new RegExp(b.contentTypePattern).test(contentType.toLowerCase())));

/** Each mitigation, as the rendered configuration shows it. */
const HOLDS: Record<string, () => boolean> = {
  'overall-read-named-groups': () => casc.jenkins.authorizationStrategy.projectMatrix.entries
    .filter((e: any) => e.group.permissions.some((p: string) => p.startsWith('Overall/')))
    .every((e: any) => ['jenkins-admins', 'jenkins-developers', 'jenkins-devops', 'jenkins-viewers', 'jenkins-auditors'].includes(e.group.name)),
  'csp-enforced': () => casc.security.contentSecurityPolicy.enforce === true,
  'cli-websocket-off': () => javaOpts.includes('-Dhudson.cli.CLIAction.ALLOW_WEBSOCKET=false'),
  'waf-blocks-cli': () => blocks('POST', '/cli') && blocks('GET', '/cli/ws') && blocks('POST', '/manage/cli'),
  'waf-blocks-xml-posts': () => blocks('POST', '/job/app/config.xml') && blocks('POST', '/me/my-views/view/all/config.xml') &&
    blocks('POST', '/job/app/config.xml/x') && blocks('POST', '/me/my-views/createView', 'application/xml') &&
    !blocks('GET', '/job/app/config.xml') && !blocks('POST', '/me/my-views/createView', 'application/x-www-form-urlencoded'),
  'remember-me-off': () => casc.jenkins.disableRememberMe === true,
  'force-sandbox-each-start': () => casc.security.scriptApproval.forceSandbox === true,
  'compliance-scripts-own-job': () => pipelineScripts(complianceJobsScript())
    .every((script) => script.includes('\nif (currentBuild.rawBuild.parent.fullName != \'compliance/')),
  'no-library-cache': () => casc.unclassified.globalLibraries.libraries.length > 0 &&
    casc.unclassified.globalLibraries.libraries.every((l: any) => l.cachingConfiguration === undefined),
  'no-system-credentials': () => {
    const credentials = casc.credentials.system.domainCredentials.flatMap((d: any) => d.credentials).map((c: any) => Object.values(c)[0]);
    return credentials.length > 0 && credentials.every((c: any) => c.scope === 'GLOBAL');
  },
};

test('docs/build-server.md holds the generated table (regenerate with test/support/advisory-table.ts)', () => {
  const doc = fs.readFileSync(DOC, 'utf-8');
  expect(doc.slice(doc.indexOf(TABLE_START) + TABLE_START.length, doc.indexOf(TABLE_END)).trim()).toBe(advisoryTable());
  expect(advisoryTable().split('\n').length).toBe(2 + PINS_UNDER_ADVISORY.flatMap((e) => e.advisories).length);
});

test('every mitigation the table names holds in the rendered configuration, and is described', () => {
  const named = [...new Set(Object.values<any>(EXPOSURE.advisories).flatMap((a) => a.narrowedBy))];
  expect(named.filter((k) => !(k in MITIGATIONS) || !(k in HOLDS))).toEqual([]);
  for (const key of Object.keys(HOLDS)) expect([key, HOLDS[key]()]).toEqual([key, true]);
});

test('negative control: a configuration that lost a mitigation is found', () => {
  const entries = casc.jenkins.authorizationStrategy.projectMatrix.entries;
  entries.push({ group: { name: 'authenticated', permissions: ['Overall/Read'] } });
  expect(HOLDS['overall-read-named-groups']()).toBe(false);
  entries.pop();
  casc.security.contentSecurityPolicy.enforce = false;
  expect(HOLDS['csp-enforced']()).toBe(false);
  casc.security.contentSecurityPolicy.enforce = true;
  expect(HOLDS['overall-read-named-groups']() && HOLDS['csp-enforced']()).toBe(true);
});
