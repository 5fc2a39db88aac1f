import type { LogAlarm } from '../contract/log-alarm';
import { FAILED_LOGIN_ALERT_THRESHOLD, FAILED_LOGIN_WINDOW_SECONDS } from './hardening';

/**
 * Jenkins core reports failed logins and failed authentications (API tokens, basic authentication) through
 * `jenkins.security.SecurityListener`, at level FINE. This java.util.logging configuration lets exactly that logger
 * through to the Jenkins log, which both runtimes ship to the application log group.
 */
export function loggingProperties(): string {
  return [
    'handlers=java.util.logging.ConsoleHandler',
    'java.util.logging.ConsoleHandler.level=FINE',
    '.level=INFO',
    'jenkins.security.SecurityListener.level=FINE',
    '',
  ].join('\n');
}

/** The lines SecurityListener writes for a failed login or authentication (`failed to log in: <user>`). */
export const FAILED_LOGIN_FILTER = '?"failed to log in" ?"failed to authenticate"';

/** More than 10 failed logins in the last 86400 seconds (the spec's alert threshold). */
export const FAILED_LOGIN_ALARM: LogAlarm = {
  name: 'JenkinsFailedLogins',
  description: `More than ${FAILED_LOGIN_ALERT_THRESHOLD} failed Jenkins logins in ${FAILED_LOGIN_WINDOW_SECONDS / 3600} hours ` +
    '(PCI DSS 10.2.1.4): search the application log group for "failed to log in" and "failed to authenticate" to see ' +
    'which users, and the audit log for what followed. Sign-in failures at the identity provider are logged there.',
  filterPattern: FAILED_LOGIN_FILTER,
  threshold: FAILED_LOGIN_ALERT_THRESHOLD,
  periodSeconds: FAILED_LOGIN_WINDOW_SECONDS,
};
