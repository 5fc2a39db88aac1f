import * as path from 'path';
import { MASK_PASSWORDS_FILE, maskPasswordsConfig } from './card-data-masking';
import { approvedScriptHash, complianceJobsScript, pipelineScripts } from './compliance-jobs';
import { CONTROLLER_HEALTH_SCRIPT, controllerHealthScript } from './controller-health';
import {
  AUDIT_LOG_COUNT_BASIC, AUDIT_LOG_COUNT_FULL, AUDIT_LOG_LIMIT_BASIC, AUDIT_LOG_LIMIT_FULL, CONTROLLER_HEAP_PERCENT, SESSION_TIMEOUT_MINUTES,
} from './hardening';
import { AGENT_PORT, agentCloud, type AgentSettings } from './jenkins-agents';
import { ENV, jenkinsConfiguration, JenkinsGroups, PipelineLibrarySource, renderConfiguration } from './jenkins-configuration';
import { loggingProperties } from './jenkins-monitoring';
import { pluginsTxt } from './versions';
import { SecurityProfile } from '../contract/security-profile';
import { PROFILE_SETTINGS } from '../profiles/profile-settings';

/** The controller's HTTP port, on both runtimes. */
export const JENKINS_PORT = 8080;

/** The file names of `ControllerFiles`, in the configuration directory. */
export const FILES = {
  configuration: 'jenkins.yaml',
  plugins: 'plugins.txt',
  logging: 'logging.properties',
  seed: 'compliance-jobs.groovy',
} as const;

/** Where a runtime puts the controller's files; the only things that differ between the runtimes. */
export interface ControllerLayout {
  /** Directory of the configuration, plugin list, logging configuration and seed script (read-only to Jenkins). */
  readonly configDir: string;
  /** JENKINS_HOME. */
  readonly home: string;
  /** Where audit-trail writes its log (`%g` is the rotation generation). */
  readonly auditLogPattern: string;
  /** Also write the audit trail to standard output, for a runtime that ships only that (Fargate). */
  readonly auditToConsole: boolean;
  /**
   * Where the controller's own log goes (`JENKINS_LOG`): the RPM's jenkins.sh makes it `--logfile` (EC2); the official
   * image's reads no such variable (jenkinsci/docker@2.568.2 jenkins.sh), and the log is its standard output.
   */
  readonly logFile: string;
}

/** What the deployment chooses: the build server's options, and the profile. */
export interface ControllerOptions {
  readonly groups: JenkinsGroups;
  /** The ID token claim that names a user. */
  readonly userIdClaim: string;
  readonly syslogHost?: string;
  /** The administrator's e-mail address; Jenkins' placeholder when undefined. */
  readonly adminEmail?: string;
  readonly pipelineLibrary?: PipelineLibrarySource;
  /** The SonarQube server's address; none when undefined. */
  readonly sonarQubeUrl?: string;
  /** The build agents. */
  readonly agents: AgentSettings;
  /** The profile's `fullAuditTrail` keeps the full template's audit log (`AUDIT_LOG_LIMIT_FULL`, `AUDIT_LOG_COUNT_FULL`), else the basic one. */
  readonly securityProfile: string;
}

/** Every file the controller needs, for one runtime. */
export interface ControllerFiles {
  /** File name (see `FILES`) -> content, written to `layout.configDir`. */
  readonly config: Record<string, string>;
  /**
   * Files Jenkins reads from its home, by path relative to `JENKINS_HOME`: mask-passwords' configuration (the plugin
   * reads it there) and the controller-health init script (core runs `init.groovy.d/*.groovy` at start).
   */
  readonly home: Record<string, string>;
}

/** The files of a hardened controller: the same on both runtimes except for the paths of `layout`. */
export function controllerFiles(layout: ControllerLayout, options: ControllerOptions): ControllerFiles {
  const full = PROFILE_SETTINGS[options.securityProfile as SecurityProfile].fullAuditTrail;
  const seed = complianceJobsScript();
  const configuration = jenkinsConfiguration({
    groups: options.groups,
    userIdClaim: options.userIdClaim,
    auditLogPattern: layout.auditLogPattern,
    auditLogLimit: full ? AUDIT_LOG_LIMIT_FULL : AUDIT_LOG_LIMIT_BASIC,
    auditLogCount: full ? AUDIT_LOG_COUNT_FULL : AUDIT_LOG_COUNT_BASIC,
    auditToConsole: layout.auditToConsole,
    syslogHost: options.syslogHost,
    adminEmail: options.adminEmail,
    // Delivered as a file: job-dsl reads it as it is, where an inline `script` would go through configuration-as-code's
    // variable expansion and lose the Groovy `${...}` of the pipelines (job-dsl SeedJobConfigurator).
    seedJobFile: `${layout.configDir}/${FILES.seed}`,
    approvedScriptHashes: pipelineScripts(seed).map(approvedScriptHash),
    pipelineLibrary: options.pipelineLibrary,
    sonarQubeUrl: options.sonarQubeUrl,
    agentPort: AGENT_PORT,
    agentCloud: agentCloud(options.agents, JENKINS_PORT),
  });
  return {
    config: {
      [FILES.configuration]: renderConfiguration(configuration),
      [FILES.plugins]: pluginsTxt(),
      [FILES.logging]: loggingProperties(),
      [FILES.seed]: seed,
    },
    home: { [MASK_PASSWORDS_FILE]: maskPasswordsConfig(), [CONTROLLER_HEALTH_SCRIPT]: controllerHealthScript() },
  };
}

/** The directories below `JENKINS_HOME` that the home's files need (`init.groovy.d`), each once. */
export function homeDirectories(files: ControllerFiles): string[] {
  return [...new Set(Object.keys(files.home).map((file) => path.posix.dirname(file)).filter((dir) => dir !== '.'))];
}

/**
 * The controller's environment, apart from the OIDC integration's entries and secrets: the same variables on both
 * runtimes (container environment on Fargate, the service unit's on EC2).
 */
export function controllerEnvironment(layout: ControllerLayout, fqdn: string, sslEnabled: boolean): Record<string, string> {
  return {
    [ENV.publicUrl]: publicUrl(fqdn, sslEnabled),
    // The setup wizard is replaced by configuration as code; the logging configuration reports failed logins.
    JAVA_OPTS: `-Djava.awt.headless=true -XX:MaxRAMPercentage=${CONTROLLER_HEAP_PERCENT} -Djenkins.install.runSetupWizard=false ` +
      // No CLI over WebSocket (jenkins-2.568.2 CLIAction.java 82, 145-176): it carries update-job/update-view XML
      // (SECURITY-3972) and build -s (SECURITY-4015). The plain HTTP CLI (POST /cli) cannot be turned off in core; the
      // WAF blocks /cli from outside.
      '-Dhudson.cli.CLIAction.ALLOW_WEBSOCKET=false ' +
      `-Djava.util.logging.config.file=${layout.configDir}/${FILES.logging}`,
    // TLS ends at the load balancer: Jenkins listens on HTTP only.
    JENKINS_OPTS: `--httpsPort=-1 --sessionTimeout=${SESSION_TIMEOUT_MINUTES} --sessionEviction=${SESSION_TIMEOUT_MINUTES * 60}`,
    CASC_JENKINS_CONFIG: `${layout.configDir}/${FILES.configuration}`,
    // Set here, on both runtimes, so that nothing else sets them (a secret of the same name is refused).
    JENKINS_HOME: layout.home,
    JENKINS_LOG: layout.logFile,
  };
}

/** The scheme from sslEnabled and the fqdn; without one, a local address with the port. */
export function publicUrl(fqdn: string, sslEnabled: boolean): string {
  return fqdn.trim() ? `${sslEnabled ? 'https' : 'http'}://${fqdn.trim()}` : `http://localhost:${JENKINS_PORT}`;
}
