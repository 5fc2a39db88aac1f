import { ApplicationSpec } from '../contract/application-spec';
import { ContainerFiles, type ContainerInitialization } from '../contract/container-initialization';
import type { Ec2Context } from '../contract/ec2-context';
import type { LogAlarm } from '../contract/log-alarm';
import type { IOidcIntegration } from '../contract/oidc-integration';
import type { IUserDataBuilder } from '../contract/user-data-builder';
import { SecurityProfile } from '../contract/security-profile';
import {
  AUDIT_LOG_COUNT_BASIC, AUDIT_LOG_COUNT_FULL, AUDIT_LOG_LIMIT_BASIC, AUDIT_LOG_LIMIT_FULL, SESSION_TIMEOUT_MINUTES,
} from './hardening';
import { MASK_PASSWORDS_FILE, maskPasswordsConfig } from './card-data-masking';
import { approvedScriptHash, complianceJobsScript, pipelineScripts } from './compliance-jobs';
import {
  ENV, jenkinsConfiguration, JenkinsConfigurationOptions, PipelineLibrarySource, renderConfiguration,
} from './jenkins-configuration';
import { FAILED_LOGIN_ALARM, loggingProperties } from './jenkins-monitoring';
import { JenkinsOidcIntegration } from './jenkins-oidc';
import { configureJenkinsUserData, EC2_AUDIT_LOG_PATTERN, EC2_JENKINS_LOG, EC2_LOGGING_PROPERTIES } from './jenkins-user-data';
import { JENKINS_IMAGE, pluginsTxt } from './versions';

/** Options of the build server; every one has a default, so the registry can build it without arguments. */
export interface JenkinsSpecProps {
  /** Identity-provider group with Overall/Administer. @default 'jenkins-admins' */
  readonly adminGroup?: string;
  /** Group with Job/Build, Job/Configure and Job/Read. @default 'jenkins-developers' */
  readonly developerGroup?: string;
  /** Group with Job/Build, Job/Configure and Job/Read. @default 'jenkins-devops' */
  readonly devopsGroup?: string;
  /** Group with Job/Build, Job/Configure and Job/Read. @default 'jenkins-viewers' */
  readonly viewerGroup?: string;
  /** Remote syslog server (UDP 514) that also receives the audit trail. @default - none */
  readonly syslogHost?: string;
  /**
   * The git repository holding the pipeline library (`jenkins/pipeline-library` of @fw/core), loaded as the global
   * library `fw-pci`. Jenkins' git plugin refuses repositories on the controller's own disk, so the library is pushed
   * to your git server.
   * @default - no global library
   */
  readonly pipelineLibrary?: PipelineLibrarySource;
}

const PORT = 8080;
const CONTAINER_HOME = '/var/jenkins_home';
const CONTAINER_AUDIT_LOG_PATTERN = `${CONTAINER_HOME}/logs/audit-%g.log`;

/**
 * The built-in plugin: a Jenkins build server hardened for a card-data environment, on both runtimes.
 */
export class JenkinsSpec extends ApplicationSpec {
  private readonly props: JenkinsSpecProps;

  constructor(props: JenkinsSpecProps = {}) {
    super();
    this.props = props;
  }

  public applicationId() { return 'jenkins'; }
  public defaultContainerImage() { return JENKINS_IMAGE; }
  public applicationPort() { return PORT; }
  public containerDataPath() { return CONTAINER_HOME; }
  public efsDataPath() { return '/jenkins'; }
  public volumeName() { return 'jenkins-home'; }
  public containerUser() { return '1000:1000'; }
  public efsPermissions() { return '750'; }
  public ebsDeviceName() { return '/dev/xvdf'; }
  public ec2DataPath() { return '/var/lib/jenkins'; }
  /** Jenkins logs to journald on Amazon Linux 2023 unless JENKINS_LOG is set; the service unit sets it. */
  public ec2LogPaths() { return [EC2_JENKINS_LOG, EC2_AUDIT_LOG_PATTERN.replace('%g', '*')]; }
  /** Answers 200 without authentication. */
  public healthCheckPath() { return '/login'; }

  public containerEnvironmentVariables(fqdn: string, sslEnabled: boolean, _authMode: string): Record<string, string> {
    return {
      [ENV.publicUrl]: publicUrl(fqdn, sslEnabled),
      JAVA_OPTS: javaOpts(`${ContainerFiles.DIRECTORY}/logging.properties`),
      // TLS ends at the load balancer (rule 3): Jenkins listens on HTTP only.
      JENKINS_OPTS: jenkinsOpts(),
      CASC_JENKINS_CONFIG: `${ContainerFiles.DIRECTORY}/jenkins.yaml`,
    };
  }

  public containerInitialization(_fqdn: string, _sslEnabled: boolean, _authMode: string, securityProfile: string): ContainerInitialization {
    return {
      files: {
        'jenkins.yaml': this.configurationYaml(CONTAINER_AUDIT_LOG_PATTERN, securityProfile, true),
        'plugins.txt': pluginsTxt(),
        'logging.properties': loggingProperties(),
        'mask-passwords.xml': maskPasswordsConfig(),
      },
      commands: [
        `mkdir -p ${CONTAINER_HOME}/logs ${CONTAINER_HOME}/plugins`,
        `cp ${ContainerFiles.DIRECTORY}/mask-passwords.xml ${CONTAINER_HOME}/${MASK_PASSWORDS_FILE}`,
        `jenkins-plugin-cli --plugin-file ${ContainerFiles.DIRECTORY}/plugins.txt --plugin-download-directory ${CONTAINER_HOME}/plugins`,
      ],
    };
  }

  public configureUserData(builder: IUserDataBuilder, context: Ec2Context): void {
    configureJenkinsUserData(builder, context, {
      spec: this,
      publicUrl: publicUrl(context.fqdn ?? '', context.sslEnabled),
      javaOpts: javaOpts(EC2_LOGGING_PROPERTIES),
      jenkinsOpts: jenkinsOpts(),
      configurationYaml: this.configurationYaml(EC2_AUDIT_LOG_PATTERN, context.securityProfile, false),
      pluginsTxt: pluginsTxt(),
      loggingProperties: loggingProperties(),
      maskPasswordsConfig: maskPasswordsConfig(),
    });
  }

  /** More than 10 failed logins in a day. */
  public logAlarms(): LogAlarm[] {
    return [FAILED_LOGIN_ALARM];
  }

  public supportsOidcIntegration(): boolean {
    return true;
  }

  public oidcIntegration(): IOidcIntegration {
    return new JenkinsOidcIntegration();
  }

  /**
   * The configuration-as-code YAML, the same model on both runtimes (only the audit log's location differs). PRODUCTION
   * keeps the full template's audit log (10000 and 52: a year of weekly rotation), other profiles the basic one.
   *
   * @param auditToConsole also write the audit trail to standard output, for a runtime that ships only that
   */
  private configurationYaml(auditLogPattern: string, securityProfile: string, auditToConsole: boolean): string {
    const full = securityProfile === SecurityProfile.PRODUCTION;
    const seed = complianceJobsScript();
    const options: JenkinsConfigurationOptions = {
      groups: {
        admin: this.props.adminGroup ?? 'jenkins-admins',
        developer: this.props.developerGroup ?? 'jenkins-developers',
        devops: this.props.devopsGroup ?? 'jenkins-devops',
        viewer: this.props.viewerGroup ?? 'jenkins-viewers',
      },
      auditLogPattern,
      auditLogLimit: full ? AUDIT_LOG_LIMIT_FULL : AUDIT_LOG_LIMIT_BASIC,
      auditLogCount: full ? AUDIT_LOG_COUNT_FULL : AUDIT_LOG_COUNT_BASIC,
      auditToConsole,
      syslogHost: this.props.syslogHost,
      seedJobScript: seed,
      approvedScriptHashes: pipelineScripts(seed).map(approvedScriptHash),
      pipelineLibrary: this.props.pipelineLibrary,
    };
    return renderConfiguration(jenkinsConfiguration(options));
  }
}

/** Rule 1: the scheme from sslEnabled and the fqdn; without one, a local address with the port. */
function publicUrl(fqdn: string, sslEnabled: boolean): string {
  return fqdn.trim() ? `${sslEnabled ? 'https' : 'http'}://${fqdn.trim()}` : `http://localhost:${PORT}`;
}

/** The setup wizard is replaced by configuration as code; the logging configuration reports failed logins. */
function javaOpts(loggingPropertiesPath: string): string {
  return `-Djava.awt.headless=true -Djenkins.install.runSetupWizard=false -Djava.util.logging.config.file=${loggingPropertiesPath}`;
}

function jenkinsOpts(): string {
  return `--httpsPort=-1 --sessionTimeout=${SESSION_TIMEOUT_MINUTES} --sessionEviction=${SESSION_TIMEOUT_MINUTES * 60}`;
}
