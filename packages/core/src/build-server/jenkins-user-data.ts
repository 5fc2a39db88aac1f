import { refuseExpandedSecretsInFile } from './casc-variable';
import type { ControllerFiles, ControllerLayout } from './controller-files';
import { FILES, homeDirectories } from './controller-files';
import {
  JENKINS_LOG_ROTATE_MB, JENKINS_LOG_ROTATIONS, SERVICE_OPEN_FILES, SERVICE_RESTART_SECONDS, SERVICE_START_TIMEOUT_SECONDS,
  SERVICE_STOP_TIMEOUT_SECONDS, STARTUP_WAIT_SECONDS,
} from './hardening';
import { pinnedPluginCommands } from './plugin-install';
import {
  EC2_CONTROLLER_PACKAGES, JENKINS_LTS, JENKINS_RPM_KEY, JENKINS_RPM_REPO, PLUGIN_MANAGER_SHA256, PLUGIN_MANAGER_URL,
} from './versions';
import type { IApplicationSpec } from '../contract/application-spec';
import type { Ec2Context } from '../contract/ec2-context';
import { Ec2Files } from '../contract/oidc-integration';
import { PosixUser } from '../contract/posix-user';
import { ServiceHardening } from '../contract/service-hardening';
import type { IUserDataBuilder } from '../contract/user-data-builder';
import { Shell } from '../userdata/shell';

const EC2_LOG_DIR = '/var/log/jenkins';
export const EC2_JENKINS_LOG = `${EC2_LOG_DIR}/jenkins.log`;
const EC2_HOME = '/var/lib/jenkins';
/** The RPM's cache, where Jenkins unpacks its war. */
const EC2_CACHE = '/var/cache/jenkins';

/** EC2 (the RPM's home): the configuration under /etc, logs under /var/log/jenkins, shipped by the CloudWatch agent. */
export const EC2_LAYOUT: ControllerLayout = {
  configDir: '/etc/jenkins/casc',
  home: EC2_HOME,
  // On the data volume, as in the container: the root volume is too small for the full profile's files.
  auditLogPattern: `${EC2_HOME}/logs/audit-%g.log`,
  auditToConsole: false,
  logFile: EC2_JENKINS_LOG,
};

const DROP_IN = '/etc/systemd/system/jenkins.service.d/override.conf';
const LOGROTATE = '/etc/logrotate.d/jenkins';
/**
 * logrotate runs from `logrotate.timer` (daily), and looks at `maxsize` only when it runs: hourly, a file cannot pass
 * its size by more than an hour's logging. The timer is also started here, not only enabled: a package installed at
 * boot only presets it, and `timers.target` is already reached, so it would first run after a reboot.
 */
const LOGROTATE_TIMER_DROP_IN = '/etc/systemd/system/logrotate.timer.d/hourly.conf';
const LOGROTATE_TIMER = ['[Timer]', 'OnCalendar=', 'OnCalendar=hourly', ''].join('\n');

/**
 * Rotation of `jenkins.log`. Winstone opens the file once, appending, and never reopens it (jenkinsci/winstone
 * 8.1039.v78300b_1d48a_9 `Launcher.java` lines 568-581), so the file is copied and truncated in place; the CloudWatch
 * agent reopens a truncated file from its start (amazon-cloudwatch-agent v1.300071.0 `tail/tail.go` lines 535-543).
 * `su` makes logrotate work as the service's account in the account's directory.
 */
function logrotateConfig(user: string): string {
  return [
    `${EC2_JENKINS_LOG} {`,
    `    su ${user} ${user}`,
    '    daily',
    `    maxsize ${JENKINS_LOG_ROTATE_MB}M`,
    `    rotate ${JENKINS_LOG_ROTATIONS}`,
    '    copytruncate',
    '    compress',
    '    delaycompress',
    '    missingok',
    '    notifempty',
    '}',
    '',
  ].join('\n');
}
const PLUGIN_MANAGER = '/usr/local/lib/jenkins-plugin-manager.jar';

export interface JenkinsUserDataParams {
  readonly spec: IApplicationSpec;
  /** The controller's files, rendered for `EC2_LAYOUT`. */
  readonly files: ControllerFiles;
  /** The controller's environment (the OIDC entries and secrets come from the framework's environment file). */
  readonly environment: Record<string, string>;
  /** The secrets jenkins.yaml names as `${VAR}`, checked in the environment file before Jenkins starts. */
  readonly cascSecrets: readonly string[];
}

/** Checks the plugin tool against its pinned SHA-256, or (until one is pinned) the checksum published beside it. */
function verifyPluginManager(): string {
  const q = Shell.quote;
  return PLUGIN_MANAGER_SHA256
    ? `printf '%s  %s\\n' ${q(PLUGIN_MANAGER_SHA256)} ${q(PLUGIN_MANAGER)} | sha256sum -c --strict -`
    : `printf '%s  %s\\n' "$(curl -fsSL --retry 5 ${q(`${PLUGIN_MANAGER_URL}.sha256`)} | cut -d ' ' -f 1)" ${q(PLUGIN_MANAGER)} | sha256sum -c --strict -`;
}

/** The EC2 installation of the build server, in the user-data order (update, install, agent, mount, configure, unit, start). */
export function configureJenkinsUserData(builder: IUserDataBuilder, context: Ec2Context, params: JenkinsUserDataParams): void {
  const { spec, files } = params;
  const home = spec.ec2DataPath();
  const configDir = EC2_LAYOUT.configDir;
  const { uid, gid } = PosixUser.parse(spec.containerUser());
  const q = Shell.quote;

  // 1. System update.
  builder.addSystemUpdate();

  // 2. Java with the fonts and git the controller needs, the vendor repository, Jenkins (pinned), and the tool that
  // installs the pinned plugins, checked before it runs as root.
  builder.addCommands(
    `fw_pkg install -y ${EC2_CONTROLLER_PACKAGES.map(q).join(' ')}`,
    `curl -fsSL --retry 5 -o /etc/yum.repos.d/jenkins.repo ${q(JENKINS_RPM_REPO)}`,
    `rpm --import ${q(JENKINS_RPM_KEY)}`,
    `fw_pkg install -y ${q(`jenkins-${JENKINS_LTS}`)}`,
    `curl -fsSL --retry 5 -o ${q(PLUGIN_MANAGER)} ${q(PLUGIN_MANAGER_URL)}`,
    verifyPluginManager(),
  );

  // 3. The CloudWatch agent ships the log files to the stack's log group.
  builder.installCloudWatchAgent(context.logGroupName, spec.ec2LogPaths());

  // 4. The data volume, owned by the container user's ids.
  builder.mountDataVolume(context, spec.ebsDeviceName(), home, uid, gid);

  // 5. Configuration and log directories, the controller's files, the plugins, the unit drop-in; enable and start.
  const configPaths = `${q(configDir)}/*`;
  const homeFiles = Object.keys(files.home).map((file) => `${home}/${file}`);
  const dropIn = [
    '[Service]',
    // Jenkins runs as the application's account, which holds the ids that own its data on EFS, EBS and in the
    // container alike, and writes only to its home, its cache (the unpacked war) and its logs.
    ...ServiceHardening.systemdLines(context.serviceUser, [home, EC2_CACHE, EC2_LOG_DIR]),
    ...Object.entries(params.environment).map(([name, value]) => `Environment="${name}=${value}"`),
    `EnvironmentFile=-${Ec2Files.APPLICATION_ENVIRONMENT_FILE}`,
    'Restart=on-failure',
    `RestartSec=${SERVICE_RESTART_SECONDS}`,
    // The RPM's unit is Type=notify with systemd's default 90 s start timeout; a first start unpacks every plugin and
    // runs the configuration and the seed script on a small instance, often over EFS.
    `TimeoutStartSec=${SERVICE_START_TIMEOUT_SECONDS}`,
    `TimeoutStopSec=${SERVICE_STOP_TIMEOUT_SECONDS}`,
    `LimitNOFILE=${SERVICE_OPEN_FILES}`,
  ].join('\n');
  builder.addCommands(
    `install -d -m 0750 -o 0 -g ${gid} ${q(configDir)}`,
    `install -d -m 0750 -o ${uid} -g ${gid} ${EC2_LOG_DIR} ${EC2_CACHE} ${q(`${home}/plugins`)}`,
    // The home's files exist first with their owner and mode; writeFiles keeps both.
    ...homeDirectories(files).map((dir) => `install -d -m 0750 -o ${uid} -g ${gid} ${q(`${home}/${dir}`)}`),
    ...homeFiles.map((file) => `install -m 0640 -o ${uid} -g ${gid} /dev/null ${q(file)}`),
    'install -d -m 0755 /etc/systemd/system/jenkins.service.d /etc/systemd/system/logrotate.timer.d',
  );
  builder.writeFiles({
    ...Object.fromEntries(Object.entries(files.config).map(([name, content]) => [`${configDir}/${name}`, content])),
    ...Object.fromEntries(Object.entries(files.home).map(([file, content]) => [`${home}/${file}`, content])),
    [DROP_IN]: `${dropIn}\n`,
    [LOGROTATE]: logrotateConfig(context.serviceUser),
    [LOGROTATE_TIMER_DROP_IN]: LOGROTATE_TIMER,
  });
  builder.addCommands(
    `chown 0:${gid} ${configPaths}`,
    `chmod 0640 ${configPaths}`,
    ...refuseExpandedSecretsInFile(Ec2Files.APPLICATION_ENVIRONMENT_FILE, params.cascSecrets),
    ...pinnedPluginCommands(`java -jar ${q(PLUGIN_MANAGER)} --war /usr/share/java/jenkins.war`, q(`${home}/plugins`), q(`${configDir}/${FILES.plugins}`)),
    `chown -R ${uid}:${gid} ${q(`${home}/plugins`)}`,
    `chmod 0644 ${q(DROP_IN)} ${q(LOGROTATE_TIMER_DROP_IN)}`,
    'systemctl daemon-reload',
    'systemctl enable --now logrotate.timer',
    'systemctl enable --now jenkins',
    // 6. Not active after the startup wait: the last 50 journal lines go to the user-data log.
    `fw_require_active jenkins ${STARTUP_WAIT_SECONDS}`,
  );
}
