import * as fs from 'fs';
import * as path from 'path';
import { AuthMode, JenkinsSpec, JenkinsSpecProps, RuntimeType, SecurityProfile } from '../../src';
import { approvedScriptHash, pipelineScripts } from '../../src/build-server/compliance-jobs';
import { CASC_SCHEMA_SOURCES, JENKINS_PLUGINS } from '../../src/build-server/versions';
import { type Delivered, deliveredOnEc2, deliveredOnFargate } from '../support/casc-delivery';
import { CascChecker, loadSchema, staleSchema } from '../support/casc-schema';
import { expand, expandDocument } from '../support/casc-variables';
import { OIDC, propsFor, synth } from '../support/synth';

/**
 * Every configuration the build server renders, as each runtime delivers it, checked against the schema derived from
 * the sources of Jenkins and every pinned plugin (jenkins/casc-schema/, written by tools/casc-schema/), and expanded
 * the way configuration-as-code expands it with the variables that runtime really defines.
 */

const SEED_SOURCE = fs.readFileSync(path.join(__dirname, '../../jenkins/jobs/compliance-jobs.groovy'), 'utf-8');
/** The Groovy `${...}` of the pipelines, which must reach Jenkins as written. */
const GROOVY_EXPRESSIONS = SEED_SOURCE.match(/\$\{/g)!.length;
const schema = loadSchema();
const checker = new CascChecker(schema);

const SIGN_IN = { authMode: AuthMode.APPLICATION_OIDC, oidc: OIDC, domain: 'example.com', alarmEmail: 'security@example.com' };
const FULL: JenkinsSpecProps = {
  adminEmail: 'jenkins@example.com',
  syslogHost: 'syslog.example.com',
  syslogNetwork: '10.0.5.20/32',
  pipelineLibrary: {
    repository: 'https://git.example.com/ci/fw-pipeline-library.git',
    version: 'v0.1.0',
    credentialsSecretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:ci/library-git-AbCdEf',
  },
  sonarQube: {
    serverUrl: 'https://sonarqube.example.com',
    tokenSecretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:ci/sonar-token-AbCdEf',
    webhookSecretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:ci/sonar-webhook-AbCdEf',
  },
};

function fargate(profile: SecurityProfile, props: JenkinsSpecProps): Delivered {
  return deliveredOnFargate(synth(RuntimeType.FARGATE, { ...propsFor(profile), ...SIGN_IN }, new JenkinsSpec(props)).json);
}

function ec2(profile: SecurityProfile, props: JenkinsSpecProps): Delivered {
  return deliveredOnEc2(synth(RuntimeType.EC2, { ...propsFor(profile), ...SIGN_IN }, new JenkinsSpec(props)).json);
}

const CONFIGURATIONS: Array<[string, () => Delivered]> = [RuntimeType.FARGATE, RuntimeType.EC2].flatMap((runtime) =>
  [SecurityProfile.DEV, SecurityProfile.STAGING, SecurityProfile.PRODUCTION].flatMap((profile) =>
    ([['default options', {}], ['syslog, pipeline library and SonarQube', FULL]] as Array<[string, JenkinsSpecProps]>).map(([variant, props]) =>
      [`${runtime} ${profile}, ${variant}`, () => (runtime === RuntimeType.FARGATE ? fargate : ec2)(profile, props)] as [string, () => Delivered])));

describe.each(CONFIGURATIONS)('%s', (_name, deliver) => {
  const delivered = deliver();

  test('conforms to the schema of Jenkins and the pinned plugins', () => {
    expect(checker.check(delivered.casc)).toEqual([]);
  });

  test('every ${...} resolves to a variable the process defines: nothing is blanked', () => {
    expect(expandDocument(delivered.casc, delivered.environment).blanked).toEqual([]);
  });

  test('the seed script is the file Jenkins reads, unexpanded, and the approved hashes are those of the pipelines it stores', () => {
    const expanded = expandDocument(delivered.casc, delivered.environment).value as any;
    expect(expanded.jobs).toHaveLength(2);
    const seed = delivered.files[expanded.jobs[1].file];
    // job-dsl reads a `file` source as it is (FromFileScriptSource.getScript: FileUtils.readFileToString).
    expect(seed).toBe(SEED_SOURCE);
    const scripts = pipelineScripts(seed);
    expect(scripts).toHaveLength(3);
    expect(scripts.join('').match(/\$\{/g)!.length).toBe(GROOVY_EXPRESSIONS);
    expect(expanded.security.scriptApproval.approvedScriptHashes).toEqual(scripts.map(approvedScriptHash));
  });
});

describe('negative controls: the check reports what configuration-as-code would refuse', () => {
  const { casc } = fargate(SecurityProfile.DEV, {});
  const changed = (change: (c: any) => void) => {
    const copy = structuredClone(casc);
    change(copy);
    return checker.check(copy);
  };

  test(`a misspelled attribute of the ecs cloud or its agent template (amazon-ecs ${JENKINS_PLUGINS.find((p) => p.id === 'amazon-ecs')!.version})`, () => {
    expect(changed((c) => { c.jenkins.clouds[0].ecs.clustr = c.jenkins.clouds[0].ecs.cluster; delete c.jenkins.clouds[0].ecs.cluster; })).toEqual([
      expect.stringMatching(/^jenkins\.clouds\[0\]\.ecs\.clustr: com\.cloudbees\.jenkins\.plugins\.amazonecs\.ECSCloud has no attribute "clustr"/),
    ]);
    expect(changed((c) => { c.jenkins.clouds[0].ecs.templates[0].taskDefinitionOveride = 'x'; })).toEqual([
      expect.stringMatching(/^jenkins\.clouds\[0\]\.ecs\.templates\[0\]\.taskDefinitionOveride: com\.cloudbees\.jenkins\.plugins\.amazonecs\.ECSTaskTemplate has no attribute/),
    ]);
    expect(changed((c) => { c.jenkins.clouds[0].ecs.maxAgents = 'many'; })).toEqual([
      'jenkins.clouds[0].ecs.maxAgents: expected an integer (int), found "many"',
    ]);
    expect(changed((c) => { c.jenkins.clouds = [{ amazonEcs: c.jenkins.clouds[0].ecs }]; })).toEqual([
      expect.stringMatching(/^jenkins\.clouds\[0\]: no hudson\.slaves\.Cloud implementation found for "amazonEcs"; known: .*ecs/),
    ]);
  });

  test('the crumb issuer\'s excludeClientIPFromCrumb, gone since Jenkins 2.543', () => {
    expect(changed((c) => { c.jenkins.crumbIssuer = { standard: { excludeClientIPFromCrumb: false } }; })).toEqual([
      expect.stringMatching(/^jenkins\.crumbIssuer\.standard\.excludeClientIPFromCrumb: hudson\.security\.csrf\.DefaultCrumbIssuer has no attribute "excludeClientIPFromCrumb"/),
    ]);
  });

  test('the build discarder symbol defaultBuildDiscarder, which no class declares', () => {
    expect(changed((c) => {
      const discarders = c.unclassified.buildDiscarders.configuredBuildDiscarders;
      discarders[1] = { defaultBuildDiscarder: discarders[1].simpleBuildDiscarder };
    })).toEqual([expect.stringMatching(/^unclassified\.buildDiscarders\.configuredBuildDiscarders\[1\]: no .* implementation found for "defaultBuildDiscarder"/)]);
  });

  test('a misspelled attribute', () => {
    expect(changed((c) => { c.jenkins.securityRealm.oic.userNameFeild = c.jenkins.securityRealm.oic.userNameField; }))
      .toEqual([expect.stringMatching(/^jenkins\.securityRealm\.oic\.userNameFeild: .* has no attribute "userNameFeild"/)]);
  });

  test('a value of the wrong type', () => {
    expect(changed((c) => { c.jenkins.numExecutors = 'none'; })).toEqual([expect.stringMatching(/^jenkins\.numExecutors: expected an integer/)]);
    expect(changed((c) => { c.jenkins.disableRememberMe = 'yes'; })).toEqual([expect.stringMatching(/^jenkins\.disableRememberMe: expected true or false/)]);
  });

  test('a permission that matrix-auth would not find', () => {
    const entries = (c: any) => c.jenkins.authorizationStrategy.projectMatrix.entries;
    expect(changed((c) => { entries(c)[4].group.permissions = ['Job/Cancle']; })).toEqual([
      expect.stringMatching(/^jenkins\.authorizationStrategy\.projectMatrix\.entries\[4\]\.group\.permissions\[0\]: no permission "Job\/Cancle"; known in group Job: .*Cancel/),
    ]);
    expect(changed((c) => { entries(c)[1].group.permissions = ['Overal/Read']; })).toEqual([
      expect.stringMatching(/permissions\[0\]: no permission "Overal\/Read"; known in the pinned sources: .*Overall/),
    ]);
  });

  test('an unknown root element and an unknown global configuration', () => {
    expect(changed((c) => { c.jenkinss = {}; })).toEqual([expect.stringMatching(/^jenkinss: unknown root element/)]);
    expect(changed((c) => { c.unclassified.locaton = c.unclassified.location; })).toEqual([expect.stringMatching(/^unclassified\.locaton: no global configuration/)]);
  });

  test('the seed inlined as `script` would lose every Groovy expression to the expansion', () => {
    const inline = expand(SEED_SOURCE, new Set(['JENKINS_URL']));
    expect(GROOVY_EXPRESSIONS).toBeGreaterThanOrEqual(21);
    expect(inline.blanked).toHaveLength(GROOVY_EXPRESSIONS);
    expect(inline.blanked).toContain('inactiveDays');
  });

  test('the expansion keeps an escaped ^${...}, takes a default and blanks what is undefined, as StringSubstitutor does', () => {
    expect(expand('a ^${B} ${C:-c} ${D} ${E}', { E: 'e' })).toEqual({ value: 'a ${B} c  e', blanked: ['D'] });
  });
});

describe('the schema', () => {
  test('was generated from the pins: Jenkins core, every pinned plugin and the supertype-only sources, at their tags and code roots', () => {
    const stale = staleSchema(schema, CASC_SCHEMA_SOURCES);
    if (stale) throw new Error(stale);
    for (const source of schema.sources) expect(source.commit).toMatch(/^[0-9a-f]{40}$/);
  });

  test('negative controls: a pin changed only in versions.ts, or the sources reordered, is stale and names the command', () => {
    const bumped = CASC_SCHEMA_SOURCES.map((pin) => (pin.id === 'amazon-ecs' ? { ...pin, version: `${pin.version}.1` } : pin));
    const stale = staleSchema(schema, bumped)!;
    expect(stale).toMatch(/pinned, not in the schema: \{"id":"amazon-ecs","version":"[^"]+\.1","repository":"[^"]+","tag":"amazon-ecs-[^"]+\.1"/);
    expect(stale).toMatch(/in the schema, not pinned: +\{"id":"amazon-ecs"/);
    expect(stale).toContain('run `bash tools/casc-schema/generate.sh` at the repository root');
    expect(staleSchema(schema, [...CASC_SCHEMA_SOURCES].reverse())).toContain('the same sources, in another order');
  });
});
