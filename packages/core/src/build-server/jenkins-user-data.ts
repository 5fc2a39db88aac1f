import type { IApplicationSpec } from '../contract/application-spec';
import { Ec2Contexts, type Ec2Context } from '../contract/ec2-context';
import { Ec2Files } from '../contract/oidc-integration';
import { PosixUser } from '../contract/posix-user';
import type { IUserDataBuilder } from '../contract/user-data-builder';
import { Shell } from '../userdata/shell';
import {
  SERVICE_OPEN_FILES, SERVICE_RESTART_SECONDS, SERVICE_STOP_TIMEOUT_SECONDS, STARTUP_WAIT_SECONDS,
} from './hardening';
import { MASK_PASSWORDS_FILE } from './card-data-masking';
import {
  EC2_JAVA_PACKAGE, JENKINS_LTS, JENKINS_RPM_KEY, JENKINS_RPM_REPO, PLUGIN_MANAGER_URL,
} from './versions';

export const EC2_JENKINS_LOG = '/var/log/jenkins/jenkins.log';
export const EC2_AUDIT_LOG_PATTERN = '/var/log/jenkins/audit-%g.log';
const CASC_DIR = '/etc/jenkins/casc';
export const EC2_LOGGING_PROPERTIES = `${CASC_DIR}/logging.properties`;
const DROP_IN = '/etc/systemd/system/jenkins.service.d/override.conf';
const PLUGIN_MANAGER = '/usr/local/lib/jenkins-plugin-manager.jar';

export interface JenkinsUserDataParams {
  readonly spec: IApplicationSpec;
  readonly publicUrl: string;
  readonly javaOpts: string;
  readonly jenkinsOpts: string;
  readonly configurationYaml: string;
  readonly pluginsTxt: string;
  readonly loggingProperties: string;
  readonly maskPasswordsConfig: string;
}

/** The EC2 installation of the build server, in the spec's rule-5 order. */
export function configureJenkinsUserData(builder: IUserDataBuilder, context: Ec2Context, params: JenkinsUserDataParams): void {
  const { spec } = params;
  const home = spec.ec2DataPath();
  const { uid, gid } = PosixUser.parse(spec.containerUser());
  const q = Shell.quote;

  // 1. System update.
  builder.addSystemUpdate();

  // 2. Java, the vendor repository, Jenkins (pinned), and the tool that installs the pinned plugins.
  builder.addCommands(
    `fw_pkg install -y ${q(EC2_JAVA_PACKAGE)}`,
    `curl -fsSL --retry 5 -o /etc/yum.repos.d/jenkins.repo ${q(JENKINS_RPM_REPO)}`,
    `rpm --import ${q(JENKINS_RPM_KEY)}`,
    `fw_pkg install -y ${q(`jenkins-${JENKINS_LTS}`)}`,
    `curl -fsSL --retry 5 -o ${q(PLUGIN_MANAGER)} ${q(PLUGIN_MANAGER_URL)}`,
  );

  // 3. The CloudWatch agent ships the log files to the stack's log group.
  builder.installCloudWatchAgent(`/aws/${context.stackName}/${context.runtimeType}/${context.securityProfile}`, spec.ec2LogPaths());

  // 4. The data volume, owned by the container user's ids.
  if (context.hasEfs) {
    const { efsId, accessPointId } = Ec2Contexts.requireEfsIds(context);
    builder.mountEfs(efsId, accessPointId, home, uid, gid);
  } else {
    builder.mountEbs(spec.ebsDeviceName(), home, uid, gid);
  }

  // 5. Configuration and log directories, the configuration, the plugins, the unit drop-in; enable and start.
  const cascFiles = [`${CASC_DIR}/jenkins.yaml`, `${CASC_DIR}/plugins.txt`, EC2_LOGGING_PROPERTIES].map(q).join(' ');
  const dropIn = [
    '[Service]',
    // Jenkins runs with the ids that own its data, on EFS, EBS and in the container alike.
    `User=${uid}`,
    `Group=${gid}`,
    `Environment="JENKINS_HOME=${home}"`,
    `Environment="JENKINS_LOG=${EC2_JENKINS_LOG}"`,
    `Environment="JENKINS_URL=${params.publicUrl}"`,
    `Environment="CASC_JENKINS_CONFIG=${CASC_DIR}/jenkins.yaml"`,
    `Environment="JAVA_OPTS=${params.javaOpts}"`,
    `Environment="JENKINS_OPTS=${params.jenkinsOpts}"`,
    `EnvironmentFile=-${Ec2Files.APPLICATION_ENVIRONMENT_FILE}`,
    'Restart=on-failure',
    `RestartSec=${SERVICE_RESTART_SECONDS}`,
    `TimeoutStopSec=${SERVICE_STOP_TIMEOUT_SECONDS}`,
    `LimitNOFILE=${SERVICE_OPEN_FILES}`,
  ].join('\n');
  builder.addCommands(
    `install -d -m 0750 -o 0 -g ${gid} ${q(CASC_DIR)}`,
    `install -d -m 0750 -o ${uid} -g ${gid} /var/log/jenkins /var/cache/jenkins ${q(`${home}/plugins`)}`,
    '# shellcheck disable=SC2016 # the ${...} in the configuration are for configuration-as-code, not the shell',
    `printf '%s' ${q(params.configurationYaml)} > ${q(`${CASC_DIR}/jenkins.yaml`)}`,
    `printf '%s' ${q(params.pluginsTxt)} > ${q(`${CASC_DIR}/plugins.txt`)}`,
    `printf '%s' ${q(params.loggingProperties)} > ${q(EC2_LOGGING_PROPERTIES)}`,
    `chown 0:${gid} ${cascFiles}`,
    `chmod 0640 ${cascFiles}`,
    `java -jar ${q(PLUGIN_MANAGER)} --war /usr/share/java/jenkins.war --plugin-download-directory ${q(`${home}/plugins`)} ` +
      `--plugin-file ${q(`${CASC_DIR}/plugins.txt`)}`,
    `chown -R ${uid}:${gid} ${q(`${home}/plugins`)}`,
    `install -m 0640 -o ${uid} -g ${gid} /dev/null ${q(`${home}/${MASK_PASSWORDS_FILE}`)}`,
    `printf '%s' ${q(params.maskPasswordsConfig)} > ${q(`${home}/${MASK_PASSWORDS_FILE}`)}`,
    'install -d -m 0755 /etc/systemd/system/jenkins.service.d',
    `printf '%s\\n' ${q(dropIn)} > ${q(DROP_IN)}`,
    `chmod 0644 ${q(DROP_IN)}`,
    'systemctl daemon-reload',
    'systemctl enable --now jenkins',
    // 6. Not active after the startup wait: the last 50 journal lines go to the user-data log.
    `fw_require_active jenkins ${STARTUP_WAIT_SECONDS}`,
  );
}
