import { AUDIT_LOG_COUNT_FULL, SESSION_TIMEOUT_MINUTES } from './hardening';
import { MIN_LOG_RETENTION_DAYS } from '../compliance/pci-dss-401/rules/log-group-retention-one-year';
import type { ComplianceControl } from '../contract/compliance-control';

/** The groups the controls name. */
export interface ControlGroups {
  readonly admin: string;
  readonly auditor: string;
}

/**
 * The build server's own PCI DSS controls, for the evidence report: what its configuration-as-code, its jobs and its
 * files set, which no template shows. Each names where it is configured, so an assessor can compare it with the
 * running server.
 */
export function jenkinsComplianceControls(groups: ControlGroups): ComplianceControl[] {
  const casc = 'jenkins.yaml (configuration as code, rendered by jenkins-configuration.ts)';
  return [
    {
      requirements: ['8.2.1', '8.3.1', '8.4.2'],
      statement: 'Users sign in only through the OIDC identity provider (oic-auth), with no local user database and no ' +
        'escape hatch; multi-factor authentication is the identity provider\'s, which must require it for this client.',
      configuredIn: `${casc}: jenkins.securityRealm.oic`,
    },
    {
      requirements: ['7.2.1', '7.2.2', '7.2.3'],
      statement: `Matrix authorisation by identity-provider group: ${groups.admin} administers, the other groups get ` +
        'only what their role needs; anonymous users get nothing.',
      configuredIn: `${casc}: jenkins.authorizationStrategy.globalMatrix`,
    },
    {
      requirements: ['7.2.4'],
      statement: 'A quarterly access review lists every user and flags those who have not signed in within the job\'s inactivity limit.',
      configuredIn: 'job compliance/compliance-access-review (jenkins/jobs/compliance-jobs.groovy)',
    },
    {
      requirements: ['10.2.1', '10.2.1.2', '10.2.1.5', '10.2.2'],
      statement: 'The audit trail records every configuration change, sign-in and build with its cause and user.',
      configuredIn: `${casc}: unclassified.audit-trail`,
    },
    {
      requirements: ['10.4.1'],
      statement: `A daily log review lists the last day's failed sign-ins and administrative changes; only ${groups.auditor} reads it.`,
      configuredIn: 'job compliance/compliance-log-review, folder compliance (jenkins/jobs/compliance-jobs.groovy)',
    },
    {
      requirements: ['10.5.1'],
      statement: `In PRODUCTION the audit trail keeps ${AUDIT_LOG_COUNT_FULL} rotated files on the data volume, and every ` +
        `log group the stack creates keeps at least ${MIN_LOG_RETENTION_DAYS} days (LogGroupRetentionOneYear in this report).`,
      configuredIn: `${casc}: unclassified.audit-trail.loggers`,
    },
    {
      requirements: ['3.3.1', '3.4.1'],
      statement: 'Card numbers (PAN patterns) and secrets are masked in build logs by mask-passwords.',
      configuredIn: 'com.michelin.cio.hudson.plugins.maskpasswords.MaskPasswordsConfig.xml, from jenkins/card-data-patterns.json',
    },
    {
      requirements: ['6.2.4', '6.3.3'],
      statement: 'Job DSL and pipeline scripts run under script-security (only reviewed scripts outside the sandbox, by ' +
        'hash); a weekly job lists security warnings and updates, and each active warning raises an alarm to the alarm topic.',
      configuredIn: `${casc}: security.globalJobDslSecurityConfiguration, security.scriptApproval; job compliance/compliance-update-check`,
    },
    {
      requirements: ['8.2.8'],
      statement: `A session idle for ${SESSION_TIMEOUT_MINUTES} minutes ends; "remember me" is off.`,
      configuredIn: 'JENKINS_OPTS --sessionTimeout and --sessionEviction; jenkins.disableRememberMe',
    },
  ];
}
