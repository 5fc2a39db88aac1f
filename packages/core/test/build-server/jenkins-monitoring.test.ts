import * as fs from 'fs';
import * as path from 'path';
import { complianceJobsScript, JENKINS_CODE_DIR, pipelineScripts } from '../../src/build-server/compliance-jobs';
import { FAILED_LOGIN_ALERT_THRESHOLD, FAILED_LOGIN_WINDOW_SECONDS } from '../../src/build-server/hardening';
import { FAILED_LOGIN_ALARM, FAILED_LOGIN_FILTER, FAILED_SIGN_IN_RECORDER, loggingProperties } from '../../src/build-server/jenkins-monitoring';

/**
 * The Maven tests' side of the monitoring (packages/core/jenkins/src/test): FailedSignInLogTest loads
 * resources/logging.properties into the JDK's LogManager, has the loggers write the records the pinned Jenkins code
 * writes on a sign-in (SignInLog.java, each method citing its source lines), and checks the console output against
 * resources/failed-sign-in-console.txt; ComplianceJobsTest feeds the same records to the log review through the
 * recorder of resources/failed-sign-in-recorder.json. Here: the TypeScript hands Jenkins those same files' content, and
 * the CloudWatch filter counts that console output right.
 */
const RESOURCES = path.join(JENKINS_CODE_DIR, 'src', 'test', 'resources');
const resource = (name: string) => fs.readFileSync(path.join(RESOURCES, name), 'utf-8');

/**
 * The filter's terms. A CloudWatch Logs filter pattern of the form `?"a" ?"b"` matches a log event that contains any
 * of the quoted phrases, case-sensitively (https://docs.aws.amazon.com/AmazonCloudWatch/latest/logs/FilterAndPatternSyntax.html,
 * "Matching terms in unstructured log events"); both runtimes ship one event per line (no multi-line grouping).
 */
function terms(pattern: string): string[] {
  const found = [...pattern.matchAll(/\?"([^"]+)"/g)];
  expect(found.map((m) => m[0]).join(' ')).toBe(pattern);
  return found.map((m) => m[1]);
}
const matches = (event: string) => terms(FAILED_LOGIN_FILTER).some((t) => event.includes(t));

describe('the logging configuration and the log recorder', () => {
  test('loggingProperties() is the file the Maven tests load into the JDK', () => {
    expect(loggingProperties()).toBe(resource('logging.properties'));
  });

  test('FAILED_SIGN_IN_RECORDER is the recorder the Maven test of the log review configures', () => {
    expect(FAILED_SIGN_IN_RECORDER).toEqual(JSON.parse(resource('failed-sign-in-recorder.json')));
  });

  test('every recorder target below INFO has its logger at that level or finer: configuration-as-code sets no level', () => {
    // core LogRecorder.java:454-468 (Target.enable runs on load and save; configuration-as-code 2117 builds the
    // recorder through its constructor and setters only, DataBoundConfigurator.java:100-110), so the logger's own
    // level, set by logging.properties, decides whether a FINE/FINER record exists at all.
    const order = ['FINEST', 'FINER', 'FINE', 'CONFIG', 'INFO', 'WARNING', 'SEVERE'];
    const levels = new Map(loggingProperties().split('\n').filter((l) => /^[\w.$]*\.level=/.test(l) && !l.startsWith('java.util.logging.'))
      .map((l) => { const [k, v] = l.split('='); return [k.replace(/\.level$/, ''), v] as const; }));
    // A logger without a level of its own has its nearest ancestor's (java.util.logging.Logger), the root's at last.
    const effective = (name: string): string => levels.get(name) ?? (name === '' ? 'INFO' : effective(name.includes('.') ? name.slice(0, name.lastIndexOf('.')) : ''));
    for (const target of FAILED_SIGN_IN_RECORDER.loggers) {
      expect([target.name, order.indexOf(effective(target.name)) <= order.indexOf(target.level)]).toEqual([target.name, true]);
    }
    expect(levels.get('')).toBe('INFO');
  });

  test('the daily log review reads that recorder', () => {
    const review = pipelineScripts(complianceJobsScript()).find((s) => s.includes('Failed sign-ins'))!;
    expect(review).toContain(`Jenkins.get().log.getLogRecorder('${FAILED_SIGN_IN_RECORDER.name}')`);
  });
});

describe('the failed sign-in alarm counts what the pinned code writes', () => {
  const events = resource('failed-sign-in-console.txt').split('\n');

  test('one matching line for each failed sign-in of the Maven test, and none for anything else', () => {
    expect(events.filter(matches)).toEqual([
      // jenkins-2.568.2 BasicHeaderRealPasswordAuthenticator.java:66, FINER, a Basic header with a wrong API token
      'FINER: Authentication request for user: mallory failed: org.springframework.security.authentication.BadCredentialsException: ' +
        'Unexpected authentication type: UsernamePasswordAuthenticationToken [Principal=mallory, Credentials=[PROTECTED], ' +
        'Authenticated=false, Details=null, Granted Authorities=[]]',
      // jenkins-2.568.2 AuthenticationProcessingFilter2.java:130, FINE, a POST to the login form (securityRealm/escapeHatch)
      'FINE: Login attempt failed',
      // pac4j-parent-6.4.3 pac4j-oidc OidcCredentialsExtractor.java:123-124, SEVERE via slf4j-jdk14: the identity provider's error
      'SEVERE: Bad authentication response, error=access_denied',
      // jenkins-2.568.2 InstallUncaughtExceptionHandler.java:54, WARNING, the trace's first line: a pac4j exception
      // (OidcCredentialsExtractor.java:151-154) wrapped by Stapler (stapler 2088.v915606dc8e86 Stapler.java:851)
      'jakarta.servlet.ServletException: org.pac4j.oidc.exceptions.OidcStateMismatchException: State parameter is different ' +
        'from the one sent in authentication request.',
    ]);
    // Not counted: the same handler's line for the failed callback and for any other exception
    // (InstallUncaughtExceptionHandler.java:54), a pac4j exception of a token refresh (OicSecurityRealm.java:1378),
    // a sign-in without groups (OicSecurityRealm.java:955), successful sign-ins (SecurityListener.java:114, 148).
    for (const line of ['WARNING: Caught unhandled exception with ID 5e0c7a1e-3f0b-4c1d-9a7e-2b8f6d4c3a21',
      'org.pac4j.core.exception.TechnicalException: Bad token response, error=invalid_request',
      'WARNING: idToken and userInfo did not contain group field name: groups',
      'FINE: logged in: alice', 'FINE: authenticated: ci-bot [developers]',
      'jakarta.servlet.ServletException: java.lang.IllegalStateException: something else broke']) {
      expect(events).toContain(line);
      expect(matches(line)).toBe(false);
    }
  });

  test('no term can match a stack frame line, which the Maven test leaves out of the checked-in output', () => {
    // A frame is "\tat <class>.<method>(<file>:<line>)", "(Native Method)" or "(Unknown Source)": its only spaces are
    // after "at" and in those two words; every term has a space elsewhere.
    for (const term of terms(FAILED_LOGIN_FILTER)) {
      expect(term.trim()).toMatch(/ /);
      expect(['Native Method', 'Unknown Source']).not.toContain(term);
    }
  });

  test(`the alarm: that filter, more than ${FAILED_LOGIN_ALERT_THRESHOLD} in ${FAILED_LOGIN_WINDOW_SECONDS} s`, () => {
    expect(FAILED_LOGIN_ALARM).toMatchObject({
      filterPattern: FAILED_LOGIN_FILTER, threshold: FAILED_LOGIN_ALERT_THRESHOLD, periodSeconds: FAILED_LOGIN_WINDOW_SECONDS,
    });
    expect([FAILED_LOGIN_ALERT_THRESHOLD, FAILED_LOGIN_WINDOW_SECONDS]).toEqual([10, 86400]);
  });
});
