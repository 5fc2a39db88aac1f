// Job DSL, run by configuration-as-code at every start: the compliance jobs exist from the first start on and are
// reset to this definition. Their pipelines read Jenkins itself, so they run outside the sandbox; the configuration
// pre-approves exactly these scripts (security.scriptApproval.approvedScriptHashes).
//
// Their builds print the user inventory, failed sign-ins and audit-trail extracts, which PCI DSS 10.3.1 lets only those
// with a job-related need read. So they live in a folder that inherits no grant (matrix-auth 3.2.8's nonInheriting:
// NonInheritingStrategy.java lines 45-81, where only what Overall/Administer implies still applies) and gives Job/Read
// to the auditors' group alone: administrators and auditors read them, nobody else reads or configures them.
// COMPLIANCE_AUDITORS comes from the configuration's `providedEnv` (job-dsl SeedJobConfigurator.java lines 90-101).

import jenkins.model.Jenkins

// Deployments made before the jobs moved into the folder still hold them at the root, where every Job/Read holder
// reads their reports and their schedules keep firing: Job DSL run by configuration-as-code only runs the script and
// deletes nothing it no longer defines (job-dsl 3654.vdf58f53e2d15 casc/SeedJobConfigurator.java lines 60-71). So
// the seed deletes them, with their builds. A folder of that name is never touched.
for (String name : ['compliance-access-review', 'compliance-update-check', 'compliance-log-review']) {
    def stale = Jenkins.get().getItem(name)
    if (stale != null && !(stale instanceof com.cloudbees.hudson.plugins.folder.AbstractFolder)) {
        println("Deleting " + name + ": the compliance jobs are in the folder compliance/ now")
        stale.delete()
    }
}

String auditors = COMPLIANCE_AUDITORS
folder('compliance') {
    description('PCI DSS compliance jobs: readable by administrators and auditors only.')
    properties {
        authorizationMatrix {
            inheritanceStrategy { nonInheriting() }
            entries { group { name(auditors); permissions(['Job/Read']) } }
        }
    }
}

pipelineJob('compliance/compliance-access-review') {
    description('Quarterly access review (PCI DSS 7.2.4): lists every user and flags those whose last login is more than 90 days ago.')
    properties { pipelineTriggers { triggers { cron { spec('0 0 1 1,4,7,10 *') } } } }
    definition { cps { sandbox(false); script('''
import hudson.model.User

// Approved by its hash, this text would run outside the sandbox in any job that pasted it (approval is by content,
// not by job): it runs in its own job only, and reads nothing before this check.
if (currentBuild.rawBuild.parent.fullName != 'compliance/compliance-access-review') error('This compliance script runs only in the job compliance/compliance-access-review.')

@NonCPS
String review(int inactiveDays) {
    long cutoff = System.currentTimeMillis() - inactiveDays * 86400000L
    List<String> lines = []
    int flagged = 0
    for (User user : User.getAll()) {
        // Every OIDC sign-in saves the user's record (its new tokens): the record's age is the last sign-in.
        File folder = user.userFolder
        long last = folder == null ? 0L : new File(folder, 'config.xml').lastModified()
        boolean inactive = last < cutoff
        if (inactive) flagged++
        // The id is the provider's `sub`, opaque to a reviewer: the full name (the `name` claim) says who it is.
        lines.add(String.format('%-40s %-30s %-25s %s', user.id, user.fullName, last == 0L ? 'never' : new Date(last).toInstant().toString(),
            inactive ? "INACTIVE: no sign-in for more than ${inactiveDays} days" : 'active'))
    }
    return "${lines.size()} users, ${flagged} flagged\\n" + lines.join('\\n')
}

// No node: the review runs on the controller's flyweight executor, and the report is the build log.
stage('review') {
    String report = review(90)
    echo(report)
    if (report.contains('INACTIVE')) unstable('Users without a sign-in for more than 90 days: review and remove them.')
}
''') } }
}

pipelineJob('compliance/compliance-update-check') {
    description('Weekly update check (PCI DSS 6.3.3): security warnings first, then plugin and core updates.')
    properties { pipelineTriggers { triggers { cron { spec('0 2 * * 1') } } } }
    definition { cps { sandbox(false); script('''
import hudson.ExtensionList
import java.util.logging.Logger
import jenkins.model.Jenkins
import jenkins.security.UpdateSiteWarningsMonitor

// Approved by its hash, this text would run outside the sandbox in any job that pasted it (approval is by content,
// not by job): it runs in its own job only, and reads nothing before this check.
if (currentBuild.rawBuild.parent.fullName != 'compliance/compliance-update-check') error('This compliance script runs only in the job compliance/compliance-update-check.')

@NonCPS
String check() {
    Jenkins jenkins = Jenkins.get()
    jenkins.updateCenter.updateAllSites()
    UpdateSiteWarningsMonitor warnings = ExtensionList.lookupSingleton(UpdateSiteWarningsMonitor)
    List<String> active = []
    warnings.activeCoreWarnings.each { active.add("core ${Jenkins.VERSION}: ${it.message} ${it.url}") }
    warnings.activePluginWarningsByPlugin.each { plugin, list -> list.each { active.add("${plugin.shortName} ${plugin.version}: ${it.message} ${it.url}") } }
    // The build log stays in Jenkins; Jenkins' own log goes to the application log group, where the alarm
    // SECURITY_WARNING_ALARM (jenkins-monitoring.ts) counts these lines and tells the alarm topic.
    Logger log = Logger.getLogger('dev.fwframework.compliance')
    active.each { log.warning("Jenkins security warning: ${it}") }
    List<String> lines = ['Security warnings:'] + active.collect { "  ${it}" }
    if (lines.size() == 1) lines.add('  none')
    lines.add('Plugin updates:')
    jenkins.pluginManager.plugins.findAll { it.hasUpdate() }.each { lines.add("  ${it.shortName} ${it.version} -> ${it.updateInfo.version}") }
    def core = jenkins.updateCenter.coreSource?.data?.core
    lines.add("Core: ${Jenkins.VERSION}" + (core != null && core.version != Jenkins.VERSION ? " -> ${core.version} available" : ''))
    return lines.join('\\n')
}

// No node: the review runs on the controller's flyweight executor, and the report is the build log.
stage('review') {
    String report = check()
    echo(report)
    if (!report.contains('Security warnings:\\n  none')) unstable('Security warnings are active: update the pinned versions.')
}
''') } }
}

pipelineJob('compliance/compliance-log-review') {
    description("Daily log review (PCI DSS 10.4.1): the last day's failed sign-ins and administrative changes.")
    properties { pipelineTriggers { triggers { cron { spec('0 9 * * *') } } } }
    definition { cps { sandbox(false); script('''
import hudson.ExtensionList
import hudson.logging.LogRecorder
import hudson.plugins.audit_trail.AuditTrailPlugin
import hudson.plugins.audit_trail.LogFileAuditLogger
import hudson.util.RingBufferLogHandler
import java.util.logging.Level
import java.util.logging.LogRecord
import jenkins.model.Jenkins

// Approved by its hash, this text would run outside the sandbox in any job that pasted it (approval is by content,
// not by job): it runs in its own job only, and reads nothing before this check.
if (currentBuild.rawBuild.parent.fullName != 'compliance/compliance-log-review') error('This compliance script runs only in the job compliance/compliance-log-review.')

// A failed sign-in as the pinned Jenkins code logs it (jenkins-monitoring.ts says where each record comes from), or
// null for any other record of the log recorder.
@NonCPS
String signInFailure(LogRecord r) {
    String message = r.message ?: ''
    switch (r.loggerName) {
        case 'jenkins.security.BasicHeaderRealPasswordAuthenticator':
            return message.startsWith('Authentication request for user:') ? "API token rejected: user ${r.parameters[0]}" : null
        case 'hudson.security.AuthenticationProcessingFilter2':
            return message == 'Login attempt failed' ? "login form rejected: ${principal(r.thrown)}" : null
        case 'org.pac4j.oidc.credentials.extractor.OidcCredentialsExtractor':
            return message.startsWith('Bad authentication response') ? "identity provider refused the sign-in: ${message}" : null
        case 'hudson.init.impl.InstallUncaughtExceptionHandler':
            for (Throwable t = r.thrown; t != null; t = t.cause) {
                if (t.class.name.startsWith('org.pac4j.')) return "sign-in callback rejected: ${t}"
            }
            return null
        default:
            return null
    }
}

// Spring Security names the user in the rejected token's text ("Principal=<name>, Credentials=[PROTECTED], ...").
@NonCPS
String principal(Throwable failure) {
    String text = failure?.message ?: 'no detail'
    def m = text =~ /Principal=([^,]*),/
    return m.find() ? "user ${m.group(1)}" : text
}

// Whatever a client sent, one line: control characters become '?'.
@NonCPS
String clean(Object text) {
    StringBuilder line = new StringBuilder()
    for (char c : String.valueOf(text).toCharArray()) line.append(Character.isISOControl(c) ? ('?' as char) : c)
    return line.toString()
}

@NonCPS
String review() {
    long since = System.currentTimeMillis() - 86400000L
    List<String> report = []
    LogRecorder recorder = Jenkins.get().log.getLogRecorder('failed-sign-ins')
    if (recorder == null) {
        report.add("Failed sign-ins: UNKNOWN, the configuration has no log recorder 'failed-sign-ins'")
    } else {
        List<String> failed = []
        List<String> warnings = []
        List<LogRecord> records = new ArrayList<>(recorder.logRecords)
        int capacity = RingBufferLogHandler.defaultRingBufferSize
        records.findAll { it.instant.toEpochMilli() >= since }.sort { it.instant }.each { LogRecord r ->
            String failure = signInFailure(r)
            if (failure != null) {
                failed.add("  ${r.instant} ${clean(failure)}")
            } else if (r.loggerName.startsWith('org.jenkinsci.plugins.oic') && r.level.intValue() >= Level.WARNING.intValue()) {
                warnings.add("  ${r.instant} ${clean(r.message)}" + (r.thrown == null ? '' : ": ${clean(r.thrown)}"))
            }
        }
        report.add("Failed sign-ins (last 24 h, of the newest ${capacity} records the log recorder keeps since the last start; the CloudWatch alarm counts all): ${failed.size()}")
        if (records.size() >= capacity && records.every { it.instant.toEpochMilli() >= since }) report.add("  INCOMPLETE: the log recorder is full, older records are gone; count the failed sign-ins in CloudWatch")
        report.addAll(failed)
        report.add("OIDC realm warnings (last 24 h): ${warnings.size()}")
        report.addAll(warnings)
    }
    List<String> changes = []
    AuditTrailPlugin audit = ExtensionList.lookupSingleton(AuditTrailPlugin)
    audit.loggers.findAll { it instanceof LogFileAuditLogger }.each { LogFileAuditLogger logger ->
        File pattern = new File(logger.log)
        String prefix = pattern.name.split('%g')[0]
        pattern.parentFile.listFiles()?.findAll { it.name.startsWith(prefix) && it.lastModified() >= since }?.sort { it.name }?.each { file ->
            file.eachLine { line -> if (line =~ /configSubmit|doDelete|createItem|doUninstall|pluginManager|script|restart|safeRestart|quietDown/) changes.add("  ${line}") }
        }
    }
    report.add("Administrative changes (audit trail, last 24 h): ${changes.size()}")
    report.addAll(changes)
    return report.join('\\n')
}

// No node: the review runs on the controller's flyweight executor, and the report is the build log.
stage('review') {
    String report = review()
    echo(report)
    if (report.startsWith('Failed sign-ins: UNKNOWN')) unstable('No log recorder failed-sign-ins: add it to the configuration (jenkins.log.recorders).')
    if (report.contains('  INCOMPLETE: the log recorder is full')) unstable('More sign-in records than the log recorder keeps: review the failed sign-ins in CloudWatch.')
}
''') } }
}
