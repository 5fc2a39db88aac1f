/**
 * The hardening constants of the spec's Limits table (and the few settings it implies), each set here and only here.
 */

/** Global build discarder: the days build logs are kept, and at most how many builds. */
export const BUILD_LOG_RETENTION_DAYS = 90;
export const BUILDS_KEPT = 100;
/** The days artifacts are kept, and at most how many builds keep them. */
export const ARTIFACT_RETENTION_DAYS = 30;
export const ARTIFACTS_KEPT = 10;

/** audit-trail log file, basic setup: size limit (MB) and number of files. */
export const AUDIT_LOG_LIMIT_BASIC = 1000;
export const AUDIT_LOG_COUNT_BASIC = 10;
/**
 * The largest audit-trail log file limit (MB) the plugin can hold: audit-trail 436 opens its file with
 * `new FileHandler(getLog(), getLimit() * 1024 * 1024, getCount(), true)` (LogFileAuditLogger.java line 32), a Java
 * `int` product, which passes 2^31 - 1 above this and wraps.
 */
export const AUDIT_LOG_LIMIT_MAX = Math.floor((2 ** 31 - 1) / (1024 * 1024));
/**
 * audit-trail log file, full template: size limit and count. The spec's Limits table says 10000 MB, which the plugin
 * cannot hold (it would wrap to about 1.77 GiB, `AUDIT_LOG_LIMIT_MAX`), so the limit is the largest it can hold. The
 * files are a rolling local copy; the year of history is the application log group's, where every audit line also goes
 * (PRODUCTION's `logRetention` in profile-settings.ts; see docs/pci-operations.md).
 */
export const AUDIT_LOG_LIMIT_FULL = AUDIT_LOG_LIMIT_MAX;
export const AUDIT_LOG_COUNT_FULL = 52;
/** Remote syslog for the audit trail: UDP (audit-trail's only transport) on this port. */
export const AUDIT_SYSLOG_PORT = 514;

/** Failed-login alert: more than this many failed logins within the window (seconds) below. */
export const FAILED_LOGIN_ALERT_THRESHOLD = 10;
export const FAILED_LOGIN_WINDOW_SECONDS = 86400;

/** Seconds to wait after starting the service before checking it is active (as long as the reference plugin waits). */
export const STARTUP_WAIT_SECONDS = 60;

/** systemd unit: seconds before a restart on failure, seconds allowed to stop, the open-file limit. */
export const SERVICE_RESTART_SECONDS = 5;
export const SERVICE_STOP_TIMEOUT_SECONDS = 30;
export const SERVICE_OPEN_FILES = 65536;
/**
 * systemd start timeout of the EC2 unit (not in the spec's table): 10 minutes instead of systemd's 90 s, for a first
 * start that unpacks every plugin and runs the configuration and seed script on a small instance.
 */
export const SERVICE_START_TIMEOUT_SECONDS = 600;

/**
 * EC2: `jenkins.log` is rotated by logrotate (the RPM ships no rotation since jenkinsci/packaging PR 409): daily, or at
 * this size, keeping this many files on the instance. The CloudWatch agent has already shipped every line to the log
 * group, which keeps the history.
 */
export const JENKINS_LOG_ROTATE_MB = 100;
export const JENKINS_LOG_ROTATIONS = 7;

/**
 * Where Jenkins' own requests carry bodies over the WAF's `WAF_BODY_SIZE_LIMIT`, and the largest each takes: under
 * `/job/` (and the same jobs under `/view/`) a job's configuration with an inline pipeline, a build's file parameters
 * and a replayed pipeline; under `/manage/` the global configuration pages; `/createItem` a job created from its
 * config.xml.
 */
export const JENKINS_REQUEST_BODY_LIMITS = [
  { pathPrefix: '/job/', maxBytes: 10 * 1024 * 1024 },
  { pathPrefix: '/view/', maxBytes: 10 * 1024 * 1024 },
  { pathPrefix: '/manage/', maxBytes: 1024 * 1024 },
  { pathPrefix: '/createItem', maxBytes: 1024 * 1024 },
] as const;

/** HTTP session timeout of the web UI, in minutes (not in the spec's table; PCI DSS 8.2.8 asks for 15 minutes). */
export const SESSION_TIMEOUT_MINUTES = 15;

// Set in the Groovy code that uses them, and tested there: the compliance jobs' schedules and the access review's
// 90-day inactivity flag in `jenkins/jobs/compliance-jobs.groovy`; the pipeline gates' limits (10-minute quality gate,
// zero high and zero critical findings, the 256-bit cipher) in `jenkins/pipeline-library/src/dev/fwframework/pci/Limits.groovy`.
