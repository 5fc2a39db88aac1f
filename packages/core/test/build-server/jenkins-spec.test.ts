import * as fs from 'fs';
import * as path from 'path';
import { App, CfnResource, Stack } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import * as YAML from 'yaml';
import { ApplicationFactory, AuthMode, BashUserDataBuilder, Ec2Context, Ec2Storage, JenkinsSpec, PciDssScope, RuntimeType, SecurityProfile } from '../../src';
import { CARD_DATA_PATTERNS, MASK_PASSWORDS_FILE, maskPasswordsConfig } from '../../src/build-server/card-data-masking';
import { approvedScriptHash, pipelineScripts } from '../../src/build-server/compliance-jobs';
import { publicUrl } from '../../src/build-server/controller-files';
import { CONTROLLER_HEALTH_ALARMS, CONTROLLER_HEALTH_SCRIPT, controllerHealthScript } from '../../src/build-server/controller-health';
import {
  ARTIFACT_RETENTION_DAYS, ARTIFACTS_KEPT, AUDIT_LOG_BUDGET_MB, AUDIT_LOG_LIMIT_MAX, AUDIT_SYSLOG_PORT, BUILD_LOG_RETENTION_DAYS, BUILDS_KEPT,
  CONTROLLER_HEAP_PERCENT, CONTROLLER_STARTUP_SECONDS, FAILED_LOGIN_ALERT_THRESHOLD, FAILED_LOGIN_WINDOW_SECONDS, PLUGIN_DOWNLOAD_SECONDS,
  SERVICE_OPEN_FILES, SERVICE_RESTART_SECONDS, SERVICE_START_TIMEOUT_SECONDS, SERVICE_STOP_TIMEOUT_SECONDS, STARTUP_WAIT_SECONDS,
} from '../../src/build-server/hardening';
import { AGENT_PORT } from '../../src/build-server/jenkins-agents';
import { SEED_AUDITORS_VARIABLE } from '../../src/build-server/jenkins-configuration';
import { FAILED_LOGIN_FILTER, loggingProperties, SECURITY_WARNING_LINE } from '../../src/build-server/jenkins-monitoring';
import { JENKINS_LTS, JENKINS_PLUGIN_CLOSURE, JENKINS_PLUGINS, JENKINS_RPM_KEY, pluginsTxt } from '../../src/build-server/versions';
import { OIDC_DEFAULT_SCOPES } from '../../src/context/context-keys';
import { configuredSpec } from '../../src/context/plugin-settings';
import { STARTUP_SECONDS_DEFAULT, STARTUP_SECONDS_MAX, STARTUP_SECONDS_MIN } from '../../src/contract/application-size';
import { FACTORY_SIZE_DEFAULTS } from '../../src/contract/factory-limits';
import { UserError } from '../../src/errors';
import { complianceFindings } from '../../src/profiles/compliance';
import { EC2_PROVISIONING_SECONDS, Ec2Runtime } from '../../src/runtimes/ec2';
import { DEFAULT_STUBS, runInSandbox, SANDBOX_NEEDS, sandboxUnavailable } from '../support/sandbox';
import { needing, shellcheck, shellcheckUnavailable } from '../support/shellcheck';
import { acceptingAll, DOCKER_HUB_CREDENTIAL, IMAGE_DIGESTS, applicationTask, OIDC, only, propsFor, resources, synth, TLS, userData } from '../support/synth';
import { filesWritten } from '../support/user-data-files';

/** The pinned version of a plugin, as plugins.txt installs it. */
const pinned = (id: string) => JENKINS_PLUGINS.find((p) => p.id === id)!.version;

const EFS: Ec2Context = {
  stackName: 'ci',
  securityProfile: 'PRODUCTION',
  runtimeType: 'EC2',
  logGroupName: '/aws/ci/EC2/PRODUCTION',
  serviceUser: 'jenkins',
  fqdn: 'ci.example.com',
  sslEnabled: true,
  hasEfs: true,
  efsId: 'fs-0123456789abcdef0',
  accessPointId: 'fsap-0123456789abcdef0',
};

const SONAR = {
  serverUrl: 'https://sonarqube.example.com',
  tokenSecretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:ci/sonar-token-AbCdEf',
  webhookSecretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:ci/sonar-webhook-AbCdEf',
};

/** Jenkins signs users in itself: the one auth mode it accepts. */
const SIGN_IN = { authMode: AuthMode.APPLICATION_OIDC, oidc: OIDC, domain: 'example.com' };

function ec2Script(context: Ec2Context = EFS, spec = new JenkinsSpec()): string {
  const builder = new BashUserDataBuilder();
  spec.configureUserData(builder, context);
  return builder.render();
}

/** The Fargate task's application container and its init container. */
function fargateContainers(props = {}, spec = new JenkinsSpec()) {
  const { json } = synth(RuntimeType.FARGATE, { ...SIGN_IN, ...props }, spec);
  const definitions = applicationTask(json).Properties.ContainerDefinitions;
  return { app: definitions.find((c: any) => c.Name === 'Application'), init: definitions.find((c: any) => c.Name === 'Initialization'), json };
}

/** A synth, and the framework's local-address warnings of it. */
function synthWithWarnings(runtime: RuntimeType, props: object) {
  const { json, stack } = synth(runtime, props, new JenkinsSpec());
  const warnings = Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('@fw/core:local-address'))
    .map((w: any) => String(w.entry.data).replace(/ \[ack: .*\]$/, ''));
  return { json, warnings };
}

function env(container: any): Record<string, string> {
  return Object.fromEntries((container.Environment ?? []).map((e: any) => [e.Name, e.Value]));
}

describe('spec rule 8', () => {
  const spec = new JenkinsSpec();
  test('(a) metadata accessors return the declared values', () => {
    expect(spec.applicationId()).toBe('jenkins');
    expect(spec.defaultContainerImage()).toMatch(/^jenkins\/jenkins:\d+\.\d+\.\d+-lts-jdk21$/);
    expect(spec.applicationPort()).toBe(8080);
    expect(spec.containerDataPath()).toBe('/var/jenkins_home');
    expect(spec.efsDataPath()).toBe('/jenkins');
    expect(spec.volumeName()).toBe('jenkins-home');
    expect(spec.containerUser()).toBe('1000:1000');
    expect(spec.efsPermissions()).toBe('750');
    expect(spec.ebsDeviceName()).toBe('/dev/xvdf');
    expect(spec.ec2DataPath()).toBe('/var/lib/jenkins');
    expect(spec.ec2LogPaths()).toEqual(['/var/log/jenkins/jenkins.log', '/var/lib/jenkins/logs/audit-*.log']);
    expect(spec.healthCheckPath()).toBe('/login');
    expect(spec.supportsOidcIntegration()).toBe(true);
    expect(spec.oidcIntegration().callbackPath()).toBe('/securityRealm/finishLogin');
  });

  test('(b) fqdn, sslEnabled true and auth mode none: the public address is https://...<fqdn>', () => {
    const url = spec.containerEnvironmentVariables('ci.example.com', true, AuthMode.NONE).JENKINS_URL;
    expect(url.startsWith('https://')).toBe(true);
    expect(url.endsWith('ci.example.com')).toBe(true);
  });

  test.each([RuntimeType.FARGATE, RuntimeType.EC2])('(c) %s: a fresh stack with the factory synthesises, with no domain (DEV)', (runtime) => {
    const app = new App();
    new ApplicationFactory(new Stack(app, 'Jenkins'), 'BuildServer', runtime, new JenkinsSpec(), { ...SIGN_IN, domain: undefined });
    expect(() => app.synth()).not.toThrow();
  });
});

describe('container environment (rules 1-4)', () => {
  const spec = new JenkinsSpec();
  test('rule 1: http when TLS is off; without an fqdn the spec\'s local address, as the root URL too, on both runtimes', () => {
    expect(publicUrl('', true)).toBe('http://localhost:8080');
    expect(spec.containerEnvironmentVariables('ci.example.com', false, AuthMode.NONE).JENKINS_URL).toBe('http://ci.example.com');
    expect(spec.containerEnvironmentVariables('', true, AuthMode.NONE).JENKINS_URL).toBe('http://localhost:8080');
  });

  test.each([RuntimeType.FARGATE, RuntimeType.EC2])('rule 1, %s: DEV without a domain synthesises at http://localhost:8080, warning with the redirect URI and the port forward', (runtime) => {
    const { json, warnings } = synthWithWarnings(runtime, { ...propsFor(SecurityProfile.DEV), ...SIGN_IN, domain: undefined });
    if (runtime === RuntimeType.FARGATE) {
      const app = applicationTask(json).Properties.ContainerDefinitions.find((c: any) => c.Name === 'Application');
      expect(env(app).JENKINS_URL).toBe('http://localhost:8080');
      // The port forward's way in: ECS Exec on the service.
      expect(only(json, 'AWS::ECS::Service').Properties.EnableExecuteCommand).toBe(true);
    } else {
      const dropIn = filesWritten(userData(json), json)['/etc/systemd/system/jenkins.service.d/override.conf'];
      expect(dropIn.split('\n')).toContain('Environment="JENKINS_URL=http://localhost:8080"');
      const statements = resources(json, 'AWS::IAM::Policy').flatMap(([, p]: [string, any]) => p.Properties.PolicyDocument.Statement);
      expect(statements).toContainEqual(expect.objectContaining({ Action: expect.arrayContaining(['ssmmessages:OpenDataChannel', 'ssm:UpdateInstanceInformation']) }));
    }
    expect(warnings).toEqual([expect.stringMatching(new RegExp('^No domain: JenkinsSpec\'s address is http://localhost:8080\\. ' +
      'Register http://localhost:8080/securityRealm/finishLogin as a redirect URI at the identity provider, and reach the application ' +
      `through a port forward: aws ssm start-session --target ${runtime === RuntimeType.FARGATE ? 'ecs:' : '<instance id>'}`))]);
  });

  test('negative control: with a domain there is no such warning, and STAGING without one is refused naming the key', () => {
    expect(synthWithWarnings(RuntimeType.FARGATE, { ...propsFor(SecurityProfile.DEV), ...SIGN_IN }).warnings).toEqual([]);
    expect(() => synth(RuntimeType.FARGATE, { ...propsFor(SecurityProfile.STAGING), ...SIGN_IN, ...TLS, domain: undefined }, new JenkinsSpec()))
      .toThrow(/sslEnabled true needs a domain/);
  });

  test('rule 3: Jenkins never listens on TLS; the setup wizard is off; sessions time out', () => {
    const e = spec.containerEnvironmentVariables('ci.example.com', true, AuthMode.NONE);
    expect(e.JENKINS_OPTS.split(' ')).toEqual(expect.arrayContaining(['--httpsPort=-1', '--sessionTimeout=15']));
    expect(e.JAVA_OPTS.split(' ')).toContain('-Djenkins.install.runSetupWizard=false');
    expect(e.CASC_JENKINS_CONFIG).toBe('/fw/config/jenkins.yaml');
  });

  test('no CLI over WebSocket, as the pinned core reads it (CLIAction.java line 82: a Boolean system property)', () => {
    const e = spec.containerEnvironmentVariables('ci.example.com', true, AuthMode.NONE);
    expect(e.JAVA_OPTS.split(' ')).toContain('-Dhudson.cli.CLIAction.ALLOW_WEBSOCKET=false');
  });

  test(`an explicit heap: ${CONTROLLER_HEAP_PERCENT} % of the memory, not the JDK's default 25 %`, () => {
    const e = spec.containerEnvironmentVariables('ci.example.com', true, AuthMode.NONE);
    expect(e.JAVA_OPTS.split(' ')).toContain(`-XX:MaxRAMPercentage=${CONTROLLER_HEAP_PERCENT}`);
    expect(CONTROLLER_HEAP_PERCENT).toBeGreaterThan(25);
    expect(CONTROLLER_HEAP_PERCENT).toBeLessThanOrEqual(75);
  });

  test('rule 2: application-oidc adds exactly the OIDC entries (besides the workers\' settings); rule 4: the secret only by reference', () => {
    const withOidc = fargateContainers({ ...TLS }).app;
    const own = spec.containerEnvironmentVariables('wiki.example.com', true, AuthMode.APPLICATION_OIDC);
    const added = Object.keys(env(withOidc)).filter((k) => !(k in own) && !k.startsWith('FW_'));
    expect(added.sort()).toEqual(['OIDC_CLIENT_ID', 'OIDC_SCOPES', 'OIDC_WELL_KNOWN_URL']);
    expect(env(withOidc).OIDC_WELL_KNOWN_URL).toBe('https://login.example.com/.well-known/openid-configuration');
    expect(env(withOidc).OIDC_SCOPES).toBe(OIDC_DEFAULT_SCOPES.join(' '));
    expect(withOidc.Secrets).toEqual([{ Name: 'OIDC_CLIENT_SECRET', ValueFrom: OIDC.clientSecretArn }]);
  });

  test('the realm asks for the deployment\'s oidcScopes, as OAuth writes them', () => {
    expect(spec.oidcIntegration().environment({ ...OIDC, scopes: ['openid', 'email', 'groups'] }).OIDC_SCOPES).toBe('openid email groups');
  });

  test('the discovery document is found below the issuer, with or without its trailing slash', () => {
    const integration = spec.oidcIntegration();
    expect(integration.environment({ ...OIDC, issuer: 'https://idp.example.com/realms/ci/' }).OIDC_WELL_KNOWN_URL)
      .toBe('https://idp.example.com/realms/ci/.well-known/openid-configuration');
  });
});

describe('auth modes', () => {
  test.each([AuthMode.NONE, AuthMode.ALB_OIDC])('%s is refused before anything is built, in one line naming application-oidc', (authMode) => {
    const stack = new Stack(new App(), 'Jenkins', { env: { region: 'eu-west-1' } });
    let error: unknown;
    try {
      new ApplicationFactory(stack, 'BuildServer', RuntimeType.FARGATE, new JenkinsSpec(), { ...TLS, authMode, oidc: OIDC });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toBe(
      `JenkinsSpec (applicationId jenkins) cannot be deployed with authMode "${authMode}"; allowed: "application-oidc".`);
    expect(stack.node.findAll().filter((c) => c instanceof CfnResource)).toEqual([]);
  });
});

/** The configuration as each runtime delivers it, parsed back. */
function fargateConfiguration(spec = new JenkinsSpec(), profile = SecurityProfile.DEV): any {
  const { json } = synth(RuntimeType.FARGATE, { ...propsFor(profile), ...SIGN_IN, alarmEmail: ALARM_EMAIL }, spec);
  const init = applicationTask(json).Properties.ContainerDefinitions.find((c: any) => c.Name === 'Initialization');
  const script: string = init.Command[0];
  const variable = /printf '%s' "\$(FW_FILE_\d+)" \| base64 -d > '\/fw\/config\/jenkins.yaml'/.exec(script)![1];
  return YAML.parse(Buffer.from(env(init)[variable], 'base64').toString('utf-8'));
}

const ALARM_EMAIL = 'security@example.com';
/** The configuration the EC2 user data writes (unpacked as the instance's shell would; the sandbox runs it below). */
function ec2Configuration(spec = new JenkinsSpec(), profile = SecurityProfile.DEV): any {
  return YAML.parse(filesWritten(ec2Script({ ...EFS, securityProfile: profile }, spec))['/etc/jenkins/casc/jenkins.yaml']);
}

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

  test(`PRODUCTION keeps the full template's audit log: the spec's count (52), files sized to ${AUDIT_LOG_BUDGET_MB} MB on the data volume`, () => {
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
    // Negative control: the spec's 52 files of the largest limit the plugin holds would take 104 GiB.
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
    // Negative control: the spec's 10000 wraps to about 1.77 GiB.
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

describe('SonarQube\'s secrets', () => {
  test('reach the controller by reference only: container secrets on Fargate, read at boot on EC2', () => {
    const { app, json } = fargateContainers({ ...TLS }, new JenkinsSpec({ sonarQube: SONAR }));
    expect(app.Secrets).toEqual(expect.arrayContaining([
      { Name: 'SONAR_TOKEN', ValueFrom: SONAR.tokenSecretArn },
      { Name: 'SONAR_WEBHOOK_SECRET', ValueFrom: SONAR.webhookSecretArn },
    ]));
    expect(JSON.stringify(json)).not.toMatch(/"Name":"SONAR_TOKEN","Value"/);
  });

  test('a server that is not an HTTPS URL, and a variable given twice, are refused naming them', () => {
    expect(() => new JenkinsSpec({ sonarQube: { ...SONAR, serverUrl: 'http://sonarqube.example.com' } }))
      .toThrow('JenkinsSpec: sonarQube.serverUrl "http://sonarqube.example.com" is not an HTTPS URL');
    expect(() => synth(RuntimeType.FARGATE, { ...SIGN_IN, secrets: { SONAR_TOKEN: SONAR.tokenSecretArn } }, new JenkinsSpec({ sonarQube: SONAR })))
      .toThrow('secrets.SONAR_TOKEN is also declared by JenkinsSpec.secrets(): give the application each variable once.');
  });
});

describe('SonarQube by configuration (pluginSettings)', () => {
  const load = fargateConfiguration;
  const settings = {
    sonarQubeUrl: SONAR.serverUrl, sonarQubeTokenSecretArn: SONAR.tokenSecretArn, sonarQubeWebhookSecretArn: SONAR.webhookSecretArn,
  };

  test('the three settings give what the sonarQube prop gives: the same configuration and secrets', () => {
    const configured = configuredSpec('JenkinsSpec', new JenkinsSpec(), settings);
    expect(load(configured as JenkinsSpec)).toEqual(load(new JenkinsSpec({ sonarQube: SONAR })));
    expect(configured.secrets()).toEqual(new JenkinsSpec({ sonarQube: SONAR }).secrets());
    // None given: the build server without SonarQube, as before.
    expect(load(configuredSpec('JenkinsSpec', new JenkinsSpec(), {}) as JenkinsSpec).unclassified.sonarGlobalConfiguration).toBeUndefined();
  });

  test('through the deployment context: cdk.json\'s pluginSettings reach the built-in plugin', () => {
    const { json } = synth(RuntimeType.FARGATE, { ...SIGN_IN, pluginSettings: settings }, new JenkinsSpec());
    const container = applicationTask(json).Properties.ContainerDefinitions.find((c: any) => c.Name === 'Application');
    expect(container.Secrets).toEqual(expect.arrayContaining([{ Name: 'SONAR_TOKEN', ValueFrom: SONAR.tokenSecretArn }]));
  });

  test('some but not all, an address that is not HTTPS, an ARN that is not a secret\'s: refused, naming each', () => {
    expect(() => configuredSpec('JenkinsSpec', new JenkinsSpec(), { sonarQubeUrl: SONAR.serverUrl }))
      .toThrow('JenkinsSpec: pluginSettings gives sonarQubeUrl but not sonarQubeTokenSecretArn, sonarQubeWebhookSecretArn; SonarQube needs all three');
    expect(() => configuredSpec('JenkinsSpec', new JenkinsSpec(), { ...settings, sonarQubeUrl: 'http://sonar', sonarQubeTokenSecretArn: 'arn:aws:ssm:x' }))
      .toThrow(/sonarQubeUrl "http:\/\/sonar" is not allowed; expected an HTTPS URL[^\n]*\n[^\n]*sonarQubeTokenSecretArn "arn:aws:ssm:x" is not allowed; expected a Secrets Manager secret's complete ARN/);
  });
});

describe('plugins', () => {
  test('the spec\'s six but ldap (the realm is OIDC) and what the configuration, jobs and pipelines use, each pinned once', () => {
    const ids = JENKINS_PLUGINS.map(({ id }) => id);
    expect(ids).toEqual(['matrix-auth', 'oic-auth', 'credentials-binding', 'mask-passwords', 'audit-trail', 'configuration-as-code',
      'job-dsl', 'workflow-job', 'workflow-cps', 'workflow-basic-steps', 'workflow-durable-task-step', 'pipeline-stage-step',
      'workflow-scm-step', 'workflow-multibranch', 'pipeline-model-definition', 'git', 'script-security', 'pipeline-groovy-lib',
      'sonar', 'amazon-ecs', 'credentials', 'plain-credentials']);
    for (const { version } of JENKINS_PLUGINS) expect(version).toMatch(/^\d+(\.[\w]+)+$/);
    expect(new Set(ids).size).toBe(ids.length);
    // plugins.txt: the pins, then the plugins below them (plugin-closure.test.ts checks that those are all of them).
    expect(pluginsTxt()).toBe([...JENKINS_PLUGINS, ...JENKINS_PLUGIN_CLOSURE].map(({ id, version }) => `${id}:${version}\n`).join(''));
  });

  test('FARGATE: an init container from the pinned image installs them before Jenkins starts', () => {
    const { app, init } = fargateContainers();
    expect(init.Image).toBe(app.Image);
    expect(init.Essential).toBe(false);
    // --latest false: dependencies at the versions the pinned plugins declare, not the newest of the day
    // (plugin-installation-manager-tool@2.15.0 CliOptions.java lines 150-154: the default is true).
    expect(init.Command[0]).toContain('jenkins-plugin-cli --plugin-file /fw/config/plugins.txt --plugin-download-directory /var/jenkins_home/plugins --latest false');
    const pluginsVar = /printf '%s' "\$(FW_FILE_\d+)" \| base64 -d > '\/fw\/config\/plugins.txt'/.exec(init.Command[0])![1];
    expect(Buffer.from(env(init)[pluginsVar], 'base64').toString()).toBe(pluginsTxt());
    expect(app.DependsOn).toEqual([{ ContainerName: 'Initialization', Condition: 'SUCCESS' }]);
    expect(app.MountPoints).toContainEqual({ SourceVolume: 'fw-config', ContainerPath: '/fw/config', ReadOnly: true });
  });
});

needing('shellcheck', shellcheckUnavailable()).testEach([['EFS', EFS], ['EBS', { ...EFS, hasEfs: false, efsId: undefined, accessPointId: undefined }]])(
  'the EC2 user data (%s) passes shellcheck', (_n, context) => {
    expect(shellcheck(ec2Script(context as Ec2Context))).toBe('');
  });

needing(SANDBOX_NEEDS, sandboxUnavailable()).describe('EC2 user data, executed with stub commands', () => {
  const run = runInSandbox(ec2Script());

  test(`imports the key that signs the pinned release: jenkins.io-2026.key, as the image of ${JENKINS_LTS} verifies its war with`, () => {
    // jenkinsci/docker@2.568.2 debian/Dockerfile line 52: COPY jenkins.io-2026.key /war/jenkins-key.pub (then gpg --verify).
    expect(JENKINS_LTS).toBe('2.568.2');
    expect(run.calls).toContain(`rpm --import ${JENKINS_RPM_KEY}`);
    expect(JENKINS_RPM_KEY).toMatch(/\/jenkins\.io-2026\.key$/);
  });

  test('follows the spec\'s rule-5 order', () => {
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const order = run.calls.filter((c) => !c.startsWith('mountpoint')).map((c) => c.split(' ').slice(0, 3).join(' '));
    expect(order).toEqual([
      'dnf -y update',
      'dnf install -y',
      'curl -fsSL --retry',
      'rpm --import https://pkg.jenkins.io/rpm-stable/jenkins.io-2026.key',
      'dnf install -y',
      'curl -fsSL --retry',
      'curl -fsSL --retry',
      'dnf install -y',
      'amazon-cloudwatch-agent-ctl -a fetch-config',
      'dnf install -y',
      'mount /var/lib/jenkins',
      'java -jar /usr/local/lib/jenkins-plugin-manager.jar',
      'systemctl daemon-reload',
      'systemctl enable --now',
      'systemctl enable --now',
      'sleep 60',
      'systemctl is-active --quiet',
    ]);
    // The font stack Jenkins' AWT check needs and git, by name: not left to weak dependencies.
    expect(run.calls).toContain('dnf install -y java-21-amazon-corretto-headless fontconfig freetype dejavu-sans-fonts git-core logrotate');
    expect(run.calls).toContain('dnf install -y jenkins-2.568.2');
    expect(run.log.filter((l) => l.startsWith('step '))).toEqual([
      'step 1: system update',
      'step 2: commands (6 lines)',
      'step 3: CloudWatch agent shipping 2 log file(s) to /aws/ci/EC2/PRODUCTION',
      'step 4: mount EFS fs-0123456789abcdef0 (fsap-0123456789abcdef0) at /var/lib/jenkins',
      'step 5: commands (6 lines)',
      'step 6: write 9 file(s)',
      'step 7: commands (9 lines)',
    ]);
    expect(run.log[run.log.length - 1]).toBe('user data finished');
  });

  test(`the unit drop-in restarts on failure after ${SERVICE_RESTART_SECONDS} s, stops within ${SERVICE_STOP_TIMEOUT_SECONDS} s, allows ${SERVICE_OPEN_FILES} files, and points at the configuration`, () => {
    const dropIn = run.written('/etc/systemd/system/jenkins.service.d/override.conf')!;
    for (const line of ['Restart=on-failure', 'RestartSec=5', 'TimeoutStartSec=600', 'TimeoutStopSec=30', 'LimitNOFILE=65536', 'User=jenkins', 'Group=jenkins', 'NoNewPrivileges=yes',
      'Environment="CASC_JENKINS_CONFIG=/etc/jenkins/casc/jenkins.yaml"', 'Environment="JENKINS_LOG=/var/log/jenkins/jenkins.log"',
      'Environment="JENKINS_URL=https://ci.example.com"', 'EnvironmentFile=-/etc/fw/application.env',
      'Environment="JAVA_OPTS=-Djava.awt.headless=true -XX:MaxRAMPercentage=50 -Djenkins.install.runSetupWizard=false ' +
        '-Dhudson.cli.CLIAction.ALLOW_WEBSOCKET=false -Djava.util.logging.config.file=/etc/jenkins/casc/logging.properties"']) {
      expect(dropIn.split('\n')).toContain(line);
    }
  });

  test('logrotate runs hourly from the boot on: its timer is started, not only preset, and looks at maxsize every hour', () => {
    expect(run.written('/etc/systemd/system/logrotate.timer.d/hourly.conf')).toBe('[Timer]\nOnCalendar=\nOnCalendar=hourly\n');
    const reload = run.calls.indexOf('systemctl daemon-reload');
    expect(run.calls.indexOf('systemctl enable --now logrotate.timer')).toBeGreaterThan(reload);
    expect(run.written('/etc/logrotate.d/jenkins')).toContain('    maxsize 100M\n');
  });

  test('the plugin tool is checked against its checksum before it runs as root; a download that does not match stops the boot', () => {
    const check = run.calls.findIndex((c) => c.endsWith('.jar.sha256'));
    expect(check).toBeGreaterThan(run.calls.findIndex((c) => c.includes('-o /usr/local/lib/jenkins-plugin-manager.jar')));
    expect(check).toBeLessThan(run.calls.findIndex((c) => c.startsWith('java -jar')));
    const tampered = runInSandbox(ec2Script(), {
      ...DEFAULT_STUBS,
      curl: `${DEFAULT_STUBS.curl}\ncase "$out" in *.jar) echo tampered >> "$out" ;; esac`,
    });
    expect(tampered.status).not.toBe(0);
    expect(tampered.calls.some((c) => c.startsWith('java -jar'))).toBe(false);
  });

  test('the mask-passwords configuration is in the Jenkins home, owned by Jenkins, before the service starts', () => {
    expect(run.written(`/var/lib/jenkins/${MASK_PASSWORDS_FILE}`)).toBe(maskPasswordsConfig());
  });

  test('the controller-health init script is written into the home\'s init.groovy.d (files are written before the service starts: step 6 of 7)', () => {
    expect(run.written(`/var/lib/jenkins/${CONTROLLER_HEALTH_SCRIPT}`)).toBe(controllerHealthScript());
  });

  test('the plugins are installed before the service starts, from the pinned list', () => {
    expect(run.written('/etc/jenkins/casc/plugins.txt')).toBe(pluginsTxt());
    expect(run.calls.findIndex((c) => c.startsWith('java -jar'))).toBeLessThan(run.calls.indexOf('systemctl enable --now jenkins'));
  });

  test(`a service that is not active after the ${STARTUP_WAIT_SECONDS} s wait appends the last 50 journal lines; no password is ever printed`, () => {
    const failed = runInSandbox(ec2Script(), {
      ...DEFAULT_STUBS, systemctl: '[ "$1" = is-active ] && exit 3; exit 0', journalctl: 'echo "journal: Jenkins failed"',
    });
    expect(failed.calls).toContain('sleep 60');
    expect(failed.status).not.toBe(0);
    expect(failed.log).toContain('journal: Jenkins failed');
    expect(ec2Script()).not.toMatch(/initialAdminPassword/);
  });
});

test('the EC2 user data stays within EC2\'s 16 KB for the longest stack name, with EBS, syslog, the pipeline library and the OIDC secret', () => {
  const app = new App();
  const stack = new Stack(app, 'Longest', { stackName: 'a'.repeat(128), env: { region: 'eu-west-1' } });
  const spec = new JenkinsSpec({ syslogHost: 'syslog.example.com', syslogNetwork: '10.0.5.20/32', pipelineLibrary: { repository: 'https://git.example.com/ci/fw-pipeline-library.git', version: 'v0.1.0' } });
  const factory = new ApplicationFactory(stack, 'BuildServer', RuntimeType.EC2, spec, {
    securityProfile: SecurityProfile.PRODUCTION,
    pciDssScope: PciDssScope.CONNECTED,
    acceptedAdvisories: acceptingAll(spec),
    ...TLS,
    ...SIGN_IN,
    alarmEmail: ALARM_EMAIL,
    ec2Storage: Ec2Storage.EBS,
    dockerHubCredentialArn: DOCKER_HUB_CREDENTIAL,
    imageDigests: IMAGE_DIGESTS,
  });
  // EC2 takes at most 16384 bytes of user data before base64 (the factory refuses more: limits.test.ts).
  const ec2 = factory.node.findAll().find((c): c is Ec2Runtime => c instanceof Ec2Runtime)!;
  expect(Buffer.byteLength(ec2.userDataScript)).toBeLessThanOrEqual(16384);
});

test('EC2: the controller\'s files travel in parameters of at most 4096 characters that only the instance role reads', () => {
  const { json } = synth(RuntimeType.EC2, { ...propsFor(SecurityProfile.PRODUCTION), ...SIGN_IN, alarmEmail: ALARM_EMAIL }, new JenkinsSpec());
  const parts = resources(json, 'AWS::SSM::Parameter').filter(([id]) => /Files1Part/.test(id));
  expect(parts.length).toBeGreaterThan(1);
  for (const [, part] of parts) expect(part.Properties.Value.length).toBeLessThanOrEqual(4096);
  const script = userData(json);
  expect(script).not.toMatch(/'H4sI/);
  expect(script).toContain(`fw_archive="${parts.map((_, i) => `$fw_part_${i + 1}`).join('')}"`);
  const reads = resources(json, 'AWS::IAM::Policy').flatMap(([, p]) => p.Properties.PolicyDocument.Statement
    .filter((st: any) => [st.Action].flat().includes('ssm:GetParameter')).map((st: any) => ({ roles: p.Properties.Roles, st })));
  const instanceRole = only(json, 'AWS::IAM::InstanceProfile').Properties.Roles[0];
  for (const { roles } of reads) expect(roles).toEqual([instanceRole]);
  const granted = JSON.stringify(reads.map(({ st }) => st.Resource));
  for (const [id] of parts) expect(granted).toContain(`{"Ref":"${id}"}`);
  // Reassembled, they are the files the controller reads.
  expect(Object.keys(filesWritten(script, json))).toEqual(expect.arrayContaining(['/etc/jenkins/casc/jenkins.yaml', '/etc/jenkins/casc/compliance-jobs.groovy']));
});

describe.each([RuntimeType.FARGATE, RuntimeType.EC2])('PRODUCTION on %s', (runtime) => {
  test('passes the four cdk-nag packs with the OIDC sign-in on', () => {
    const { stack } = synth(runtime, {
      securityProfile: SecurityProfile.PRODUCTION,
      pciDssScope: PciDssScope.CONNECTED,
      ...TLS,
      authMode: AuthMode.APPLICATION_OIDC,
      oidc: OIDC,
      alarmEmail: ALARM_EMAIL,
      dockerHubCredentialArn: DOCKER_HUB_CREDENTIAL,
      imageDigests: IMAGE_DIGESTS,
    }, new JenkinsSpec());
    expect(complianceFindings(stack)).toEqual([]);
  });
});

describe.each([RuntimeType.FARGATE, RuntimeType.EC2])('failed-login monitoring on %s', (runtime) => {
  test.each([SecurityProfile.DEV, SecurityProfile.STAGING, SecurityProfile.PRODUCTION])(`%s: alarm on more than ${FAILED_LOGIN_ALERT_THRESHOLD} failed logins in ${FAILED_LOGIN_WINDOW_SECONDS} s, sent to the alarm topic`, (profile) => {
    const { json, template } = synth(runtime, { ...propsFor(profile), ...SIGN_IN, alarmEmail: ALARM_EMAIL }, new JenkinsSpec());
    const filters = resources(json, 'AWS::Logs::MetricFilter').map(([, f]) => f.Properties);
    expect(filters.map((f: any) => f.FilterPattern)).toEqual([FAILED_LOGIN_FILTER, `"${SECURITY_WARNING_LINE}"`,
      ...CONTROLLER_HEALTH_ALARMS.map(() => '{ $.fwControllerHealth = 1 }')]);
    const alarms = resources(json, 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    const alarm = alarms.find((a: any) => a.MetricName === 'JenkinsFailedLogins');
    // One published advisory against what runs is enough: the weekly check logs one line each.
    expect(alarms.find((a: any) => a.MetricName === 'JenkinsSecurityWarnings')).toMatchObject({
      Threshold: 0, ComparisonOperator: 'GreaterThanThreshold', Period: 86400, AlarmActions: alarm.AlarmActions,
    });
    expect(alarm).toMatchObject({
      MetricName: 'JenkinsFailedLogins',
      Statistic: 'Sum',
      Period: 86400,
      Threshold: 10,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 1,
    });
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: ALARM_EMAIL });
  });

  test('the logging configuration that lets the sign-in failures through is handed to the JVM', () => {
    const properties = runtime === RuntimeType.FARGATE
      ? (() => {
        const { init, app } = fargateContainers();
        const variable = /printf '%s' "\$(FW_FILE_\d+)" \| base64 -d > '\/fw\/config\/logging.properties'/.exec(init.Command[0])![1];
        expect(env(app).JAVA_OPTS).toContain('-Djava.util.logging.config.file=/fw/config/logging.properties');
        return Buffer.from(env(init)[variable], 'base64').toString();
      })()
      : (() => {
        const written = filesWritten(ec2Script());
        expect(written['/etc/systemd/system/jenkins.service.d/override.conf']).toContain('-Djava.util.logging.config.file=/etc/jenkins/casc/logging.properties');
        return written['/etc/jenkins/casc/logging.properties'];
      })();
    expect(properties).toBe(loggingProperties());
  });
});

describe('card data in build logs (mask-passwords\' global patterns)', () => {
  test('the configuration file lists every pattern, applies them to every build, and escapes them as XML', () => {
    const file = maskPasswordsConfig();
    expect(file).toContain('<globalVarEnableGlobally>true</globalVarEnableGlobally>');
    for (const [name, regex] of Object.entries(CARD_DATA_PATTERNS)) {
      const escaped = regex.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
      expect(file).toContain(`<key>${name}</key><value><regex>${escaped}</regex></value>`);
    }
    expect(file).not.toMatch(/\(\?<[!=]/);
  });

  test('both runtimes write it into the Jenkins home before Jenkins starts', () => {
    const { init } = fargateContainers();
    expect(init.Command[0]).toContain(`cp /fw/config/${MASK_PASSWORDS_FILE} /var/jenkins_home/${MASK_PASSWORDS_FILE}`);
    const variable = new RegExp(`printf '%s' "\\$(FW_FILE_\\d+)" \\| base64 -d > '/fw/config/${MASK_PASSWORDS_FILE}'`).exec(init.Command[0])![1];
    expect(Buffer.from(env(init)[variable], 'base64').toString()).toBe(maskPasswordsConfig());
    expect(ec2Script()).toContain(`'/var/lib/jenkins/${MASK_PASSWORDS_FILE}'`);
  });
});

describe('a first start is not replaced before it may finish', () => {
  // The build server's budget: the plugin download, the unit's whole start timeout and the wait after it.
  test(`it declares ${CONTROLLER_STARTUP_SECONDS} s (${PLUGIN_DOWNLOAD_SECONDS} + ${SERVICE_START_TIMEOUT_SECONDS} + ${STARTUP_WAIT_SECONDS})`, () => {
    const budget = PLUGIN_DOWNLOAD_SECONDS + SERVICE_START_TIMEOUT_SECONDS + STARTUP_WAIT_SECONDS;
    expect(new JenkinsSpec().defaultSize()).toEqual({ startupSeconds: budget });
  });

  test.each([RuntimeType.FARGATE, RuntimeType.EC2])('%s: the health-check grace covers it (EC2: after the framework\'s provisioning)', (runtime) => {
    const { json } = synth(runtime, { ...propsFor(SecurityProfile.DEV), ...SIGN_IN }, new JenkinsSpec());
    if (runtime === RuntimeType.FARGATE) {
      expect(only(json, 'AWS::ECS::Service').Properties.HealthCheckGracePeriodSeconds).toBe(CONTROLLER_STARTUP_SECONDS);
    } else {
      const group = only(json, 'AWS::AutoScaling::AutoScalingGroup').Properties;
      expect(group.HealthCheckGracePeriod).toBe(EC2_PROVISIONING_SECONDS + CONTROLLER_STARTUP_SECONDS);
      // The unit alone may take SERVICE_START_TIMEOUT_SECONDS: the grace is longer than that and the install before it.
      expect(group.HealthCheckGracePeriod).toBeGreaterThan(SERVICE_START_TIMEOUT_SECONDS + STARTUP_WAIT_SECONDS + PLUGIN_DOWNLOAD_SECONDS);
    }
  });

  test('the contract\'s documentation states the range and default the factory applies', () => {
    const doc = fs.readFileSync(path.join(__dirname, '../../src/contract/application-size.ts'), 'utf-8');
    expect(doc).toContain(`From ${STARTUP_SECONDS_MIN} to ${STARTUP_SECONDS_MAX} (\`STARTUP_SECONDS_MIN\``);
    expect(doc).toContain(`@default - ${STARTUP_SECONDS_DEFAULT} (\`STARTUP_SECONDS_DEFAULT\`)`);
  });

  test('a plugin\'s startupSeconds outside the range is refused, naming it', () => {
    class Slow extends JenkinsSpec {
      public defaultSize() { return { startupSeconds: 7200 }; }
    }
    expect(() => synth(RuntimeType.FARGATE, { ...propsFor(SecurityProfile.DEV), ...SIGN_IN }, new Slow()))
      .toThrow('Slow.defaultSize().startupSeconds 7200; allowed: an integer from 60 to 3600.');
  });
});
