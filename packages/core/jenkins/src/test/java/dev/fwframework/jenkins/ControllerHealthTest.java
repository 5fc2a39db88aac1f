package dev.fwframework.jenkins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import groovy.json.JsonSlurper;
import groovy.lang.GroovyShell;
import hudson.model.Queue;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import jenkins.model.Jenkins;
import jenkins.util.Timer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The controller-health init script (init/fw-controller-health.groovy), compiled and run by Groovy against stand-ins
 * of the core classes it reads: it schedules one sample a minute, and each sample is one JSON line on standard output
 * with the fields the framework's metric filters read (JenkinsSpec.logAlarms()).
 */
class ControllerHealthTest {
    static final Path SCRIPT = Paths.get("init/fw-controller-health.groovy").toAbsolutePath();

    @BeforeAll
    static void runTheInitScript() throws Exception {
        Timer.SCHEDULED.clear();
        new GroovyShell().evaluate(SCRIPT.toFile());
    }

    /** One run of the scheduled sample: what it printed. */
    static String sample() {
        PrintStream out = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            Timer.SCHEDULED.get(0).task().run();
        } finally {
            System.setOut(out);
        }
        return printed.toString(StandardCharsets.UTF_8);
    }

    @Test
    void schedulesOneSampleAMinute() {
        assertEquals(1, Timer.SCHEDULED.size());
        Timer.Scheduled scheduled = Timer.SCHEDULED.get(0);
        assertEquals(60, scheduled.unit().toSeconds(scheduled.period()));
        assertEquals(60, scheduled.unit().toSeconds(scheduled.initialDelay()));
        assertEquals(TimeUnit.SECONDS, scheduled.unit());
    }

    @Test
    void aSampleIsOneJsonLineOfIntegers() {
        Jenkins jenkins = Jenkins.get();
        jenkins.queue.items.clear();
        long now = System.currentTimeMillis();
        jenkins.queue.items.add(new Queue.BuildableItem(now - 20 * 60_000, true));
        jenkins.queue.items.add(new Queue.BuildableItem(now - 30_000, false));
        jenkins.queue.items.add(new Queue.Item());
        jenkins.getPluginManager().failedPlugins.clear();
        jenkins.getPluginManager().failedPlugins.add("sonar");
        jenkins.numExecutors = 2;

        String printed = sample();
        assertTrue(printed.endsWith("\n") && printed.indexOf('\n') == printed.length() - 1, "one line: " + printed);
        assertTrue(printed.startsWith("{\"fwControllerHealth\":1,"), printed);
        @SuppressWarnings("unchecked")
        Map<String, Object> fields = (Map<String, Object>) new JsonSlurper().parseText(printed);
        assertEquals(1, fields.get("fwControllerHealth"));
        assertEquals(1, fields.get("stuckItems"));
        int wait = ((Number) fields.get("longestBuildableWaitSeconds")).intValue();
        assertTrue(wait >= 1200 && wait < 1210, "the oldest buildable item's wait: " + wait);
        assertEquals(1, fields.get("failedPlugins"));
        assertEquals(2, fields.get("builtInExecutors"));
        int heap = ((Number) fields.get("heapUsedPercent")).intValue();
        assertTrue(heap >= 0 && heap <= 100, "heap " + heap);
        for (Object value : fields.values()) assertTrue(value instanceof Integer || value instanceof Long, "integers only: " + fields);
    }

    @Test
    void anEmptyQueueWaitsNothing() {
        Jenkins.get().queue.items.clear();
        @SuppressWarnings("unchecked")
        Map<String, Object> fields = (Map<String, Object>) new JsonSlurper().parseText(sample());
        assertEquals(0, fields.get("stuckItems"));
        assertEquals(0, fields.get("longestBuildableWaitSeconds"));
    }
}
