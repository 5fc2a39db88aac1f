// The build server's EC2 user data: shellcheck, executed with stub commands, within EC2's limits.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Stack } from 'aws-cdk-lib';
import { ApplicationFactory, Ec2Context, Ec2Storage, JenkinsSpec, PciDssScope, RuntimeType, SecurityProfile } from '../../src';
import { MASK_PASSWORDS_FILE, maskPasswordsConfig } from '../../src/build-server/card-data-masking';
import { CONTROLLER_HEALTH_SCRIPT, controllerHealthScript } from '../../src/build-server/controller-health';
import {
  SERVICE_OPEN_FILES, SERVICE_RESTART_SECONDS, SERVICE_STOP_TIMEOUT_SECONDS, STARTUP_WAIT_SECONDS,
} from '../../src/build-server/hardening';
import { JENKINS_LTS, JENKINS_RPM_KEY, pluginsTxt } from '../../src/build-server/versions';
import { Ec2Runtime } from '../../src/runtimes/ec2';
import { ALARM_EMAIL, EFS, SIGN_IN, ec2Script, filesUnder, pinnedPluginFiles, PLUGIN_TOOL_STUB, seed, STALE_PLUGINS } from '../support/jenkins';
import { DEFAULT_STUBS, runInSandbox, SANDBOX_NEEDS, sandboxUnavailable } from '../support/sandbox';
import { needing, shellcheck, shellcheckUnavailable } from '../support/shellcheck';
import { acceptingAll, DOCKER_HUB_CREDENTIAL, EC2_IMAGE_ID, IMAGE_DIGESTS, only, propsFor, resources, synth, TLS, userData } from '../support/synth';
import { filesWritten } from '../support/user-data-files';

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
      'step 7: commands (12 lines)',
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

  test('after the boot the plugin directory holds exactly the pins: removed plugins gone, one upgraded in the UI back at its pin', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-plugins-'));
    const plugins = path.join(dir, 'upper', 'var', 'lib', 'jenkins', 'plugins');
    seed(plugins, STALE_PLUGINS);
    const boot = runInSandbox(ec2Script(), { ...DEFAULT_STUBS, java: PLUGIN_TOOL_STUB }, dir);
    expect(boot.status).toBe(0);
    expect(filesUnder(plugins)).toEqual(pinnedPluginFiles());
    // Negative control: the tool alone keeps what it finds (the stand-in, as the tool, skips an installed release).
    seed(plugins, STALE_PLUGINS);
    const toolOnly = runInSandbox(ec2Script().replace(/^find \S+ -mindepth 1 -delete$/m, ':'), { ...DEFAULT_STUBS, java: PLUGIN_TOOL_STUB }, dir);
    expect(toolOnly.status).toBe(0);
    expect(filesUnder(plugins)).toEqual(expect.objectContaining({ 'ldap.jpi': '807\n', 'matrix-auth.jpi': '3.2.99\n' }));
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

test('the EC2 user data stays within EC2\'s 16 KB for the longest stack name, with EBS, syslog, SonarQube, the pipeline library and every secret', () => {
  const app = new App();
  const stack = new Stack(app, 'Longest', { stackName: 'a'.repeat(128), env: { region: 'eu-west-1' } });
  // Every secret jenkins.yaml can name (SonarQube's two, the library's git user), each read and checked at boot: with
  // them the boot was 16,440 bytes before each secret's read became one fw_env_secret line (issue 61).
  const arn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:ci/x-AbCdEf';
  const spec = new JenkinsSpec({
    syslogHost: 'syslog.example.com',
    syslogNetwork: '10.0.5.20/32',
    sonarQube: { serverUrl: 'https://sonar.example.com', tokenSecretArn: arn, webhookSecretArn: arn },
    pipelineLibrary: { repository: 'https://git.example.com/ci/fw-pipeline-library.git', version: 'v0.1.0', credentialsSecretArn: arn },
  });
  const factory = new ApplicationFactory(stack, 'BuildServer', RuntimeType.EC2, spec, {
    securityProfile: SecurityProfile.PRODUCTION,
    ec2ImageId: EC2_IMAGE_ID,
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

