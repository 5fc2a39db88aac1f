// The build server's configuration as code, as each runtime delivers it, parsed back.
import * as fs from 'fs';
import * as path from 'path';
import { JenkinsSpec, RuntimeType, SecurityProfile } from '../../src';
import { approvedScriptHash, pipelineScripts } from '../../src/build-server/compliance-jobs';
import {
  ARTIFACT_RETENTION_DAYS, ARTIFACTS_KEPT, AUDIT_LOG_BUDGET_MB, AUDIT_LOG_LIMIT_MAX, AUDIT_SYSLOG_PORT, BUILD_LOG_RETENTION_DAYS, BUILDS_KEPT,
} from '../../src/build-server/hardening';
import { AGENT_PORT } from '../../src/build-server/jenkins-agents';
import { SEED_AUDITORS_VARIABLE } from '../../src/build-server/jenkins-configuration';
import { FACTORY_SIZE_DEFAULTS } from '../../src/contract/factory-limits';
import { SONAR, ec2Configuration, fargateConfiguration, pinned } from '../support/jenkins';

type Loader = (spec?: JenkinsSpec, profile?: SecurityProfile) => any;
const RUNTIMES: Array<[string, Loader]> = [
  ['FARGATE', fargateConfiguration],
  ['EC2', ec2Configuration],
];

/** The audit trail's loggers of one kind. */
function loggers(casc: any, kind: string): any[] {
  return casc.unclassified['audit-trail'].loggers.filter((l: any) => kind in l).map((l: any) => l[kind]);
}

describe.each(RUNTIMES)('the configuration as code on %s, parsed back', (runtime, load) => {
  const casc = load();

  test('OIDC realm: client id, secret and scopes from the environment, the discovery document, claim fields', () => {
    expect(Object.keys(casc.jenkins.securityRealm)).toEqual(['oic']);
    const oic = casc.jenkins.securityRealm.oic;
    expect(oic.clientId).toBe('${OIDC_CLIENT_ID}');
    expect(oic.clientSecret).toBe('${OIDC_CLIENT_SECRET}');
    expect(oic.serverConfiguration).toEqual({
      wellKnown: {
        wellKnownOpenIDConfigurationUrl: '${OIDC_WELL_KNOWN_URL}', scopesOverride: '${OIDC_SCOPES}',
      },
    });
    expect(oic).toMatchObject({ userNameField: 'sub', fullNameFieldName: 'name', emailFieldName: 'email', groupsFieldName: 'groups' });
  });

  test(`sign-in details (oic-auth ${pinned('oic-auth')} OicSecurityRealm.java): exact ids, the unique claim, API tokens only while the provider's sign-in holds, a way back after sign-out`, () => {
    const oic = casc.jenkins.securityRealm.oic;
    // Lines 489-501 and 523-530: without a strategy, ids and groups match ignoring case and
    // monitor/OicIdStrategyMonitor.java (lines 37-48) warns at every start. `caseSensitive` is IdStrategy.CaseSensitive's
    // symbol (jenkins-2.568.2 core/src/main/java/jenkins/model/IdStrategy.java line 264).
    expect(oic.userIdStrategy).toBe('caseSensitive');
    expect(oic.groupIdStrategy).toBe('caseSensitive');
    // OpenID Connect Core 1.0 section 5.7: only `sub` is unique and never reassigned; `preferred_username` is not.
    expect(oic.userNameField).toBe('sub');
    // Lines 1216-1230 and 1239-1258: with `true` a request with a valid API token skips the expiry and refresh check,
    // and core grants the groups of the last browser sign-in for as long as the token exists. `false`: once the
    // last sign-in's access token expired, the realm refreshes it at the provider (re-reading the groups) or refuses.
    expect(oic.allowTokenAccessWithoutOicSession).toBe(false);
    // Lines 1079-1082: post_logout_redirect_uri is sent only when set; an absolute URL (lines 1422-1435).
    expect(oic.logoutFromOpenidProvider).toBe(true);
    expect(oic.postLogoutRedirectUrl).toBe('${JENKINS_URL}/OicLogout');
  });

  test('no local user database and no escape hatch', () => {
    expect(JSON.stringify(casc)).not.toMatch(/"local"|escapeHatch/);
    expect(casc.jenkins.securityRealm.oic.properties).toEqual(['pkce']);
  });

  test('matrix authorisation: Administer to admins, Overall/Read to the named groups only (no authenticated entry); developers build, devops also configure, viewers and auditors only read', () => {
    expect(casc.jenkins.authorizationStrategy.projectMatrix.entries).toEqual([
      { group: { name: 'jenkins-admins', permissions: ['Overall/Administer'] } },
      { group: { name: 'jenkins-developers', permissions: ['Overall/Read', 'Job/Build', 'Job/Cancel', 'Job/Read'] } },
      { group: { name: 'jenkins-devops', permissions: ['Overall/Read', 'Job/Build', 'Job/Cancel', 'Job/Read', 'Job/Configure'] } },
      { group: { name: 'jenkins-viewers', permissions: ['Overall/Read', 'Job/Read'] } },
      { group: { name: 'jenkins-auditors', permissions: ['Overall/Read'] } },
    ]);
    // Anyone else the provider signs in gets nothing: no "My Views" to POST a config.xml to (SECURITY-3972, -4032).
    expect(JSON.stringify(casc.jenkins.authorizationStrategy)).not.toMatch(/authenticated|anonymous/);
  });

  test('the Content Security Policy is enforced (the workaround SECURITY-3967 and SECURITY-3989 name)', () => {
    expect(casc.security.contentSecurityPolicy).toEqual({ enforce: true });
  });

  test('the controller runs no builds (no executors on the built-in node)', () => {
    expect(casc.jenkins.numExecutors).toBe(0);
  });

  test('CSRF crumbs (the standard issuer, which has no options since Jenkins 2.543); no remember-me; job-DSL script security; plain-text markup', () => {
    expect(casc.jenkins.crumbIssuer).toBe('standard');
    expect(casc.jenkins.disableRememberMe).toBe(true);
    expect(casc.security.globalJobDslSecurityConfiguration).toEqual({ useScriptSecurity: true });
    expect(casc.jenkins.markupFormatter).toBe('plainText');
  });

  test('the root URL comes from the environment (unclassified.location.url)', () => {
    expect(casc.unclassified.location).toEqual({ url: '${JENKINS_URL}' });
    expect(casc.jenkins.location).toBeUndefined();
  });

  test(`global build discarder: ${BUILD_LOG_RETENTION_DAYS} days and ${BUILDS_KEPT} builds of logs, ${ARTIFACT_RETENTION_DAYS} days and ${ARTIFACTS_KEPT} artifacts`, () => {
    expect(casc.unclassified.buildDiscarders.configuredBuildDiscarders).toEqual(['jobBuildDiscarder', {
      simpleBuildDiscarder: {
        discarder: {
          logRotator: {
            daysToKeepStr: '90', numToKeepStr: '100', artifactDaysToKeepStr: '30', artifactNumToKeepStr: '10',
          },
        },
      },
    }]);
  });

  test('audit trail to a log file with the basic setup\'s limit and count outside PRODUCTION, and no syslog unless a host is given', () => {
    expect(loggers(casc, 'logFile')).toEqual([{ log: expect.stringMatching(/^\/.*\/audit-%g\.log$/), limit: 1000, count: 10 }]);
    expect(loggers(casc, 'syslog')).toEqual([]);
  });

  test('the audit trail reaches CloudWatch: on FARGATE through standard output, on EC2 as the shipped log files', () => {
    if (runtime === 'FARGATE') {
      expect(loggers(casc, 'console')).toEqual([{ output: 'STD_OUT', dateFormat: 'yyyy-MM-dd HH:mm:ss.SSS', logPrefix: 'audit' }]);
    } else {
      expect(loggers(casc, 'console')).toEqual([]);
      expect(new JenkinsSpec().ec2LogPaths()).toContain(loggers(casc, 'logFile')[0].log.replace('%g', '*'));
    }
  });

  test(`PRODUCTION keeps the full template's audit log: the specification's count (52), files sized to ${AUDIT_LOG_BUDGET_MB} MB on the data volume`, () => {
    const production = load(new JenkinsSpec(), SecurityProfile.PRODUCTION);
    const home = runtime === RuntimeType.FARGATE ? '/var/jenkins_home' : '/var/lib/jenkins';
    expect(loggers(production, 'logFile')).toEqual([{ log: `${home}/logs/audit-%g.log`, limit: 196, count: 52 }]);
  });

  test('every profile\'s audit files fit their budget, which is a quarter of the smallest data volume the build server is given by default', () => {
    for (const profile of [SecurityProfile.DEV, SecurityProfile.STAGING, SecurityProfile.PRODUCTION]) {
      for (const { limit, count } of loggers(load(new JenkinsSpec(), profile), 'logFile')) {
        expect([profile, limit * count <= AUDIT_LOG_BUDGET_MB]).toEqual([profile, true]);
      }
    }
    expect(AUDIT_LOG_BUDGET_MB * 4).toBeLessThanOrEqual(FACTORY_SIZE_DEFAULTS.dataVolumeGiB * 1024);
    // Negative control: the specification's 52 files of the largest limit the plugin holds would take 104 GiB.
    expect(52 * AUDIT_LOG_LIMIT_MAX).toBeGreaterThan(AUDIT_LOG_BUDGET_MB);
  });

  test('every audit log limit fits the int audit-trail computes its file size in', () => {
    // audit-trail@436.vc0d1e79fc5a_3 LogFileAuditLogger.java line 32:
    //   return new FileHandler(getLog(), getLimit() * 1024 * 1024, getCount(), true);
    // int arithmetic (limit is an int field, line 15), into java.util.logging.FileHandler(String, int, int, boolean).
    const asJavaInt = (mb: number) => Math.imul(Math.imul(mb, 1024), 1024);
    for (const profile of [SecurityProfile.DEV, SecurityProfile.STAGING, SecurityProfile.PRODUCTION]) {
      for (const { limit } of loggers(load(new JenkinsSpec(), profile), 'logFile')) {
        expect([profile, asJavaInt(limit)]).toEqual([profile, limit * 1024 * 1024]);
      }
    }
    expect(asJavaInt(AUDIT_LOG_LIMIT_MAX)).toBe(AUDIT_LOG_LIMIT_MAX * 1024 * 1024);
    expect(asJavaInt(AUDIT_LOG_LIMIT_MAX + 1)).toBeLessThan(0);
    // Negative control: the specification's 10000 wraps to about 1.77 GiB.
    expect(asJavaInt(10000)).toBe(1895825408);
  });

  test('userIdClaim names another claim where the provider guarantees it unique; a name that is no claim is refused', () => {
    expect(load(new JenkinsSpec({ userIdClaim: 'preferred_username' })).jenkins.securityRealm.oic.userNameField).toBe('preferred_username');
    expect(() => new JenkinsSpec({ userIdClaim: 'user name' })).toThrow(/userIdClaim "user name" is not a claim name .* leave it out for 'sub'/);
  });

  test(`audit trail to a remote syslog on ${AUDIT_SYSLOG_PORT}/UDP when a host is given`, () => {
    const withSyslog = load(new JenkinsSpec({ syslogHost: 'syslog.example.com', syslogNetwork: '10.0.5.20/32' }));
    expect(loggers(withSyslog, 'syslog')).toEqual([{
      syslogServerHostname: 'syslog.example.com', syslogServerPort: 514, appName: 'jenkins', facility: 'AUTHPRIV', messageFormat: 'RFC_5424',
    }]);
  });

  test('the compliance jobs are seeded by the shipped Job DSL script, delivered as a file, their pipelines approved by hash', () => {
    const seed = fs.readFileSync(path.join(__dirname, '../../jenkins/jobs/compliance-jobs.groovy'), 'utf-8');
    expect(casc.jobs).toEqual([{ providedEnv: { COMPLIANCE_AUDITORS: 'jenkins-auditors' } }, { file: expect.stringMatching(/^\/.*\/compliance-jobs\.groovy$/) }]);
    const scripts = pipelineScripts(seed);
    expect(scripts).toHaveLength(3);
    expect(casc.security.scriptApproval.approvedScriptHashes).toEqual(scripts.map(approvedScriptHash));
    for (const hash of casc.security.scriptApproval.approvedScriptHashes) expect(hash).toMatch(/^SHA512:[0-9a-f]{128}$/);
  });

  test('the compliance jobs live in a folder only administrators and the auditors\' group read (PCI DSS 10.3.1); nobody else configures them', () => {
    // The seed script reads the group from the variable providedEnv sets (job-dsl SeedJobConfigurator.java lines
    // 90-101), and grants it Job/Read in a folder that inherits no grant (the Java test ComplianceJobsTest checks the
    // folder as the seed script declares it).
    const seed = fs.readFileSync(path.join(__dirname, '../../jenkins/jobs/compliance-jobs.groovy'), 'utf-8');
    expect(seed).toContain(`String auditors = ${SEED_AUDITORS_VARIABLE}\n`);
    expect(seed).toMatch(/inheritanceStrategy \{ nonInheriting\(\) \}/);
    expect(load(new JenkinsSpec({ auditorGroup: 'pci-auditors' })).jobs[0]).toEqual({ providedEnv: { [SEED_AUDITORS_VARIABLE]: 'pci-auditors' } });
    // Global grants stop at the folder: Job/Read and Job/Configure of developers, devops and viewers do not reach in.
    // The auditors' global entry is Overall/Read alone (to reach Jenkins at all): no Job permission outside the folder.
    expect(casc.jenkins.authorizationStrategy.projectMatrix.entries.filter((e: any) => e.group.name === 'jenkins-auditors'))
      .toEqual([{ group: { name: 'jenkins-auditors', permissions: ['Overall/Read'] } }]);
  });

  test('nobody but an administrator can save a pipeline unsandboxed, so an approved compliance script cannot run in a job of theirs', () => {
    // script-security 1402.1405.vc96e74964250: with forceSandbox, isForceSandboxForCurrentUser() is true for anyone
    // without Overall/Administer (ScriptApproval.java 1020-1022) and validateSandbox(false) then refuses the save
    // (1364-1368), which workflow-cps 4350.vcc65d4958821 CpsFlowDefinition's constructor calls first (line 88).
    // The groups who configure jobs, hold no Administer, and whom the setting does not stop.
    const unsandboxedSavers = (config: any) => config.jenkins.authorizationStrategy.projectMatrix.entries
      .filter((e: any) => e.group.permissions.some((p: string) => ['Job/Configure', 'Job/Create'].includes(p)))
      .filter((e: any) => !e.group.permissions.includes('Overall/Administer') && config.security.scriptApproval.forceSandbox !== true)
      .map((e: any) => e.group.name);
    expect(casc.security.scriptApproval.forceSandbox).toBe(true);
    expect(unsandboxedSavers(casc)).toEqual([]);
    // Negative control: without the setting, devops (Job/Configure) could save the approved text unsandboxed.
    expect(unsandboxedSavers({ ...casc, security: { ...casc.security, scriptApproval: { ...casc.security.scriptApproval, forceSandbox: false } } }))
      .toEqual(expect.arrayContaining(['jenkins-devops']));
    // The compliance jobs, made by Job DSL as SYSTEM (which holds Administer), keep sandbox(false); each refuses to
    // run outside its own job too (ComplianceJobsTest), which holds while SECURITY-3986 can clear the setting.
    const seed = fs.readFileSync(path.join(__dirname, '../../jenkins/jobs/compliance-jobs.groovy'), 'utf-8');
    expect(pipelineScripts(seed).every((script) => /\nif \(currentBuild\.rawBuild\.parent\.fullName != 'compliance\/[\w-]+'\) error\(/.test(script))).toBe(true);
  });

  test('SonarQube: the installation and credentials docs/build-agents.md\'s Jenkinsfile names, the secrets by reference only when a server is given', () => {
    expect(casc.unclassified.sonarGlobalConfiguration).toBeUndefined();
    expect(casc.credentials).toBeUndefined();
    const withSonar = load(new JenkinsSpec({ sonarQube: SONAR }));
    // The Jenkinsfile as docs/build-agents.md shows it (jenkins/examples/Jenkinsfile), unchanged.
    const jenkinsfile = fs.readFileSync(path.join(__dirname, '../../jenkins/examples/Jenkinsfile'), 'utf-8');
    const installation = /withSonarQubeEnv\('([^']+)'\)/.exec(jenkinsfile)![1];
    const webhookSecretId = /qualityGate\(webhookSecretId: '([^']+)'\)/.exec(jenkinsfile)![1];
    expect(withSonar.unclassified.sonarGlobalConfiguration).toEqual({
      buildWrapperEnabled: true,
      installations: [{ name: installation, serverUrl: SONAR.serverUrl, credentialsId: 'sonar-token', webhookSecretId }],
    });
    // GLOBAL: a build looks credentials up in its job's context, where SYSTEM ones are hidden (credentials
    // 1502.v5c95e620ddfe SystemCredentialsProvider.java lines 448-455).
    expect(withSonar.credentials.system.domainCredentials).toEqual([{
      credentials: [
        { string: { scope: 'GLOBAL', id: 'sonar-token', secret: '${SONAR_TOKEN}', description: 'SonarQube token (from Secrets Manager)' } },
        { string: { scope: 'GLOBAL', id: webhookSecretId, secret: '${SONAR_WEBHOOK_SECRET}', description: 'SonarQube webhook secret (from Secrets Manager)' } },
      ],
    }]);
  });

  test('the pipeline library is a global library, pinned, only when its repository is given', () => {
    expect(casc.unclassified.globalLibraries).toBeUndefined();
    const withLibrary = load(new JenkinsSpec({ pipelineLibrary: { repository: 'https://git.example.com/ci/fw-pipeline-library.git', version: 'v0.1.0' } }));
    expect(withLibrary.unclassified.globalLibraries).toEqual({
      libraries: [{
        name: 'fw-pci',
        defaultVersion: 'v0.1.0',
        implicit: false,
        allowVersionOverride: false,
        includeInChangesets: false,
        retriever: { modernSCM: { scm: { git: { remote: 'https://git.example.com/ci/fw-pipeline-library.git' } } } },
      }],
    });
  });

  test('a private library repository is read with the credential the deployment names; an id that is none is refused', () => {
    const library = { repository: 'git@git.example.com:ci/fw-pipeline-library.git', version: 'v0.1.0', credentialsId: 'library-reader' };
    const retriever = load(new JenkinsSpec({ pipelineLibrary: library })).unclassified.globalLibraries.libraries[0].retriever;
    expect(retriever).toEqual({ modernSCM: { scm: { git: { remote: library.repository, credentialsId: 'library-reader' } } } });
    expect(() => new JenkinsSpec({ pipelineLibrary: { ...library, credentialsId: 'a b' } }))
      .toThrow('JenkinsSpec: pipelineLibrary.credentialsId "a b" is not a credential id (letters, digits and _ . -, starting with a letter or digit, at most 64 characters).');
  });

  test('or with a git user from Secrets Manager: a username-with-password credential made at start, only the ARN in the template', () => {
    const arn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:ci/library-git-AbCdEf';
    const spec = new JenkinsSpec({ pipelineLibrary: { repository: 'https://git.example.com/ci/lib.git', version: 'v1', credentialsSecretArn: arn } });
    const configured = load(spec);
    expect(configured.unclassified.globalLibraries.libraries[0].retriever.modernSCM.scm.git.credentialsId).toBe('fw-pipeline-library');
    expect(configured.credentials.system.domainCredentials[0].credentials).toEqual([{
      usernamePassword: {
        scope: 'GLOBAL',
        id: 'fw-pipeline-library',
        username: '${PIPELINE_LIBRARY_USERNAME}',
        password: '${PIPELINE_LIBRARY_PASSWORD}',
        description: 'Pipeline library git user (from Secrets Manager)',
      },
    }]);
    expect(spec.secrets()).toEqual({ PIPELINE_LIBRARY_USERNAME: `${arn}:username::`, PIPELINE_LIBRARY_PASSWORD: `${arn}:password::` });
    expect(() => new JenkinsSpec({ pipelineLibrary: { repository: 'x', version: 'v1', credentialsSecretArn: 'hunter2' } }))
      .toThrow(/^JenkinsSpec: pipelineLibrary.credentialsSecretArn is not the complete ARN .* \(the value is not shown: it may be the secret itself\)/);
    expect(() => new JenkinsSpec({ pipelineLibrary: { repository: 'x', version: 'v1', credentialsSecretArn: arn, credentialsId: 'a' } }))
      .toThrow('JenkinsSpec: pipelineLibrary has credentialsId and credentialsSecretArn; give one');
  });

  test('settings current Jenkins makes always on are not written as keys that do nothing', () => {
    expect(JSON.stringify(casc)).not.toMatch(/remotingSecurity|sSHD|agentProtocols/);
  });

  test('inbound agents connect on the fixed port the security groups name (Jenkins\' default 0 is a random port)', () => {
    expect(casc.jenkins.slaveAgentPort).toBe(AGENT_PORT);
  });
});

