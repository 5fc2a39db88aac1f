/**
 * The hardening constants of the hardening specification's Limits table (and the few settings it implies), each set here and only here.
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
 * The most the audit trail's files may take on the data volume, in MB (both runtimes keep them there, in
 * `<home>/logs`): a fifth of the default EBS data volume, so that the files cannot fill the disk Jenkins needs.
 * audit-trail keeps `count` files of at most `limit` MB each (audit-trail 436 `LogFileAuditLogger.java` lines 31-32).
 */
export const AUDIT_LOG_BUDGET_MB = 10 * 1024;
/**
 * audit-trail log file, full template: size limit and count. The specification's Limits table says 10000 MB and 52: the plugin
 * cannot hold 10000 (it would wrap, `AUDIT_LOG_LIMIT_MAX`), and 52 files of the largest it holds (104 GiB) fit neither
 * the EC2 volumes nor the budget above. So the count is the specification's and the limit what fits `AUDIT_LOG_BUDGET_MB`. The
 * files are a rolling local copy; the year of history is the application log group's, where every audit line also goes
 * (PRODUCTION's `logRetention` in profile-settings.ts; see docs/pci-operations.md).
 */
export const AUDIT_LOG_COUNT_FULL = 52;
export const AUDIT_LOG_LIMIT_FULL = Math.floor(AUDIT_LOG_BUDGET_MB / AUDIT_LOG_COUNT_FULL);
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
 * systemd start timeout of the EC2 unit (not in the specification's table): 10 minutes instead of systemd's 90 s, for a first
 * start that unpacks every plugin and runs the configuration and seed script on a small instance.
 */
export const SERVICE_START_TIMEOUT_SECONDS = 600;

/**
 * What the build server's first start may take before it answers `/login` (its `defaultSize().startupSeconds`): the
 * plugin download (EC2: with the packages, Jenkins and the plugin tool; Fargate: the init container), then the service's
 * whole start timeout and the wait after it. The load balancer's health checks are ignored that long.
 */
export const PLUGIN_DOWNLOAD_SECONDS = 300;
export const CONTROLLER_STARTUP_SECONDS = PLUGIN_DOWNLOAD_SECONDS + SERVICE_START_TIMEOUT_SECONDS + STARTUP_WAIT_SECONDS;

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
 *
 * Every `/manage/X` page is also served at `/X` (jenkins-2.568.2 `ManageJenkinsAction.java` line 98 is a
 * `StaplerFallback` to `Jenkins`), and core's own banners link the root forms (`UpdateSiteWarningsMonitor/message.jelly`
 * lines 58-60: `/configureSecurity`, `/pluginManager`; `RootUrlNotSetMonitor`: `/configure`), whose pages post relative
 * to themselves (`/configureSecurity/configure`, `/configSubmit`); so do the credentials store at `/credentials/`, and a
 * job or view saved through a user's own views (`/user/<id>/my-views/...`, `/me/my-views/...`). This is a size rule, not
 * an access control: any path's body under 8 KB passes (a `/scriptText` call included), `/manage/scriptText` takes
 * 1 MB through `/manage/`, and `/pluginManager/uploadPlugin` through `/pluginManager/`; those endpoints need
 * Overall/Administer. A body without `Content-Length` over 8 KB (the HTTP CLI's chunked stream) is blocked.
 */
export const JENKINS_REQUEST_BODY_LIMITS = [
  { pathPrefix: '/job/', maxBytes: 10 * 1024 * 1024 },
  { pathPrefix: '/view/', maxBytes: 10 * 1024 * 1024 },
  { pathPrefix: '/manage/', maxBytes: 1024 * 1024 },
  { pathPrefix: '/createItem', maxBytes: 1024 * 1024 },
  { pathPrefix: '/configure', maxBytes: 1024 * 1024 },
  { pathPrefix: '/configSubmit', maxBytes: 1024 * 1024 },
  { pathPrefix: '/pluginManager/', maxBytes: 1024 * 1024 },
  { pathPrefix: '/credentials/', maxBytes: 1024 * 1024 },
  { pathPrefix: '/user/', maxBytes: 1024 * 1024 },
  { pathPrefix: '/me/', maxBytes: 1024 * 1024 },
] as const;

/**
 * The path segments whose requests the audit trail records (its `pattern`): audit-trail 436.vc0d1e79fc5a_3's own
 * `KNOWN_KEYWORDS` (`AuditTrailPlugin.java` lines 77-94: `configSubmit`, `doDelete`, ..., `safeExit`), and what its
 * default misses: every `config.xml` (a job's, a view's, a node's, read or written), the script consoles and
 * `scriptText`, the plugin manager and update center, the credential store, `descriptorByName` (a user's API tokens
 * among others) and the security realm's sign-in callback (`securityRealm`). Its filter
 * (`AuditTrailFilter.logRequest`, lines 93-120) records a matching request's path, user and source address, and no
 * result: the audit-trail control says so.
 */
export const JENKINS_AUDIT_KEYWORDS = [
  'configSubmit', 'doDelete', 'postBuildResult', 'enable', 'disable', 'cancelQueue', 'stop', 'toggleLogKeep',
  'doWipeOutWorkspace', 'createItem', 'createView', 'toggleOffline', 'cancelQuietDown', 'quietDown', 'restart', 'exit',
  'safeExit',
  'config\\.xml', 'script', 'scriptText', 'pluginManager', 'updateCenter', 'credentials', 'descriptorByName', 'securityRealm',
] as const;

/** The audit trail's `pattern`, built as the plugin builds its default (`DEFAULT_PATTERN`, line 97) from the keywords. */
export const JENKINS_AUDIT_PATTERN = `.*/(?:${JENKINS_AUDIT_KEYWORDS.join('|')})/?.*`;

/**
 * What the WAF blocks from outside, because configuration cannot switch it off and nobody needs it from the internet.
 * Stapler reaches an action by many routes (jenkins-2.568.2: every `/manage/X` is also `/X`, and `/manage/manage/X` too,
 * `ManageJenkinsAction.java` line 98 and `Jenkins.java` 4010-4021; a node's console at `/computer/<name>/`,
 * `/computers/<n>/` (`Jenkins.getComputers()`, 1982-1984) and through an executor's `owner`), so each is blocked by
 * what the request is, not by where it starts:
 * - a `script` or `scriptText` path segment anywhere: the script consoles and their API (`Jenkins.java` 4829,
 *   `Computer.java` 1466-1478), which make a stolen admin session a shell on the controller;
 * - a `cli` segment anywhere: the plain HTTP CLI (a POST, `CLIAction.getTarget` lines 246-259), which its WebSocket
 *   switch (`-Dhudson.cli.CLIAction.ALLOW_WEBSOCKET=false`) does not turn off;
 * - a POST to `config.xml`, with or without further segments (Stapler runs a web method whatever tokens follow its
 *   name, stapler `NameBasedDispatcher.java` 52-66; `AbstractItem.java` 842-864 updates from the body on POST);
 * - a request whose body is XML (`Content-Type` `application/xml` or `text/xml`, with or without parameters, the test
 *   core makes in `View.java` 1164-1166, `ItemGroupMixIn.java` 158-160, `ComputerSet.java` 287-289): `createView` in a
 *   user's own My Views, `createItem`, the XStream input of SECURITY-3972 and SECURITY-4032. The UI's forms never post
 *   XML; scripts that create or update jobs by XML must run inside.
 * Whole segments only: `/scriptApproval/`, `script.js` and a job named `build-scripts` pass; a job, view or node named
 * exactly `script`, `scriptText` or `cli` cannot be reached from outside. Build agents and other applications reach
 * the controller directly, not through the WAF: this narrows only the path from the internet.
 */
export const JENKINS_BLOCKED_REQUESTS = [
  { pathPattern: '/(script|scriptText|cli)(/.*)?$' },
  { pathPattern: '/config\\.xml(/.*)?$', method: 'POST' },
  { pathPattern: '^/', contentTypePattern: '^\\s*(application|text)/xml' },
] as const;

/**
 * The controller's heap, as a share of the memory the JVM sees (`-XX:MaxRAMPercentage`): the JDK's default is 25 %
 * (512 MiB of a 2 GiB task), small for some 80 plugins and running pipelines; the rest is the JVM's own memory
 * (metaspace, threads, code cache) and, on EC2, the system's and the CloudWatch agent's.
 */
export const CONTROLLER_HEAP_PERCENT = 50;

/** HTTP session timeout of the web UI, in minutes (not in the specification's table; PCI DSS 8.2.8 asks for 15 minutes). */
export const SESSION_TIMEOUT_MINUTES = 15;

// Set in the Groovy code that uses them, and tested there: the compliance jobs' schedules and the access review's
// 90-day inactivity flag in `jenkins/jobs/compliance-jobs.groovy`; the pipeline gates' limits (10-minute quality gate,
// zero high and zero critical findings, the 256-bit cipher) in `jenkins/pipeline-library/src/dev/fwframework/pci/Limits.groovy`.
