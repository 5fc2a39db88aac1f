// Job DSL, run by configuration-as-code at every start: the compliance jobs exist from the first start on and are
// reset to this definition. Their pipelines read Jenkins itself, so they run outside the sandbox; the configuration
// pre-approves exactly these scripts (security.scriptApproval.approvedScriptHashes).

pipelineJob('compliance-access-review') {
    description('Quarterly access review (PCI DSS 7.2.4): lists every user and flags those whose last login is more than 90 days ago.')
    properties { pipelineTriggers { triggers { cron { spec('0 0 1 1,4,7,10 *') } } } }
    definition { cps { sandbox(false); script('''
import hudson.model.User

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
        lines.add(String.format('%-40s %-25s %s', user.id, last == 0L ? 'never' : new Date(last).toInstant().toString(),
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

pipelineJob('compliance-update-check') {
    description('Weekly update check (PCI DSS 6.3.3): security warnings first, then plugin and core updates.')
    properties { pipelineTriggers { triggers { cron { spec('0 2 * * 1') } } } }
    definition { cps { sandbox(false); script('''
import hudson.ExtensionList
import jenkins.model.Jenkins
import jenkins.security.UpdateSiteWarningsMonitor

@NonCPS
String check() {
    Jenkins jenkins = Jenkins.get()
    jenkins.updateCenter.updateAllSites()
    UpdateSiteWarningsMonitor warnings = ExtensionList.lookupSingleton(UpdateSiteWarningsMonitor)
    List<String> lines = ['Security warnings:']
    warnings.activeCoreWarnings.each { lines.add("  core: ${it.message} ${it.url}") }
    warnings.activePluginWarningsByPlugin.each { plugin, list -> list.each { lines.add("  ${plugin.shortName} ${plugin.version}: ${it.message} ${it.url}") } }
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

pipelineJob('compliance-log-review') {
    description("Daily log review (PCI DSS 10.4.1): the last day's failed logins and administrative changes.")
    properties { pipelineTriggers { triggers { cron { spec('0 9 * * *') } } } }
    definition { cps { sandbox(false); script('''
import hudson.ExtensionList
import hudson.plugins.audit_trail.AuditTrailPlugin
import hudson.plugins.audit_trail.LogFileAuditLogger
import jenkins.model.Jenkins

@NonCPS
String review() {
    long since = System.currentTimeMillis() - 86400000L
    List<String> failed = Jenkins.logRecords
        .findAll { it.millis >= since && it.message != null && (it.message.startsWith('failed to log in') || it.message.startsWith('failed to authenticate')) }
        .collect { "  ${new Date(it.millis).toInstant()} ${java.text.MessageFormat.format(it.message, it.parameters)}" }
    List<String> changes = []
    AuditTrailPlugin audit = ExtensionList.lookupSingleton(AuditTrailPlugin)
    audit.loggers.findAll { it instanceof LogFileAuditLogger }.each { LogFileAuditLogger logger ->
        File pattern = new File(logger.log)
        String prefix = pattern.name.split('%g')[0]
        pattern.parentFile.listFiles()?.findAll { it.name.startsWith(prefix) && it.lastModified() >= since }?.sort { it.name }?.each { file ->
            file.eachLine { line -> if (line =~ /configSubmit|doDelete|createItem|doUninstall|pluginManager|script|restart|safeRestart|quietDown/) changes.add("  ${line}") }
        }
    }
    return "Failed logins (last 24 h, newest in memory; the CloudWatch alarm counts all): ${failed.size()}\\n${failed.join('\\n')}\\n" +
        "Administrative changes (audit trail, last 24 h): ${changes.size()}\\n${changes.join('\\n')}"
}

// No node: the review runs on the controller's flyweight executor, and the report is the build log.
stage('review') {
    String report = review()
    echo(report)
}
''') } }
}
