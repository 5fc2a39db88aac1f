package dev.fwframework.jenkins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.parser.CronParser;
import groovy.lang.GroovyShell;
import groovy.lang.Script;
import java.nio.file.Files;
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
 * the schedules are parsed by a cron parser, and each job's pipeline script is parsed by the Groovy compiler.
 */
class ComplianceJobsTest {
    static final Path JOBS = Paths.get("jobs/compliance-jobs.groovy").toAbsolutePath();
    static final Map<String, DslRecorder.Node> jobs = new LinkedHashMap<>();

    @BeforeAll
    static void runTheSeedScript() throws Exception {
        DslRecorder.Node root = new DslRecorder.Node("root", List.of());
        Script script = new GroovyShell().parse(JOBS.toFile());
        script.setMetaClass(null);
        script.setBinding(new groovy.lang.Binding());
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

    @Test
    void theAccessReviewFlagsUsersInactiveForMoreThan90Days() {
        String pipeline = (String) jobs.get("compliance-access-review").path("definition", "cps", "script").args.get(0);
        assertTrue(pipeline.contains("review(90)"));
        assertTrue(pipeline.contains("last < cutoff"));
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
