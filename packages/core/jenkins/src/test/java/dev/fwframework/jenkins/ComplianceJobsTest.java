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
import groovy.json.JsonSlurper;
import hudson.ExtensionList;
import hudson.PluginWrapper;
import hudson.logging.LogRecorder;
import hudson.logging.LogRecorderManager;
import hudson.model.UpdateSite;
import hudson.model.User;
import hudson.plugins.audit_trail.AuditTrailPlugin;
import hudson.plugins.audit_trail.LogFileAuditLogger;
import hudson.util.RingBufferLogHandler;
import java.nio.file.Files;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import jenkins.model.Jenkins;
import jenkins.security.UpdateSiteWarningsMonitor;
import org.codehaus.groovy.control.CompilerConfiguration;
import org.codehaus.groovy.control.customizers.ImportCustomizer;
import org.codehaus.groovy.runtime.MethodClosure;
import org.junit.jupiter.api.AfterAll;
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

    /** Runs the seed script as configuration-as-code does at a start, against the DSL recorder. */
    static DslRecorder.Node seed() throws Exception {
        DslRecorder.Node root = new DslRecorder.Node("root", List.of());
        Binding binding = new Binding();
        binding.setVariable("COMPLIANCE_AUDITORS", AUDITORS);
        Script script = new GroovyShell(binding).parse(JOBS.toFile());
        DslRecorder.run(script, root);
        return root;
    }

    @BeforeAll
    static void runTheSeedScript() throws Exception {
        DslRecorder.Node root = seed();
        folder = root.children.get(0);
        for (DslRecorder.Node job : root.children.subList(1, root.children.size())) {
            assertEquals("pipelineJob", job.name);
            jobs.put((String) job.args.get(0), job);
        }
    }

    /** The auditors' group, as the configuration's `providedEnv` hands it to the seed script. */
    static final String AUDITORS = "pci-auditors";
    static DslRecorder.Node folder;

    /**
     * matrix-auth 3.2.8's folder property through Job DSL's dynamic DSL: `authorizationMatrix` (folder
     * AuthorizationMatrixProperty.java line 155), `nonInheriting` (NonInheritingStrategy.java line 83), `group`
     * (AuthorizationProperty.java lines 243-245), the form matrix-auth's own test uses
     * (src/test/resources/.../casc/configuration-as-code-v3.yml lines 77-93).
     */
    @Test
    void theJobsAreInAFolderThatInheritsNoGrantAndOnlyAuditorsRead() {
        assertEquals("folder", folder.name);
        assertEquals(List.of("compliance"), folder.args);
        DslRecorder.Node matrix = folder.path("properties", "authorizationMatrix");
        assertEquals(List.of(), matrix.path("inheritanceStrategy", "nonInheriting").args);
        DslRecorder.Node entries = matrix.child("entries");
        assertEquals(1, entries.children.size(), "one grant: the auditors' Job/Read; administrators hold Administer");
        DslRecorder.Node group = entries.child("group");
        assertEquals(List.of(AUDITORS), group.child("name").args);
        assertEquals(List.of(List.of("Job/Read")), group.child("permissions").args);
        jobs.keySet().forEach(name -> assertTrue(name.startsWith("compliance/"), name + " is in the folder"));
    }

    @AfterAll
    static void takeTheRecordersOffTheRootLogger() throws java.io.IOException {
        LogRecorder.detachAll();
        java.util.logging.LogManager.getLogManager().readConfiguration();
    }

    /** A top-level item the seed may delete, recording that it was. */
    static final class Item implements hudson.model.TopLevelItem {
        boolean deleted;

        @Override
        public void delete() {
            deleted = true;
        }
    }

    /** A folder of a stale job's name, which the seed must leave alone. */
    static final class Folder extends com.cloudbees.hudson.plugins.folder.AbstractFolder {
        boolean deleted;

        @Override
        public void delete() {
            deleted = true;
        }
    }

    /**
     * Deployments made before the jobs moved into compliance/ keep the root-level jobs (Job DSL run by
     * configuration-as-code deletes nothing, job-dsl SeedJobConfigurator.java lines 60-71); the seed deletes them at
     * the next start, leaves other items alone, and still defines the folder and its three jobs.
     */
    @Test
    void theSeedDeletesTheRootLevelJobsOfEarlierDeploymentsAndNothingElse() throws Exception {
        Map<String, hudson.model.TopLevelItem> items = Jenkins.get().items;
        Item review = new Item();
        Item update = new Item();
        Folder logReview = new Folder();
        Item other = new Item();
        items.put("compliance-access-review", review);
        items.put("compliance-update-check", update);
        items.put("compliance-log-review", logReview);
        items.put("my-pipeline", other);
        try {
            DslRecorder.Node root = seed();
            assertTrue(review.deleted && update.deleted, "the stale jobs are deleted");
            assertTrue(!logReview.deleted && !other.deleted, "a folder of that name and other items stay");
            assertEquals(List.of("println", "println", "folder", "pipelineJob", "pipelineJob", "pipelineJob"), root.children.stream().map(c -> c.name).toList());
            assertEquals(List.of("Deleting compliance-access-review: the compliance jobs are in the folder compliance/ now"),
                root.children.get(0).args.stream().map(String::valueOf).toList());
        } finally {
            items.clear();
        }
    }

    @Test
    void threeJobsWithTheSpecsSchedules() {
        Map<String, String> schedules = new LinkedHashMap<>();
        jobs.forEach((name, job) -> schedules.put(name,
            (String) job.path("properties", "pipelineTriggers", "triggers", "cron", "spec").args.get(0)));
        assertEquals(Map.of(
            "compliance/compliance-access-review", "0 0 1 1,4,7,10 *",
            "compliance/compliance-update-check", "0 2 * * 1",
            "compliance/compliance-log-review", "0 9 * * *"), schedules);
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
        return run(job, job);
    }

    /** Runs a job's pipeline script as a build of the job `runningIn` (`currentBuild.rawBuild.parent.fullName`). */
    private static Run run(String job, String runningIn) {
        String pipeline = (String) jobs.get(job).path("definition", "cps", "script").args.get(0);
        Run run = new Run(new ArrayList<>(), new ArrayList<>());
        Binding binding = new Binding();
        binding.setVariable("currentBuild", Map.of("rawBuild", Map.of("parent", Map.of("fullName", runningIn))));
        binding.setVariable("error", new MethodClosure(new Object() {
            @SuppressWarnings("unused")
            public Object error(String message) { throw new Pipeline.BuildFailure(message); }
        }, "error"));
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
        return new User(id, id.substring(0, 1).toUpperCase() + id.substring(1) + " Example", folder.toFile());
    }

    @BeforeEach
    void resetJenkins() {
        User.USERS.clear();
        Jenkins.logRecords = new ArrayList<>();
        LogRecorder.detachAll();
        Jenkins.get().setLog(new LogRecorderManager());
        ExtensionList.SINGLETONS.clear();
        Jenkins.get().pluginManager.plugins.clear();
        Jenkins.get().updateCenter.coreSource = null;
    }

    /**
     * Script approval is by content, not by job (script-security 1402.1405.vc96e74964250 ScriptApproval.java 647-668):
     * an approved text pasted into another job would run outside the sandbox there. Each compliance script refuses to
     * run anywhere but its own job before it reads anything, so a devops member's job cannot print the reports.
     */
    @Test
    void eachComplianceScriptRefusesToRunOutsideItsOwnJobBeforeReadingAnything() throws Exception {
        User.USERS.add(user("alice", 10));
        for (String job : jobs.keySet()) {
            for (String elsewhere : List.of("app-build", "team/" + job, job.replace("compliance/", ""))) {
                Pipeline.BuildFailure refused = org.junit.jupiter.api.Assertions.assertThrows(Pipeline.BuildFailure.class, () -> run(job, elsewhere));
                assertEquals("This compliance script runs only in the job " + job + ".", refused.getMessage());
            }
        }
        // Negative control: in its own job the access review reads the users.
        assertTrue(run("compliance/compliance-access-review").echoed().get(0).startsWith("1 users"));
    }

    @Test
    void theAccessReviewFlagsUsersWithoutASignInForMoreThan90Days() throws Exception {
        User.USERS.addAll(List.of(user("alice", 10), user("bob", 100), user("carol", null), user("dave", 89), user("erin", 91)));
        Run run = run("compliance/compliance-access-review");
        String report = run.echoed().get(0);
        assertTrue(report.startsWith("5 users, 3 flagged\n"), report);
        // Each line names the user: the id (the provider's opaque `sub`), then the full name.
        for (String active : List.of("alice", "dave")) assertTrue(report.matches("(?s).*\\n" + active + " +[A-Z]\\w+ Example +\\S+ +active(\\n.*|$)"), report);
        for (String flagged : List.of("bob", "erin")) assertTrue(report.matches("(?s).*\\n" + flagged + " +[A-Z]\\w+ Example +\\S+ +INACTIVE: no sign-in for more than 90 days.*"), report);
        assertTrue(report.matches("(?s).*\\ncarol +Carol Example +never +INACTIVE.*"), report);
        assertEquals(List.of("Users without a sign-in for more than 90 days: review and remove them."), run.unstable());

        User.USERS.removeIf(u -> !u.getId().equals("alice"));
        Run quiet = run("compliance/compliance-access-review");
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

        List<Run> runs = new ArrayList<>();
        // Jenkins' own log (the console handler of logging.properties), which both runtimes ship to the log group.
        String console = FailedSignInLogTest.console(FailedSignInLogTest.PROPERTIES, () -> runs.add(run("compliance/compliance-update-check")));
        Run run = runs.get(0);
        assertTrue(console.contains("WARNING: Jenkins security warning: git 5.10.1: Stored XSS https://www.jenkins.io/security/advisory/x\n"), console);
        assertEquals(String.join("\n",
            "Security warnings:",
            "  git 5.10.1: Stored XSS https://www.jenkins.io/security/advisory/x",
            "Plugin updates:",
            "  git 5.10.1 -> 5.11.0",
            "Core: 2.568.2 -> 2.568.3 available"), run.echoed().get(0));
        assertEquals(List.of("Security warnings are active: update the pinned versions."), run.unstable());
        assertEquals(refreshedBefore + 1, Jenkins.get().updateCenter.refreshed, "the update sites are refreshed first");

        monitor.plugins.clear();
        Run quiet = run("compliance/compliance-update-check");
        assertTrue(quiet.echoed().get(0).startsWith("Security warnings:\n  none\nPlugin updates:"), quiet.echoed().get(0));
        assertEquals(List.of(), quiet.unstable());
    }

    /**
     * The configuration's log recorder (src/test/resources/failed-sign-in-recorder.json, which jenkins-monitoring.test.ts
     * checks is FAILED_SIGN_IN_RECORDER, the jenkins.log.recorders entry), as configuration-as-code builds it: the
     * recorder by its @DataBoundConstructor and the targets through setLoggers (configuration-as-code 2117.vc05a_0b_e6b_f4e
     * BaseConfigurator.java:113-151 takes any setter with a getter; its demos/log-recorder/README.md and
     * integrations/.../LogRecorderTest.java configure this very shape).
     */
    @SuppressWarnings("unchecked")
    private static LogRecorder configuredRecorder() throws Exception {
        Map<String, Object> config = (Map<String, Object>) new JsonSlurper().parseText(
            Files.readString(Paths.get("src/test/resources/failed-sign-in-recorder.json")));
        LogRecorder recorder = new LogRecorder((String) config.get("name"));
        List<LogRecorder.Target> targets = new ArrayList<>();
        for (Map<String, String> t : (List<Map<String, String>>) config.get("loggers")) targets.add(new LogRecorder.Target(t.get("name"), t.get("level")));
        recorder.setLoggers(targets);
        return recorder;
    }

    /** Runs `log` with the build server's logging configuration and the configured recorder collecting, as Jenkins has it. */
    private static void recordSignIns(Runnable log) {
        List<LogRecorder> recorders = new ArrayList<>();
        FailedSignInLogTest.console(FailedSignInLogTest.PROPERTIES, () -> {
            try {
                recorders.add(configuredRecorder());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            log.run();
        });
        Jenkins.get().getLog().setRecorders(recorders);
    }

    /**
     * The sign-in records are the pinned code's (SignInLog), created by the JDK's loggers with the levels of the
     * build server's logging.properties and collected by the recorder as core collects them (LogRecorder stand-in).
     */
    @Test
    void theLogReviewListsTheLastDaysFailedSignInsAndAdministrativeChanges() throws Exception {
        Instant now = Instant.now();
        recordSignIns(() -> {
            SignInLog.apiTokenRejected("old", "x", now.minus(Duration.ofDays(2)));
            SignInLog.callbackRejected("a", now.minusSeconds(600));
            SignInLog.apiTokenRejected("mallory", "11aa22bb", now.minusSeconds(500));
            SignInLog.loginFormRejected("mallory", "Winter2026!", now.minusSeconds(400));
            SignInLog.identityProviderError("access_denied", now.minusSeconds(300));
            SignInLog.apiTokenRejected("eve\nApproved: nothing to see", "y", now.minusSeconds(250));
            SignInLog.signedIn("alice", List.of("developers"), now.minusSeconds(200));
            SignInLog.apiTokenAccepted("ci-bot", now.minusSeconds(190));
            SignInLog.signedInWithoutGroups(now.minusSeconds(180));
            SignInLog.tokenRefreshFailed(now.minusSeconds(170));
            SignInLog.otherUnhandledException("b", now.minusSeconds(160));
            SignInLog.startedUp(now.minusSeconds(150));
        });
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

        Run run = run("compliance/compliance-log-review");
        List<String> expected = List.of(
            "Failed sign-ins (last 24 h, of the newest 256 records the log recorder keeps since the last start; the CloudWatch alarm counts all): 5",
            "  " + now.minusSeconds(600) + " sign-in callback rejected: org.pac4j.oidc.exceptions.OidcStateMismatchException: State parameter is different from the one sent in authentication request.",
            "  " + now.minusSeconds(500) + " API token rejected: user mallory",
            "  " + now.minusSeconds(400) + " login form rejected: user mallory",
            "  " + now.minusSeconds(300) + " identity provider refused the sign-in: Bad authentication response, error=access_denied",
            "  " + now.minusSeconds(250) + " API token rejected: user eve?Approved: nothing to see",
            "OIDC realm warnings (last 24 h): 2",
            "  " + now.minusSeconds(180) + " idToken and userInfo did not contain group field name: groups",
            "  " + now.minusSeconds(170) + " Failed to refresh expired token: org.pac4j.core.exception.TechnicalException: Bad token response, error=invalid_request",
            "Administrative changes (audit trail, last 24 h): 2",
            "  Nov 26, 2026 09:01 /job/app/configSubmit by alice from 10.0.0.1",
            "  Nov 26, 2026 09:03 /manage/pluginManager/installNecessaryPlugins by admin from 10.0.0.3");
        assertEquals(expected, List.of(run.echoed().get(0).split("\n")));
        assertEquals(List.of(), run.unstable());
    }

    /**
     * A recorder keeps the newest records only (core LogRecorder.java:217 `new RingBufferLogHandler()`, 256 records
     * unless -Dhudson.util.RingBufferLogHandler.defaultSize says otherwise, RingBufferLogHandler.java:39, 50-53).
     */
    @Test
    void whenTheRecorderIsFullOfTheLastDayTheLogReviewSaysItIsIncompleteAndIsUnstable() {
        Instant now = Instant.now();
        recordSignIns(() -> {
            for (int i = 300; i > 0; i--) SignInLog.apiTokenRejected("mallory" + i, "x", now.minusSeconds(i));
        });
        ExtensionList.SINGLETONS.put(AuditTrailPlugin.class, new AuditTrailPlugin());
        Run run = run("compliance/compliance-log-review");
        String[] lines = run.echoed().get(0).split("\n");
        assertTrue(lines[0].endsWith(": 256"), lines[0]);
        assertEquals("  INCOMPLETE: the log recorder is full, older records are gone; count the failed sign-ins in CloudWatch", lines[1]);
        assertTrue(lines[2].endsWith(" API token rejected: user mallory256"), lines[2]);
        assertEquals(List.of("More sign-in records than the log recorder keeps: review the failed sign-ins in CloudWatch."), run.unstable());
    }

    /**
     * Of the recorder's targets that cover a record, the one with the longest name decides whether it is kept (core
     * LogRecorder.java:217-236, 300-314), and the records read newest first (RingBufferLogHandler.java:89-117).
     */
    @Test
    void theMostSpecificTargetCoveringARecordDecidesWhetherTheRecorderKeepsIt() {
        List<LogRecorder> recorders = new ArrayList<>();
        FailedSignInLogTest.console(null, () -> {
            LogRecorder recorder = new LogRecorder("test");
            recorder.setLoggers(List.of(new LogRecorder.Target("org", "FINE"), new LogRecorder.Target("org.pac4j", "WARNING")));
            recorders.add(recorder);
            Map<String, Logger> loggers = new LinkedHashMap<>();
            for (String name : List.of("org", "org.pac4j", "org.pac4j.oidc", "org.pac4jx", "com.example")) {
                loggers.put(name, Logger.getLogger(name));
                loggers.get(name).setLevel(Level.ALL);
            }
            loggers.get("org.pac4j.oidc").fine("under org.pac4j, below WARNING: dropped though org takes FINE");
            loggers.get("org.pac4j.oidc").warning("under org.pac4j, WARNING: kept");
            loggers.get("org.pac4j").info("org.pac4j itself, below WARNING: dropped");
            loggers.get("org.pac4jx").fine("not under org.pac4j, under org at FINE: kept");
            loggers.get("org").finer("org itself, below FINE: dropped");
            loggers.get("com.example").severe("no target covers it: dropped");
        });
        assertEquals(List.of("not under org.pac4j, under org at FINE: kept", "under org.pac4j, WARNING: kept"),
            recorders.get(0).getLogRecords().stream().map(LogRecord::getMessage).toList());
    }

    /** A ring buffer keeps its newest records, newest first, and ignores null (core RingBufferLogHandler.java:68-117). */
    @Test
    void aRingBufferKeepsItsNewestRecordsNewestFirst() {
        RingBufferLogHandler buffer = new RingBufferLogHandler(2);
        for (String message : List.of("a", "b", "c")) buffer.publish(new LogRecord(Level.INFO, message));
        buffer.publish(null);
        assertEquals(List.of("c", "b"), buffer.getView().stream().map(LogRecord::getMessage).toList());
        assertEquals(256, RingBufferLogHandler.getDefaultRingBufferSize());
    }

    @Test
    void withoutTheLogRecorderTheLogReviewSaysItCannotCountAndIsUnstable() {
        ExtensionList.SINGLETONS.put(AuditTrailPlugin.class, new AuditTrailPlugin());
        Run run = run("compliance/compliance-log-review");
        assertEquals("Failed sign-ins: UNKNOWN, the configuration has no log recorder 'failed-sign-ins'\n"
            + "Administrative changes (audit trail, last 24 h): 0", run.echoed().get(0));
        assertEquals(List.of("No log recorder failed-sign-ins: add it to the configuration (jenkins.log.recorders)."), run.unstable());
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
