import { FAILED_LOGIN_ALERT_THRESHOLD, FAILED_LOGIN_WINDOW_SECONDS } from './hardening';
import type { LogAlarm } from '../contract/log-alarm';

/*
 * What Jenkins 2.568.2 and its OIDC realm (oic-auth 4.715.vf202e4229f61, pac4j 6.4.3) write when a sign-in fails, for
 * the sign-in paths this build server has (OIDC only, no escape hatch, API tokens over HTTP Basic):
 *
 * - The identity provider sends the browser back with an error (access_denied, ...): pac4j logs "Bad authentication
 *   response, error=..." (pac4j-oidc OidcCredentialsExtractor.java:122-125, SLF4J error, which jenkins.war's
 *   slf4j-jdk14 turns into SEVERE, JDK14LoggerAdapter.java:255-256), then oic-auth answers with an error page
 *   (OicSecurityRealm.java:1147-1148, hudson.model.Failure, rendered without a log line).
 * - The callback fails inside Jenkins (state missing or different, issuer mismatch, code exchange or ID token
 *   validation failed: pac4j OidcException and subclasses): the exception leaves doFinishLogin, Stapler wraps it in a
 *   ServletException (stapler 2088.v915606dc8e86 Stapler.java:851) and core logs it at WARNING, "Caught unhandled
 *   exception with ID ..." with that ServletException, whose first trace line reads "jakarta.servlet.ServletException:
 *   org.pac4j..." (InstallUncaughtExceptionHandler.java:54).
 * - A Basic header whose API token does not match: the API-token authenticator runs first (extensions of equal
 *   ordinal sort by class name, ExtensionComponent.java:90-129) and logs nothing; the password authenticator then asks
 *   the OIDC realm, which accepts no password (OicSecurityRealm.java:754-765), and logs at FINER "Authentication
 *   request for user: {0} failed: {1}" (BasicHeaderRealPasswordAuthenticator.java:64-67).
 * - A POST to the login form URL (securityRealm/escapeHatch, OicSecurityRealm.java:726-729): "Login attempt failed"
 *   at FINE (AuthenticationProcessingFilter2.java:127-130).
 *
 * SecurityListener's "failed to log in" / "failed to authenticate" (SecurityListener.java:139-160) never appear here:
 * core's only callers are a password-based realm (AbstractPasswordBasedSecurityRealm.java:112) and a call that is
 * commented out (AuthenticationProcessingFilter2.java:131-136); the OIDC realm fires only successes
 * (OicSecurityRealm.java:889-890).
 */

/**
 * The loggers whose records the daily log review reads ("failed-sign-ins"), as a configuration-as-code log recorder
 * (`jenkins.log.recorders`, core LogRecorderManager.java:109-123, LogRecorder.java:108-121 and 256-259). A recorder
 * only collects: configuration-as-code does not raise the loggers' levels (Target.enable runs on load and save only,
 * LogRecorder.java:454-468), so `loggingProperties()` sets every level below INFO that a target needs.
 */
export const FAILED_SIGN_IN_RECORDER = {
  name: 'failed-sign-ins',
  loggers: [
    { name: 'jenkins.security.BasicHeaderRealPasswordAuthenticator', level: 'FINER' },
    { name: 'hudson.security.AuthenticationProcessingFilter2', level: 'FINE' },
    { name: 'org.pac4j', level: 'WARNING' },
    { name: 'hudson.init.impl.InstallUncaughtExceptionHandler', level: 'WARNING' },
    { name: 'org.jenkinsci.plugins.oic', level: 'WARNING' },
  ],
} as const;

/**
 * The java.util.logging configuration handed to Jenkins (`-Djava.util.logging.config.file`). With it Winstone leaves
 * the console handler to this file (winstone 8.1039.v78300b_1d48a_9 Launcher.java:469-475), so the JDK's
 * ConsoleHandler and SimpleFormatter write every record of level FINER or more that a logger lets through; both
 * runtimes ship that output to the application log group. Everything stays at INFO but the two sign-in failure
 * loggers above, and SecurityListener, which records successful sign-ins ("logged in: <user>",
 * SecurityListener.java:147-148) and API-token authentications ("authenticated: <user> [groups]", 106-114).
 * BasicHeaderProcessor stays at INFO: at FINE it would log a malformed Authorization header as sent
 * (BasicHeaderProcessor.java:77).
 */
export function loggingProperties(): string {
  return [
    'handlers=java.util.logging.ConsoleHandler',
    'java.util.logging.ConsoleHandler.level=FINER',
    '.level=INFO',
    'jenkins.security.SecurityListener.level=FINE',
    'jenkins.security.BasicHeaderRealPasswordAuthenticator.level=FINER',
    'hudson.security.AuthenticationProcessingFilter2.level=FINE',
    '',
  ].join('\n');
}

/**
 * One log event per failed sign-in or authentication, for each path above: the pinned code's own words (CloudWatch
 * filter terms are case-sensitive phrases; `?` joins them with OR). The Maven test FailedSignInLogTest writes these
 * records through the JDK's logging with `loggingProperties()` and keeps the console output it gets in
 * jenkins/src/test/resources/failed-sign-in-console.txt; jenkins-monitoring.test.ts runs this pattern over it.
 */
export const FAILED_LOGIN_FILTER =
  '?"Bad authentication response" ?"ServletException: org.pac4j." ?"Authentication request for user:" ?"Login attempt failed"';

/** More than {@link FAILED_LOGIN_ALERT_THRESHOLD} failed sign-ins in the last {@link FAILED_LOGIN_WINDOW_SECONDS} seconds: the alert. */
export const FAILED_LOGIN_ALARM: LogAlarm = {
  name: 'JenkinsFailedLogins',
  description: `More than ${FAILED_LOGIN_ALERT_THRESHOLD} failed Jenkins sign-ins in ${FAILED_LOGIN_WINDOW_SECONDS / 3600} hours ` +
    '(PCI DSS 10.2.1.4): search the application log group for "Bad authentication response" (the identity provider ' +
    'refused the sign-in), "ServletException: org.pac4j." (the sign-in callback failed in Jenkins), "Authentication ' +
    'request for user:" (a wrong API token, with the user name) and "Login attempt failed"; the daily log review job ' +
    'lists them too. Wrong passwords and failed MFA at the identity provider never reach Jenkins: they are in the ' +
    'identity provider\'s own sign-in log.',
  filterPattern: FAILED_LOGIN_FILTER,
  threshold: FAILED_LOGIN_ALERT_THRESHOLD,
  periodSeconds: FAILED_LOGIN_WINDOW_SECONDS,
};

/**
 * The weekly update check (`compliance/compliance-update-check`, jenkins/jobs/compliance-jobs.groovy) logs one WARNING
 * line a security warning that Jenkins' update site reports for the running core or a plugin: any such line tells the
 * alarm topic that the deployment runs a version under a published advisory (PCI DSS 6.3.3).
 */
export const SECURITY_WARNING_LINE = 'Jenkins security warning:';

export const SECURITY_WARNING_ALARM: LogAlarm = {
  name: 'JenkinsSecurityWarnings',
  description: 'Jenkins reports a published security advisory against its core or a plugin it runs (the weekly job ' +
    'compliance/compliance-update-check lists them; search the application log group for ' +
    `"${SECURITY_WARNING_LINE}"). Upgrade: deploy a framework release whose pins are past the advisory ` +
    '(docs/build-server.md, "Upgrading the pins"), within a month for one you rank critical, in your defined time frame for the others (PCI DSS 6.3.3).',
  filterPattern: `"${SECURITY_WARNING_LINE}"`,
  threshold: 0,
  periodSeconds: 86400,
};
