import { AUDIT_LOG_COUNT_FULL, SESSION_TIMEOUT_MINUTES } from './hardening';
import { API_TOKENS_FOLLOW_PROVIDER_SESSION } from './jenkins-configuration';
import { MIN_LOG_RETENTION_DAYS } from '../compliance/pci-dss-401/retention';
import { type ComplianceControl, ControlGrade } from '../contract/compliance-control';

/** The groups the controls name. */
export interface ControlGroups {
  /** The identity provider's group that administers the server. */
  readonly admin: string;
  /** The group that reads the compliance folder's reports. */
  readonly auditor: string;
}

/**
 * The build server's own PCI DSS controls, for the evidence report: what its configuration-as-code, its jobs and its
 * files set, which no template shows. Each names where it is configured, so an assessor can compare it with the
 * running server, and how far it goes: a statement follows the setting it names (the tokens' one is read here), and
 * a requirement only people or a process can meet (approving privileges, reviewing logs) is graded `supporting` or
 * left out.
 */
export function jenkinsComplianceControls(groups: ControlGroups): ComplianceControl[] {
  const casc = 'jenkins.yaml (configuration as code, rendered by jenkins-configuration.ts)';
  const tokens = API_TOKENS_FOLLOW_PROVIDER_SESSION
    ? 'API tokens are honoured only while their user\'s sign-in at the provider is (refreshed there, groups re-read), so they cannot outlive it'
    : 'API tokens are honoured without a sign-in at the provider, so they skip its multi-factor authentication';
  return [
    {
      requirements: ['8.2.1', '8.3.1'],
      statement: 'Users sign in only through the OIDC identity provider (oic-auth), each under their own identity, with no ' +
        'local user database and no escape hatch; the provider authenticates them.',
      configuredIn: `${casc}: jenkins.securityRealm.oic`,
      grade: ControlGrade.PARTIAL,
    },
    {
      requirements: ['8.4.2'],
      statement: 'Multi-factor authentication is the identity provider\'s, which must require it for this client (yours to ' +
        `configure and show); ${tokens}.`,
      configuredIn: `${casc}: jenkins.securityRealm.oic.allowTokenAccessWithoutOicSession`,
      grade: ControlGrade.SUPPORTING,
    },
    {
      requirements: ['7.2.1', '7.2.2', '7.3.1', '7.3.3'],
      statement: `Matrix authorisation by identity-provider group: ${groups.admin} administers, the other groups get ` +
        'only what their role needs, anonymous users get nothing. Approving who is in each group (7.2.3) is yours.',
      configuredIn: `${casc}: jenkins.authorizationStrategy.projectMatrix`,
      grade: ControlGrade.PARTIAL,
    },
    {
      requirements: ['7.2.4'],
      statement: 'A quarterly job lists every user and flags those who have not signed in within the job\'s inactivity ' +
        'limit; the review itself, and acting on it, is yours.',
      configuredIn: 'job compliance/compliance-access-review (jenkins/jobs/compliance-jobs.groovy)',
    },
    ...auditTrailControls(casc),
    {
      requirements: ['10.4.1', '10.4.1.1'],
      statement: `A daily job lists the last day's failed sign-ins and administrative changes for ${groups.auditor}, who ` +
        'alone reads it; the daily review is theirs.',
      configuredIn: 'job compliance/compliance-log-review, folder compliance (jenkins/jobs/compliance-jobs.groovy)',
    },
    {
      requirements: ['10.5.1'],
      statement: `In PRODUCTION the audit trail keeps ${AUDIT_LOG_COUNT_FULL} rotated files on the data volume, and every ` +
        `log group the stack creates keeps at least ${MIN_LOG_RETENTION_DAYS} days (LogGroupRetentionOneYear in this report).`,
      configuredIn: `${casc}: unclassified.audit-trail.loggers`,
      grade: ControlGrade.PARTIAL,
    },
    {
      requirements: ['3.4.1'],
      statement: 'Card numbers (PAN patterns) and secrets are masked in build logs by mask-passwords; other places the ' +
        'server shows text (job descriptions, artifacts) are not masked.',
      configuredIn: 'com.michelin.cio.hudson.plugins.maskpasswords.MaskPasswordsConfig.xml, from jenkins/card-data-patterns.json',
      grade: ControlGrade.PARTIAL,
    },
    {
      requirements: ['6.3.3'],
      statement: 'A weekly job lists security warnings and updates, and each active warning raises an alarm to the alarm ' +
        'topic; installing the fixes within a month is yours (docs/build-server.md, "Upgrading the pins").',
      configuredIn: 'job compliance/compliance-update-check; alarm JenkinsSecurityWarnings',
    },
    {
      requirements: ['8.2.8'],
      statement: `A web session idle for ${SESSION_TIMEOUT_MINUTES} minutes ends and "remember me" is off; sessions on ` +
        'the instance itself (EC2: Session Manager) are AWS\'s settings, not this one.',
      configuredIn: 'JENKINS_OPTS --sessionTimeout and --sessionEviction; jenkins.disableRememberMe',
      grade: ControlGrade.PARTIAL,
    },
  ];
}

/**
 * The audit trail, as far as what it records goes (`JENKINS_AUDIT_PATTERN`, `logScriptUsage`, `logBuildCause`):
 * `partial` toward 10.2.1; `supporting` toward the administrative actions and the record's fields, which it holds
 * without a result, and toward account changes, which happen at the identity provider.
 */
function auditTrailControls(casc: string): ComplianceControl[] {
  return [
    {
      requirements: ['10.2.1'],
      statement: 'The audit trail records, with the user and the source address: every build with its cause; requests to ' +
        'a configuration (configSubmit, any config.xml), the script consoles and scriptText, the plugin manager and update ' +
        'center, the credential store, item creation, deletion and restarts (JENKINS_AUDIT_KEYWORDS); script use ' +
        '(logScriptUsage); and the sign-in callback, whose user is recorded by the identity provider.',
      configuredIn: `${casc}: unclassified.audit-trail.pattern, unclassified.audit-trail.logScriptUsage, unclassified.audit-trail.logBuildCause`,
      grade: ControlGrade.PARTIAL,
    },
    {
      requirements: ['10.2.1.2', '10.2.1.5', '10.2.2'],
      statement: 'The same records support what 10.2.1.2 and 10.2.2 ask of administrative actions, but carry no success ' +
        'or failure field, and accounts, groups and privileges (10.2.1.5) change at the identity provider, whose log is yours.',
      configuredIn: `${casc}: unclassified.audit-trail.pattern`,
      grade: ControlGrade.SUPPORTING,
    },
  ];
}
