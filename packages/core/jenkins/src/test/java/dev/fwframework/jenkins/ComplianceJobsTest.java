package dev.fwframework.jenkins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.parser.CronParser;
import groovy.lang.Binding;
import groovy.lang.Closure;
import groovy.lang.GroovyShell;
import groovy.lang.Script;
import hudson.ExtensionList;
import hudson.PluginWrapper;
import hudson.model.UpdateSite;
import hudson.model.User;
import hudson.plugins.audit_trail.AuditTrailPlugin;
import hudson.plugins.audit_trail.LogFileAuditLogger;
import java.nio.file.Files;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import jenkins.model.Jenkins;
import jenkins.security.UpdateSiteWarningsMonitor;
import org.codehaus.groovy.control.CompilerConfiguration;
import org.codehaus.groovy.control.customizers.ImportCustomizer;
import org.codehaus.groovy.runtime.MethodClosure;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.codehaus.groovy.control.CompilationUnit;
import org.codehaus.groovy.control.Phases;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The seeded compliance jobs: the Job DSL script is compiled and run by Groovy against a recorder of the DSL calls,
 * the schedules are parsed by a cron parser, each job's pipeline script is parsed by the Groovy compiler and run
 * against stand-ins of the Jenkins classes it reads.
 */
class ComplianceJobsTest {
    static final Path JOBS = Paths.get("jobs/compliance-jobs.groovy").toAbsolutePath();
    static final Map<String, DslRecorder.Node> jobs = new LinkedHashMap<>();

    @BeforeAll
    static void runTheSeedScript() throws Exception {
        DslRecorder.Node root = new DslRecorder.Node("root", List.of());
        Script script = new GroovyShell().parse(JOBS.toFile());
        DslRecorder.run(script, root);
        for (DslRecorder.Node job : root.children) {
            assertEquals("pipelineJob", job.name);
            jobs.put((String) job.args.get(0), job);
        }
    }

    @Test
    void threeJobsWithTheSpecsSchedules() {
        Map<String, String> schedules = new LinkedHashMap<>();
        jobs.forEach((name, job) -> schedules.put(name,
            (String) job.path("properties", "pipelineTriggers", "triggers", "cron", "spec").args.get(0)));
        assertEquals(Map.of(
            "compliance-access-review", "0 0 1 1,4,7,10 *",
            "compliance-update-check", "0 2 * * 1",
            "compliance-log-review", "0 9 * * *"), schedules);
        CronParser parser = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));
        schedules.values().forEach(cron -> parser.parse(cron).validate());
    }

    @Test
    void eachJobRunsAPipelineScriptThatCompiles() {
        jobs.forEach((name, job) -> {
            DslRecorder.Node cps = job.path("definition", "cps");
            assertEquals(List.of(false), cps.child("sandbox").args, name + " reads Jenkins itself, outside the sandbox");
            String pipeline = (String) cps.child("script").args.get(0);
            CompilationUnit unit = new CompilationUnit();
            unit.addSource(name, pipeline);
            unit.compile(Phases.CONVERSION); // syntax: Jenkins' classes are not on this class path
            assertTrue(pipeline.contains("@NonCPS"), name);
        });
    }

    @TempDir Path home;

    /** What a run of a job's pipeline printed and whether it marked the build unstable. */
    record Run(List<String> echoed, List<String> unstable) {}

    /**
     * Runs a job's pipeline script in Groovy against the stand-ins of the Jenkins classes it reads (the test sources'
     * hudson.*, jenkins.* packages, with core's signatures), with the steps it calls recorded.
     */
    private static Run run(String job) {
        String pipeline = (String) jobs.get(job).path("definition", "cps", "script").args.get(0);
        Run run = new Run(new ArrayList<>(), new ArrayList<>());
        Binding binding = new Binding();
        binding.setVariable("stage", new MethodClosure(new Object() {
            @SuppressWarnings("unused")
            public Object stage(String name, Closure<?> body) { return body.call(); }
        }, "stage"));
        binding.setVariable("echo", new MethodClosure(run.echoed(), "add"));
        binding.setVariable("unstable", new MethodClosure(run.unstable(), "add"));
        CompilerConfiguration config = new CompilerConfiguration();
        config.addCompilationCustomizers(new ImportCustomizer().addImports("com.cloudbees.groovy.cps.NonCPS"));
        new GroovyShell(ComplianceJobsTest.class.getClassLoader(), binding, config).evaluate(pipeline);
        return run;
    }

    private static long daysAgo(int days) {
        return System.currentTimeMillis() - days * 86_400_000L;
    }

    private User user(String id, Integer lastSignInDaysAgo) throws Exception {
        Path folder = Files.createDirectories(home.resolve("users").resolve(id));
        if (lastSignInDaysAgo != null) {
            Path config = Files.writeString(folder.resolve("config.xml"), "<user/>");
            Files.setLastModifiedTime(config, FileTime.fromMillis(daysAgo(lastSignInDaysAgo)));
        }
        return new User(id, folder.toFile());
    }

    @BeforeEach
    void resetJenkins() {
        User.USERS.clear();
        Jenkins.logRecords = new ArrayList<>();
        ExtensionList.SINGLETONS.clear();
        Jenkins.get().pluginManager.plugins.clear();
        Jenkins.get().updateCenter.coreSource = null;
    }

    @Test
    void theAccessReviewFlagsUsersWithoutASignInForMoreThan90Days() throws Exception {
        User.USERS.addAll(List.of(user("alice", 10), user("bob", 100), user("carol", null), user("dave", 89), user("erin", 91)));
        Run run = run("compliance-access-review");
        String report = run.echoed().get(0);
        assertTrue(report.startsWith("5 users, 3 flagged\n"), report);
        for (String active : List.of("alice", "dave")) assertTrue(report.matches("(?s).*\\n" + active + " +\\S+ +active(\\n.*|$)"), report);
        for (String flagged : List.of("bob", "erin")) assertTrue(report.matches("(?s).*\\n" + flagged + " +\\S+ +INACTIVE: no sign-in for more than 90 days.*"), report);
        assertTrue(report.matches("(?s).*\\ncarol +never +INACTIVE.*"), report);
        assertEquals(List.of("Users without a sign-in for more than 90 days: review and remove them."), run.unstable());

        User.USERS.removeIf(u -> !u.getId().equals("alice"));
        Run quiet = run("compliance-access-review");
        assertTrue(quiet.echoed().get(0).startsWith("1 users, 0 flagged"));
        assertEquals(List.of(), quiet.unstable());
    }

    @Test
    void theUpdateCheckReportsSecurityWarningsFirstThenPluginAndCoreUpdates() {
        UpdateSiteWarningsMonitor monitor = new UpdateSiteWarningsMonitor();
        PluginWrapper git = new PluginWrapper("git", "5.10.1", "5.11.0");
        monitor.plugins.put(git, List.of(new UpdateSite.Warning("Stored XSS", "https://www.jenkins.io/security/advisory/x")));
        ExtensionList.SINGLETONS.put(UpdateSiteWarningsMonitor.class, monitor);
        Jenkins.get().pluginManager.plugins.addAll(List.of(git, new PluginWrapper("ldap", "807", null)));
        Jenkins.get().updateCenter.coreSource = new UpdateSite(new UpdateSite.Data(new UpdateSite.Entry("2.568.3")));
        int refreshedBefore = Jenkins.get().updateCenter.refreshed;

        Run run = run("compliance-update-check");
        assertEquals(String.join("\n",
            "Security warnings:",
            "  git 5.10.1: Stored XSS https://www.jenkins.io/security/advisory/x",
            "Plugin updates:",
            "  git 5.10.1 -> 5.11.0",
            "Core: 2.568.2 -> 2.568.3 available"), run.echoed().get(0));
        assertEquals(List.of("Security warnings are active: update the pinned versions."), run.unstable());
        assertEquals(refreshedBefore + 1, Jenkins.get().updateCenter.refreshed, "the update sites are refreshed first");

        monitor.plugins.clear();
        Run quiet = run("compliance-update-check");
        assertTrue(quiet.echoed().get(0).startsWith("Security warnings:\n  none\nPlugin updates:"), quiet.echoed().get(0));
        assertEquals(List.of(), quiet.unstable());
    }

    @Test
    void theLogReviewSummarisesTheLastDaysFailedLoginsAndAdministrativeChanges() throws Exception {
        Jenkins.logRecords.add(record("failed to log in: {0}", "mallory", daysAgo(0)));
        Jenkins.logRecords.add(record("failed to authenticate: {0}", "ci-bot", daysAgo(0)));
        Jenkins.logRecords.add(record("failed to log in: {0}", "old", daysAgo(2)));
        Jenkins.logRecords.add(record("logged in: {0}", "alice", daysAgo(0)));
        Path logs = Files.createDirectories(home.resolve("logs"));
        Files.writeString(logs.resolve("audit-0.log"), String.join("\n",
            "Nov 26, 2026 09:01 /job/app/configSubmit by alice from 10.0.0.1",
            "Nov 26, 2026 09:02 /job/app/build by bob from 10.0.0.2",
            "Nov 26, 2026 09:03 /manage/pluginManager/installNecessaryPlugins by admin from 10.0.0.3", ""));
        Path old = Files.writeString(logs.resolve("audit-1.log"), "Nov 20, 2026 /job/old/doDelete by eve from 10.0.0.4\n");
        Files.setLastModifiedTime(old, FileTime.fromMillis(daysAgo(3)));
        Files.writeString(logs.resolve("jenkins.log"), "/job/app/configSubmit in another file\n");
        AuditTrailPlugin audit = new AuditTrailPlugin();
        audit.loggers.add(new LogFileAuditLogger(logs.resolve("audit-%g.log").toString()));
        ExtensionList.SINGLETONS.put(AuditTrailPlugin.class, audit);

        String report = run("compliance-log-review").echoed().get(0);
        String[] lines = report.split("\n");
        assertTrue(lines[0].startsWith("Failed logins (last 24 h"), report);
        assertTrue(lines[0].endsWith(": 2"), report);
        assertTrue(lines[1].endsWith(" failed to log in: mallory"), report);
        assertTrue(lines[2].endsWith(" failed to authenticate: ci-bot"), report);
        assertEquals("Administrative changes (audit trail, last 24 h): 2", lines[3]);
        assertEquals("  Nov 26, 2026 09:01 /job/app/configSubmit by alice from 10.0.0.1", lines[4]);
        assertEquals("  Nov 26, 2026 09:03 /manage/pluginManager/installNecessaryPlugins by admin from 10.0.0.3", lines[5]);
        assertEquals(6, lines.length, report);
    }

    private static LogRecord record(String message, String user, long millis) {
        LogRecord record = new LogRecord(Level.FINE, message);
        record.setParameters(new Object[] {user});
        record.setInstant(java.time.Instant.ofEpochMilli(millis));
        return record;
    }

    /**
     * The configuration pre-approves the pipeline scripts by hash, and the TypeScript side reads them out of the seed
     * script by a rule (compliance-jobs.ts: the text of each script(''' ... '''), with \\ read as \). The same rule
     * here must give exactly what Groovy gives.
     */
    @Test
    void theScriptsTheConfigurationApprovesAreTheScriptsGroovyReads() throws Exception {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("script\\('''([\\s\\S]*?)'''\\)").matcher(Files.readString(JOBS));
        List<String> byRule = new java.util.ArrayList<>();
        while (m.find()) byRule.add(m.group(1).replace("\\\\", "\\"));
        List<Object> byGroovy = jobs.values().stream().map(job -> job.path("definition", "cps", "script").args.get(0)).toList();
        assertEquals(byGroovy, byRule);
    }
}
