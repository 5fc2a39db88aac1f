import * as fs from 'fs';
import * as path from 'path';
import { App, Stack } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { ApplicationFactory, AuthMode, DeploymentContextReader, IApplicationSpec, JenkinsSpec, RuntimeType, SecurityProfile } from '../src';
import { WikiSpec } from './fixtures/wiki-spec';
import { OIDC, propsFor, REGION_ENV } from './support/synth';
import { PINS_UNDER_ADVISORY } from '../src/build-server/versions';
import { knownVulnerabilityProblems } from '../src/contract/known-vulnerability';
import { specProblems } from '../src/contract/spec-validation';

/**
 * A plugin declares what it installs under published advisories (`knownVulnerabilities()`); `acceptedAdvisories`
 * says which are deployed anyway, why, and until when. PRODUCTION refuses the rest, the other profiles warn. The clock
 * is `SOURCE_DATE_EPOCH` (here 2026-11-28), as for the evidence report.
 */
const JENKINS = { authMode: AuthMode.APPLICATION_OIDC, oidc: OIDC, domain: 'example.com', alarmEmail: 'security@example.com' };
const DECLARED = new JenkinsSpec().knownVulnerabilities();
const acceptAll = (entry: object | string) => Object.fromEntries(DECLARED.map((v) => [v.id, entry]));
/** Who accepted the risk and where an assessor reads it: what PRODUCTION needs of each acceptance. */
const OWNED = { owner: 'platform-security', reference: 'SEC-12' };

/** The factory in a fresh stack: the check runs before anything is built, so nothing is synthesised. */
function factory(profile: SecurityProfile, acceptedAdvisories: Record<string, any>, spec: IApplicationSpec = new JenkinsSpec(),
  props: object = JENKINS) {
  const stack = new Stack(new App(), 'Ci', { env: REGION_ENV });
  new ApplicationFactory(stack, 'App', RuntimeType.FARGATE, spec, { ...propsFor(profile), ...props, acceptedAdvisories });
  return stack;
}

let epoch: string | undefined;
beforeAll(() => { epoch = process.env.SOURCE_DATE_EPOCH; process.env.SOURCE_DATE_EPOCH = String(Date.UTC(2026, 10, 28) / 1000); });
afterAll(() => { if (epoch === undefined) delete process.env.SOURCE_DATE_EPOCH; else process.env.SOURCE_DATE_EPOCH = epoch; });

test('the build server declares every advisory of PINS_UNDER_ADVISORY, each with its pinned version, severity and fix', () => {
  expect(DECLARED.map((v) => v.id)).toEqual(PINS_UNDER_ADVISORY.flatMap((e) => e.advisories));
  expect(DECLARED).toContainEqual({
    id: 'SECURITY-3972',
    component: 'jenkins-core',
    version: '2.568.2',
    severity: 'High',
    fixedIn: '2.568.3',
    url: 'https://www.jenkins.io/security/advisory/2026-09-02/',
  });
  expect(DECLARED).toContainEqual({
    id: 'SECURITY-3729',
    component: 'workflow-multibranch',
    version: '821.vc3b_4ea_780798',
    severity: 'Low',
    fixedIn: '842.v3a_b_59b_57b_e6e',
    url: 'https://www.jenkins.io/security/advisory/2026-09-16/',
  });
  expect(specProblems(new JenkinsSpec(), 'JenkinsSpec')).toEqual([]);
});

test('PRODUCTION without acceptedAdvisories is refused, naming each advisory with its component, version, severity and fix', () => {
  const build = () => factory(SecurityProfile.PRODUCTION, {});
  expect(build).toThrow(/^JenkinsSpec installs releases under published advisories, which PRODUCTION does not deploy unaccepted: SECURITY-3972 \(jenkins-core 2\.568\.2, High, fixed in 2\.568\.3\); /);
  for (const v of DECLARED) expect(build).toThrow(`${v.id} (${v.component} ${v.version}, ${v.severity}, fixed in ${v.fixedIn})`);
  expect(build).toThrow(/To deploy anyway, accept each in the context key acceptedAdvisories/);
  // One left out is named alone.
  const allButOne = acceptAll({ reason: 'r', ...OWNED });
  delete allButOne['SECURITY-3989'];
  expect(() => factory(SecurityProfile.PRODUCTION, allButOne)).toThrow(/unaccepted: SECURITY-3989 \(sonar 2\.18\.2, High, fixed in 2\.19\.0\)\. To deploy/);
});

test('with every advisory accepted, PRODUCTION builds; an acceptance holds through its until day and lapses after it', () => {
  expect(() => factory(SecurityProfile.PRODUCTION, acceptAll({ reason: 'CLI and config.xml POSTs blocked at the WAF', ...OWNED }))).not.toThrow();
  expect(() => factory(SecurityProfile.PRODUCTION, acceptAll({ reason: 'r', until: '2026-11-28', ...OWNED }))).not.toThrow();
  const lapsed = { ...acceptAll({ reason: 'r', until: '2027-01-31', ...OWNED }), 'SECURITY-3972': { reason: 'r', until: '2026-11-27', ...OWNED } };
  expect(() => factory(SecurityProfile.PRODUCTION, lapsed))
    .toThrow(/unaccepted: SECURITY-3972 \(jenkins-core 2\.568\.2, High, fixed in 2\.568\.3\) \(accepted until 2026-11-27, which has passed\)\. To deploy/);
});

test('PRODUCTION refuses an acceptance without owner or reference, naming each advisory and what it lacks; other profiles do not ask', () => {
  const accepted: Record<string, unknown> = { ...acceptAll({ reason: 'r', ...OWNED }), 'SECURITY-3972': 'reason only', 'SECURITY-3989': { reason: 'r', owner: 'o' } };
  delete accepted['SECURITY-3729'];
  const build = () => factory(SecurityProfile.PRODUCTION, accepted);
  // Every problem at once: the one not accepted, then the acceptances without owner or reference.
  expect(build).toThrow(/unaccepted: SECURITY-3729 \(workflow-multibranch [^)]+\)\. To deploy anyway, .* acceptedAdvisories: PRODUCTION needs the owner and the reference of each acceptance, which SECURITY-3972 lacks \(owner and reference\); SECURITY-3989 lacks \(reference\); give each as/);
  expect(() => factory(SecurityProfile.STAGING, acceptAll('reason only'))).not.toThrow();
});

test('an accepted id the application does not declare is refused in every profile, with the closest one it declares', () => {
  const typo = { ...acceptAll('r'), 'SECURTY-3972': 'r' };
  expect(() => factory(SecurityProfile.PRODUCTION, typo)).toThrow(/^acceptedAdvisories names "SECURTY-3972" \(did you mean SECURITY-3972\?\), which JenkinsSpec does not declare; allowed: SECURITY-3972, /);
  expect(() => factory(SecurityProfile.DEV, { 'SECURITY-3972': 'r' }, new WikiSpec(), {}))
    .toThrow('acceptedAdvisories names "SECURITY-3972", which WikiSpec does not declare; allowed: none (it declares no known vulnerability).');
});

test('DEV and STAGING deploy them with a warning naming each; accepted ones are not warned about', () => {
  for (const profile of [SecurityProfile.DEV, SecurityProfile.STAGING]) {
    const warnings = Annotations.fromStack(factory(profile, {})).findWarning('*', Match.stringLikeRegexp('@fw/core:known-vulnerabilities'));
    expect(warnings.map((w) => String(w.entry.data))).toEqual([expect.stringMatching(new RegExp(`^JenkinsSpec installs releases under published advisories: SECURITY-3972 .*\\. ${profile} deploys them; PRODUCTION refuses them until you accept each`))]);
    expect(Annotations.fromStack(factory(profile, acceptAll('r'))).findWarning('*', Match.stringLikeRegexp('@fw/core:known-vulnerabilities'))).toEqual([]);
  }
});

describe('the context key', () => {
  const read = (acceptedAdvisories: unknown) => DeploymentContextReader.fromValues({
    stackName: 'ci', applicationId: 'jenkins', runtimeType: 'FARGATE', securityProfile: 'DEV', sslEnabled: 'false', acceptedAdvisories,
  }).acceptedAdvisories;

  test('takes a reason as text or with an until, from cdk.json or -c text', () => {
    expect(read({ 'SECURITY-3972': ' WAF blocks it ', 'SECURITY-3908': { reason: 'r', until: '2027-01-31' } }))
      .toEqual({ 'SECURITY-3972': { reason: 'WAF blocks it' }, 'SECURITY-3908': { reason: 'r', until: '2027-01-31' } });
    expect(read('{"SECURITY-3972": "r"}')).toEqual({ 'SECURITY-3972': { reason: 'r' } });
    expect(read({ 'SECURITY-3972': { reason: 'r', owner: ' platform-security ', reference: 'SEC-12' } }))
      .toEqual({ 'SECURITY-3972': { reason: 'r', owner: 'platform-security', reference: 'SEC-12' } });
  });

  test.each([
    ['an empty reason', { 'SECURITY-3972': '' }],
    ['a day that does not exist', { 'SECURITY-3972': { reason: 'r', until: '2027-02-30' } }],
    ['another date form', { 'SECURITY-3972': { reason: 'r', until: '31.01.2027' } }],
    ['an unknown field', { 'SECURITY-3972': { reason: 'r', expires: '2027-01-31' } }],
    ['an empty owner', { 'SECURITY-3972': { reason: 'r', owner: ' ', reference: 'SEC-12' } }],
    ['a reference that is no text', { 'SECURITY-3972': { reason: 'r', owner: 'o', reference: 12 } }],
    ['an owner over 200 characters', { 'SECURITY-3972': { reason: 'r', owner: 'o'.repeat(201), reference: 'SEC-12' } }],
    ['an id that is none', { 'SECURITY 3972': 'r' }],
    ['a list', ['SECURITY-3972']],
  ])('refuses %s, naming the key and what is allowed', (_what, value) => {
    expect(() => read(value)).toThrow(/- acceptedAdvisories .* is not allowed; expected a JSON object of advisory ids to the reason each is accepted/);
  });
});

test('a plugin\'s declarations are checked, naming the entry, its value and what is allowed', () => {
  expect(knownVulnerabilityProblems([{ id: 'SECURITY-1', component: 'x', version: '1', severity: 'Severe', fixedIn: '2' },
    { id: 'SECURITY-1', component: '', version: '1', severity: 'Low', fixedIn: '2' }], 'P.knownVulnerabilities()')).toEqual([
    'P.knownVulnerabilities()[0].severity "Severe"; allowed: Critical, High, Medium, Low.',
    'P.knownVulnerabilities()[1].id "SECURITY-1" is listed twice; ids must be unique.',
    'P.knownVulnerabilities()[1].component ""; allowed: non-empty text.',
  ]);
});

test('the main job\'s cdk.json accepts each advisory in the open, each with its own reason, an owner and a reference an assessor can follow', () => {
  const cdkJson = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'examples', 'build-server', 'cdk.json'), 'utf-8'));
  expect(cdkJson.context.securityProfile).toBe('PRODUCTION');
  const accepted: Record<string, any> = cdkJson.context.acceptedAdvisories;
  expect(Object.keys(accepted).sort()).toEqual(DECLARED.map((v) => v.id).sort());
  const reasons = Object.values(accepted).map((a) => a.reason);
  expect(new Set(reasons).size).toBe(reasons.length);
  for (const [id, a] of Object.entries(accepted)) {
    expect([id, a.reason.length > 60, a.owner, a.reference]).toEqual([id, true, expect.any(String),
      expect.stringMatching(new RegExp(`^https://www\\.jenkins\\.io/security/advisory/\\d{4}-\\d\\d-\\d\\d/#${id}; `))]);
  }
});
