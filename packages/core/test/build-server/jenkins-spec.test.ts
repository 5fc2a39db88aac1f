// The built-in build server (JenkinsSpec): the specification's rules, its environment, auth modes, SonarQube, plugins, monitoring.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, CfnResource, Stack } from 'aws-cdk-lib';
import { ApplicationFactory, AuthMode, JenkinsSpec, PciDssScope, RuntimeType, SecurityProfile } from '../../src';
import { CARD_DATA_PATTERNS, MASK_PASSWORDS_FILE, maskPasswordsConfig } from '../../src/build-server/card-data-masking';
import { publicUrl } from '../../src/build-server/controller-files';
import { CONTROLLER_HEALTH_ALARMS } from '../../src/build-server/controller-health';
import {
  CONTROLLER_HEAP_PERCENT, CONTROLLER_STARTUP_SECONDS, FAILED_LOGIN_ALERT_THRESHOLD, FAILED_LOGIN_WINDOW_SECONDS, PLUGIN_DOWNLOAD_SECONDS,
  SERVICE_START_TIMEOUT_SECONDS, STARTUP_WAIT_SECONDS,
} from '../../src/build-server/hardening';
import { FAILED_LOGIN_FILTER, loggingProperties, SECURITY_WARNING_LINE } from '../../src/build-server/jenkins-monitoring';
import { JENKINS_PLUGIN_CLOSURE, JENKINS_PLUGINS, pluginsTxt } from '../../src/build-server/versions';
import { complianceFindings } from '../../src/compliance/compliance-packs';
import { OIDC_DEFAULT_SCOPES } from '../../src/context/context-keys';
import { configuredSpec } from '../../src/context/plugin-settings';
import { STARTUP_SECONDS_DEFAULT, STARTUP_SECONDS_MAX, STARTUP_SECONDS_MIN } from '../../src/contract/application-size';
import { UserError } from '../../src/errors';
import { EC2_PROVISIONING_SECONDS } from '../../src/runtimes/ec2';
import {
  ALARM_EMAIL, SIGN_IN, SONAR, ec2Script, env, fargateConfiguration, fargateContainers, filesUnder, pinnedPluginFiles, PLUGIN_TOOL_STUB, seed,
  STALE_PLUGINS, synthWithWarnings,
} from '../support/jenkins';
import { DEFAULT_STUBS, runInSandbox, SANDBOX_NEEDS, sandboxUnavailable } from '../support/sandbox';
import { needing } from '../support/shellcheck';
import { DOCKER_HUB_CREDENTIAL, IMAGE_DIGESTS, applicationTask, OIDC, only, propsFor, resources, synth, TLS, userData } from '../support/synth';
import { filesWritten } from '../support/user-data-files';

describe('specification rule 8', () => {
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

describe('the administrator\'s e-mail address: adminEmail, or the setting jenkinsAdminEmail', () => {
  test('location.adminAddress, the same by prop and by setting; none given, Jenkins\' placeholder (no adminAddress)', () => {
    const byProp = fargateConfiguration(new JenkinsSpec({ adminEmail: 'jenkins@example.com' }));
    expect(byProp.unclassified.location).toEqual({ url: '${JENKINS_URL}', adminAddress: 'jenkins@example.com' });
    expect(fargateConfiguration(configuredSpec('JenkinsSpec', new JenkinsSpec(), { jenkinsAdminEmail: 'jenkins@example.com' }) as JenkinsSpec))
      .toEqual(byProp);
    expect(fargateConfiguration().unclassified.location).toEqual({ url: '${JENKINS_URL}' });
    // With SonarQube's settings: both.
    const both = configuredSpec('JenkinsSpec', new JenkinsSpec(), {
      jenkinsAdminEmail: 'jenkins@example.com', sonarQubeUrl: SONAR.serverUrl, sonarQubeTokenSecretArn: SONAR.tokenSecretArn, sonarQubeWebhookSecretArn: SONAR.webhookSecretArn,
    }) as JenkinsSpec;
    expect(fargateConfiguration(both)).toEqual(fargateConfiguration(new JenkinsSpec({ adminEmail: 'jenkins@example.com', sonarQube: SONAR })));
  });

  test('not an address, or one configuration-as-code would expand: refused, naming it', () => {
    expect(() => configuredSpec('JenkinsSpec', new JenkinsSpec(), { jenkinsAdminEmail: 'jenkins' }))
      .toThrow('JenkinsSpec: adminEmail "jenkins" is not allowed; expected an e-mail address such as security@example.com.');
    expect(() => new JenkinsSpec({ adminEmail: '${SECRET}@example.com' })).toThrow(/JenkinsSpec: adminEmail .*\$\{/);
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
      .toThrow(/sonarQubeUrl "http:\/\/sonar" is not allowed; expected an HTTPS URL[^\n]*\n[^\n]*sonarQubeTokenSecretArn \(hidden, 13 characters\) is not allowed; expected a Secrets Manager secret's complete ARN/);
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
    expect(init.Command[0]).toContain('find /var/jenkins_home/plugins -mindepth 1 -delete\n' +
      'jenkins-plugin-cli --plugin-download-directory /var/jenkins_home/plugins --plugin-file /fw/config/plugins.txt --latest false');
    const pluginsVar = /printf '%s' "\$(FW_FILE_\d+)" \| base64 -d > '\/fw\/config\/plugins.txt'/.exec(init.Command[0])![1];
    expect(Buffer.from(env(init)[pluginsVar], 'base64').toString()).toBe(pluginsTxt());
    expect(app.DependsOn).toEqual([{ ContainerName: 'Initialization', Condition: 'SUCCESS' }]);
    expect(app.MountPoints).toContainEqual({ SourceVolume: 'fw-config', ContainerPath: '/fw/config', ReadOnly: true });
  });
});

needing(SANDBOX_NEEDS, sandboxUnavailable()).test('FARGATE: after the init container the plugin directory on EFS holds exactly the pins', () => {
  // The init container's own script, run in the sandbox with its environment, the image's plugin tool played by the
  // stand-in; /fw/config (a task volume) becomes /srv/fw/config, which the sandbox can write.
  const { init } = fargateContainers();
  const script = [...Object.entries(env(init)).map(([name, value]) => `export ${name}='${value}'`), 'mkdir -p /srv/fw/config',
    init.Command[0].replace(/\/fw\/config\//g, '/srv/fw/config/')].join('\n');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-plugins-'));
  const plugins = path.join(dir, 'upper', 'var', 'jenkins_home', 'plugins');
  seed(plugins, STALE_PLUGINS);
  const run = runInSandbox(script, { ...DEFAULT_STUBS, 'jenkins-plugin-cli': PLUGIN_TOOL_STUB }, dir);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  expect(filesUnder(plugins)).toEqual(pinnedPluginFiles());
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

