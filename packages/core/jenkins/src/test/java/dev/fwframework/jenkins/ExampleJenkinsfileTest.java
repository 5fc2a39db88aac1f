package dev.fwframework.jenkins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import groovy.lang.Binding;
import groovy.lang.Closure;
import groovy.lang.GroovyShell;
import groovy.lang.MissingMethodException;
import groovy.lang.Script;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.codehaus.groovy.ast.AnnotatedNode;
import org.codehaus.groovy.ast.AnnotationNode;
import org.codehaus.groovy.ast.ClassCodeVisitorSupport;
import org.codehaus.groovy.ast.ClassNode;
import org.codehaus.groovy.ast.expr.ConstantExpression;
import org.codehaus.groovy.ast.expr.Expression;
import org.codehaus.groovy.ast.expr.ListExpression;
import org.codehaus.groovy.classgen.GeneratorContext;
import org.codehaus.groovy.control.CompilePhase;
import org.codehaus.groovy.control.CompilerConfiguration;
import org.codehaus.groovy.control.SourceUnit;
import org.codehaus.groovy.control.customizers.CompilationCustomizer;
import org.codehaus.groovy.control.customizers.ImportCustomizer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's example Jenkinsfile (examples/Jenkinsfile), run in Groovy with the pipeline library's real steps
 * (Pipeline: vars/*.groovy with src/ on the class path, its stand-ins for sh, withEnv, withCredentials, timeout,
 * waitForQualityGate, ...) and stand-ins for the steps the Jenkinsfile adds (node, stage, checkout, withSonarQubeEnv,
 * input). Every step call is recorded with the node block and stage around it.
 *
 * The stand-ins hold Jenkins' rules that matter here:
 * <ul>
 * <li>a step that needs a workspace fails outside node, with Jenkins' message (workflow-step-api's
 *     MissingContextVariableException.java:37-50, read at 710.v3e456cc85233, the newest release held here and the same
 *     since 678; the pinned release is not held): sh needs hudson.FilePath (workflow-durable-task-step@1479.v56e587f413a_7
 *     DurableTaskStep.java:187-188), which only node provides (ExecutorStepExecution.java:1129-1144); checkout, readFile,
 *     pwd and withSonarQubeEnv are treated alike. waitForQualityGate needs none (sonar-2.18.2
 *     WaitForQualityGateStep.java:456-458), nor do stage, timeout, withEnv, withCredentials, echo, error and input;</li>
 * <li>a node block whose label no agent carries fails here, where Jenkins would leave it in the queue for ever: the
 *     controller has no executors, and the ECS agents take only jobs for their label (Mode.EXCLUSIVE,
 *     amazon-ecs-1.49 ECSSlave.java:102);</li>
 * <li>the library's steps exist only when @Library('fw-pci') loads them (the global library is not implicit).</li>
 * </ul>
 * Not checked here: CPS transformation and the script-security sandbox (plain Groovy runs the file), and the plugins
 * themselves.
 */
class ExampleJenkinsfileTest {
    static final Path JENKINSFILE = Paths.get("examples/Jenkinsfile").toAbsolutePath();
    /** The label of the ECS cloud's agent template (build-server/jenkins-agents.ts, AGENT_DEFAULTS.label). */
    static final String AGENT_LABEL = "fw-agent";
    /** The library's gates, as the Jenkinsfile calls them. */
    static final List<String> GATES = List.of("checkTestCardData", "vulnerabilityGate", "qualityGate", "productionDeploymentGate");
    /** Steps that wait for something outside the build (a webhook, a person): they must not hold an agent. */
    static final Set<String> WAITING_STEPS = Set.of("waitForQualityGate", "input");

    static final String MERGED = "Merge pull request #42 from team/refunds\n\nAdd refunds\n\nChange-Ticket: CHG-1001\n";

    @TempDir Path workspace;

    /** A step the build called: its name, arguments, the label of the node block around it (null: none), its stage. */
    record Call(String step, List<Object> args, String node, String stage) {
        /** The script of an sh call, given as sh 'x' or sh(script: 'x', ...). */
        String script() {
            Object first = args.get(0);
            return first instanceof Map<?, ?> m ? String.valueOf(m.get("script")) : String.valueOf(first);
        }
    }

    /** A step that needs a workspace was called outside node: the message Jenkins gives (MissingContextVariableException). */
    static final class MissingContext extends RuntimeException {
        MissingContext(String step) {
            super("Required context class hudson.FilePath is missing\nPerhaps you forgot to surround the " + step
                + " step with a step that provides this, such as: node");
        }
    }

    /** A node block no agent can take: Jenkins would leave the build waiting in the queue. */
    static final class NoAgent extends RuntimeException {
        NoAgent(String label) {
            super("There are no nodes with the label '" + label + "': the build would wait for an executor for ever");
        }
    }

    /** One run of a Jenkinsfile. */
    static final class Run {
        final Pipeline pipeline;
        final List<String> libraries = new ArrayList<>();
        final List<Call> calls = new ArrayList<>();
        RuntimeException failure;
        private final Deque<String> nodes = new ArrayDeque<>();
        private final Deque<String> stages = new ArrayDeque<>();
        private final Binding binding;

        Run(Pipeline pipeline) {
            this.pipeline = pipeline;
            // Pipeline's binding, which the library's vars are run with: a closure of its shell sees it as `binding`.
            this.binding = (Binding) pipeline.closure("{ -> binding }").call();
            for (String name : List.of("sh", "readFile", "pwd")) wrap(name, true);
            for (String name : List.of("echo", "error", "timeout", "withEnv", "withCredentials", "waitForQualityGate")) wrap(name, false);
            binding.setVariable("node", new Step("node", false, args -> {
                String label = args.length == 2 ? String.valueOf(args[0]) : null;
                if (!AGENT_LABEL.equals(label)) throw new NoAgent(label == null ? "(any)" : label);
                nodes.push(label);
                try {
                    return ((Closure<?>) args[args.length - 1]).call();
                } finally {
                    nodes.pop();
                }
            }));
            binding.setVariable("stage", new Step("stage", false, args -> {
                stages.push(String.valueOf(args[0]));
                try {
                    return ((Closure<?>) args[1]).call();
                } finally {
                    stages.pop();
                }
            }));
            binding.setVariable("checkout", new Step("checkout", true, args -> null));
            // The wrapper records the analysis' task id when its block ends; waitForQualityGate needs it.
            binding.setVariable("withSonarQubeEnv", new Step("withSonarQubeEnv", true, args -> {
                Object result = ((Closure<?>) args[1]).call();
                pipeline.sonarAnalysisRan = true;
                return result;
            }));
            binding.setVariable("input", new Step("input", false, args -> null));
            binding.setVariable("scm", "scm");
            binding.setVariable("env", pipeline.env);
            pipeline.sonarAnalysisRan = false;
        }

        /** Records a step of Pipeline's and keeps its behaviour. */
        private void wrap(String name, boolean needsWorkspace) {
            Closure<?> original = (Closure<?>) binding.getVariable(name);
            binding.setVariable(name, new Step(name, needsWorkspace, original::call));
        }

        /** A step: recorded with where it ran, refused outside node if it needs a workspace. */
        final class Step extends Closure<Object> {
            private final String name;
            private final boolean needsWorkspace;
            private final Function<Object[], Object> body;

            Step(String name, boolean needsWorkspace, Function<Object[], Object> body) {
                super(Run.this);
                this.name = name;
                this.needsWorkspace = needsWorkspace;
                this.body = body;
            }

            @Override
            public Object call(Object... args) {
                return doCall(args);
            }

            public Object doCall(Object... args) {
                calls.add(new Call(name, Arrays.asList(args), nodes.peek(), stages.peek()));
                if (needsWorkspace && nodes.isEmpty()) throw new MissingContext(name);
                return body.apply(args);
            }
        }

        /** Compiles the Jenkinsfile as Jenkins does (Library imported, @Library read at CONVERSION) and runs it. */
        Run run(String jenkinsfile) {
            CompilerConfiguration config = new CompilerConfiguration();
            config.addCompilationCustomizers(new ImportCustomizer().addImports("org.jenkinsci.plugins.workflow.libs.Library"),
                new LibraryReader(libraries));
            Script script = new GroovyShell(ExampleJenkinsfileTest.class.getClassLoader(), binding, config).parse(jenkinsfile, "Jenkinsfile");
            if (libraries.contains("fw-pci")) {
                for (File var : Pipeline.LIBRARY.resolve("vars").toFile().listFiles()) {
                    String name = var.getName().replaceFirst("\\.groovy$", "");
                    binding.setVariable(name, new Step(name, false, args -> pipeline.call(name, args)));
                }
            }
            try {
                script.run();
            } catch (RuntimeException e) {
                failure = e;
            }
            return this;
        }

        List<Call> calls(String step) {
            return calls.stream().filter(c -> c.step().equals(step)).toList();
        }

        List<String> steps() {
            return calls.stream().map(Call::step).toList();
        }

        /** The steps that wait for something outside the build while a node block holds an agent. */
        List<Call> waitsHoldingAnAgent() {
            return calls.stream().filter(c -> WAITING_STEPS.contains(c.step()) && c.node() != null).toList();
        }
    }

    /**
     * The values of @Library annotations, read as pipeline-groovy-lib reads them (LibraryDecorator.java lines 73-122 at
     * 798.v5cc688825312: at CONVERSION, by simple or full name, a string or a list of strings).
     */
    static final class LibraryReader extends CompilationCustomizer {
        private final List<String> libraries;

        LibraryReader(List<String> libraries) {
            super(CompilePhase.CONVERSION);
            this.libraries = libraries;
        }

        @Override
        public void call(SourceUnit source, GeneratorContext context, ClassNode classNode) {
            new ClassCodeVisitorSupport() {
                @Override protected SourceUnit getSourceUnit() { return source; }

                @Override public void visitAnnotations(AnnotatedNode node) {
                    super.visitAnnotations(node);
                    for (AnnotationNode annotation : node.getAnnotations()) {
                        String name = annotation.getClassNode().getName();
                        if (name.equals("Library") || name.equals("org.jenkinsci.plugins.workflow.libs.Library")) add(annotation.getMember("value"));
                    }
                }

                private void add(Expression value) {
                    if (value instanceof ConstantExpression c) libraries.add(String.valueOf(c.getValue()));
                    else if (value instanceof ListExpression l) l.getExpressions().forEach(this::add);
                }
            }.visitClass(classNode);
        }
    }

    /** Findings the scan reports, by severity (the jq calls read SEVERITY from the environment). */
    private final Map<String, Integer> findings = new HashMap<>(Map.of("CRITICAL", 0, "HIGH", 0));
    private final Map<String, String> ticketStatus = new HashMap<>(Map.of("CHG-1001", "approved"));
    private String commitMessage = MERGED;

    @BeforeEach
    void testData() throws IOException {
        Files.createDirectories(workspace.resolve("src/test/resources"));
        Files.writeString(workspace.resolve("src/test/resources/payments.json"), "{\"card\": \"4111 1111 1111 1111\", \"cvv\": \"123\"}\n");
        Files.writeString(workspace.resolve("src/test/Refunds.java"), "class Refunds { String card = \"5555555555554444\"; }\n");
    }

    /** A build of the branch, with the tools on the agent answered: git, gh, jq and the change-ticket lookup. */
    private Run build(String branch, String jenkinsfile) {
        Pipeline pipeline = new Pipeline(workspace);
        pipeline.env.put("BRANCH_NAME", branch);
        pipeline.credentials.put("github-token", "ghp_example");
        pipeline.shAnswers = script -> {
            if (script.equals("git ls-files -- src/test")) return files();
            if (script.startsWith("jq ")) return findings.get(pipeline.env.get("SEVERITY")) + "\n";
            if (script.equals("git log -1 --format=%B")) return commitMessage;
            if (script.startsWith("gh pr view 42 ")) return "ghp_example".equals(pipeline.env.get("GH_TOKEN")) ? "APPROVED\n" : "";
            if (script.equals("./ci/change-ticket-status \"$TICKET\"")) return ticketStatus.getOrDefault(pipeline.env.get("TICKET"), "unknown") + "\n";
            return ""; // the build, the analysis, the scan and the deployment
        };
        return new Run(pipeline).run(jenkinsfile);
    }

    private Run build(String branch) throws IOException {
        return build(branch, Files.readString(JENKINSFILE));
    }

    private String files() {
        try (Stream<Path> paths = Files.walk(workspace.resolve("src/test"))) {
            return paths.filter(Files::isRegularFile).map(p -> workspace.relativize(p).toString()).sorted().reduce("", (a, b) -> a + b + "\n");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The Jenkinsfile with one line moved: the line containing `line` is taken out and put after the line containing `after`. */
    private static String moved(String jenkinsfile, String line, String after) {
        List<String> lines = new ArrayList<>(List.of(jenkinsfile.split("\n", -1)));
        String taken = lines.stream().filter(l -> l.contains(line)).reduce((a, b) -> { throw new AssertionError("twice: " + line); })
            .orElseThrow(() -> new AssertionError("no line " + line));
        lines.remove(taken);
        int at = lines.indexOf(lines.stream().filter(l -> l.contains(after)).findFirst().orElseThrow(() -> new AssertionError("no line " + after)));
        lines.add(at + 1, taken);
        return String.join("\n", lines);
    }

    @Test
    void onMainTheBuildRunsOnFwAgentsTheGatesInTheFilesOrderAndTheQualityGateWaitsHoldingNoAgent() throws IOException {
        Run run = build("main");
        assertNull(run.failure, () -> "the build failed: " + run.failure + "\n" + run.steps());
        assertEquals(List.of("fw-pci"), run.libraries);

        // Two node blocks, both asking for exactly the ECS agents' label.
        assertEquals(List.of(List.of(AGENT_LABEL), List.of(AGENT_LABEL)), run.calls("node").stream().map(Call::args)
            .map(a -> a.subList(0, a.size() - 1)).toList());
        // Everything that touches a workspace ran inside them, the library's own sh and readFile calls included.
        for (String step : List.of("checkout", "sh", "readFile", "withSonarQubeEnv")) {
            assertTrue(run.calls(step).size() > 0, step);
            run.calls(step).forEach(c -> assertEquals(AGENT_LABEL, c.node(), c::toString));
        }
        Call buildAndTest = run.calls("sh").get(0);
        assertEquals(new Call("sh", List.of("./build.sh test"), AGENT_LABEL, "Build and test"), buildAndTest);
        Call checkout = run.calls("checkout").get(0);
        assertEquals(new Call("checkout", List.of("scm"), AGENT_LABEL, "Checkout"), checkout);
        assertTrue(run.calls.indexOf(checkout) < run.calls.indexOf(buildAndTest), "the checkout comes first");

        // The gates, in the order the file gives them, each where the file puts it.
        String text = Files.readString(JENKINSFILE);
        List<String> byFile = GATES.stream().sorted(Comparator.comparingInt(g -> text.indexOf(g + "("))).toList();
        assertEquals(GATES, byFile);
        assertEquals(GATES, run.steps().stream().filter(GATES::contains).toList());
        assertEquals(List.of("fw-agent", "fw-agent", "-", "fw-agent"),
            GATES.stream().map(g -> run.calls(g).get(0).node() == null ? "-" : run.calls(g).get(0).node()).toList());
        assertEquals(List.of(Map.of("files", List.of("src/test/Refunds.java", "src/test/resources/payments.json"))),
            run.calls("checkTestCardData").get(0).args());
        assertEquals(List.of(Map.of("critical", 0, "high", 0)), run.calls("vulnerabilityGate").get(0).args());
        assertEquals(List.of(Map.of("webhookSecretId", "sonar-webhook-secret")), run.calls("qualityGate").get(0).args());

        // What waits (SonarQube's webhook here; an input if one is added) holds no agent.
        assertEquals(1, run.calls("waitForQualityGate").size());
        assertEquals(List.of(), run.waitsHoldingAnAgent());
        assertEquals(new Call("timeout", List.of(Map.of("time", 10, "unit", "MINUTES")), null, "Quality gate"),
            withoutClosures(run.calls("timeout").get(0)));

        // The deployment gate checked the commit of the second agent's checkout, with the token bound, then deploy ran.
        assertTrue(run.pipeline.log.contains("echo Production deployment allowed: pull request #42 APPROVED, change ticket CHG-1001 approved"),
            () -> String.join("\n", run.pipeline.log));
        Call deploy = run.calls("sh").get(run.calls("sh").size() - 1);
        assertEquals(new Call("sh", List.of("./deploy.sh production"), AGENT_LABEL, "Deploy"), deploy);
        Call gate = run.calls("productionDeploymentGate").get(0);
        assertEquals(AGENT_LABEL, gate.node());
        assertTrue(run.calls.indexOf(run.calls("checkout").get(1)) < run.calls.indexOf(gate), "the gate reads the second checkout");
        assertTrue(run.calls.indexOf(gate) < run.calls.indexOf(deploy), "the deployment comes after the gate");
        assertTrue(run.calls("sh").stream().anyMatch(c -> c.script().startsWith("gh pr view 42 ") && c.stage().equals("Production gate")));
    }

    private static Call withoutClosures(Call c) {
        return new Call(c.step(), c.args().stream().filter(a -> !(a instanceof Closure)).toList(), c.node(), c.stage());
    }

    @Test
    void onAnotherBranchNothingIsDeployedAndOneAgentIsUsed() throws IOException {
        Run run = build("feature/refunds");
        assertNull(run.failure, () -> String.valueOf(run.failure));
        assertEquals(1, run.calls("node").size());
        assertEquals(List.of(), run.calls("productionDeploymentGate"));
        assertTrue(run.calls("sh").stream().noneMatch(c -> c.script().startsWith("./deploy.sh")));
        assertEquals(List.of("checkTestCardData", "vulnerabilityGate", "qualityGate"), run.steps().stream().filter(GATES::contains).toList());
    }

    // Negative controls: the same harness refuses what Jenkins would refuse, and a failing gate stops the build.

    @Test
    void anShOutsideNodeFailsAsJenkinsFailsItAndNothingAfterItRuns() throws IOException {
        String outside = moved(Files.readString(JENKINSFILE), "sh './build.sh test'", "@Library('fw-pci') _");
        Run run = build("main", outside);
        assertInstanceOf(MissingContext.class, run.failure);
        assertEquals("Required context class hudson.FilePath is missing\nPerhaps you forgot to surround the sh step with a "
            + "step that provides this, such as: node", run.failure.getMessage());
        assertEquals(List.of("stage", "sh"), run.steps());
    }

    @Test
    void aNodeBlockForAnotherLabelOrNoneGetsNoAgent() throws IOException {
        String jenkinsfile = Files.readString(JENKINSFILE);
        for (String other : List.of("node('linux')", "node('built-in')", "node")) {
            Run run = build("main", jenkinsfile.replace("node('fw-agent')", other));
            assertInstanceOf(NoAgent.class, run.failure, other);
            assertEquals(List.of("node"), run.steps(), other);
        }
    }

    @Test
    void aWaitInsideANodeIsReportedAsHoldingAnAgent() throws IOException {
        String jenkinsfile = Files.readString(JENKINSFILE);
        Run gateInside = build("main", moved(jenkinsfile, "stage('Quality gate')", "vulnerabilityGate("));
        assertNull(gateInside.failure, () -> String.valueOf(gateInside.failure)); // Jenkins runs it too: it only wastes an agent
        assertEquals(List.of("waitForQualityGate@fw-agent"), gateInside.waitsHoldingAnAgent().stream().map(c -> c.step() + "@" + c.node()).toList());

        Run inputInside = build("main", jenkinsfile.replace("stage('Deploy') {", "input 'Deploy to production?'\n        stage('Deploy') {"));
        assertEquals(List.of("input@fw-agent"), inputInside.waitsHoldingAnAgent().stream().map(c -> c.step() + "@" + c.node()).toList());
        Run inputOutside = build("main", jenkinsfile.replace("if (env.BRANCH_NAME == 'main') {", "input 'Deploy to production?'\nif (env.BRANCH_NAME == 'main') {"));
        assertNull(inputOutside.failure);
        assertEquals(List.of(), inputOutside.waitsHoldingAnAgent());
    }

    @Test
    void withoutTheLibraryTheGatesDoNotExist() throws IOException {
        Run run = build("main", Files.readString(JENKINSFILE).replace("@Library('fw-pci') _", ""));
        assertEquals(List.of(), run.libraries);
        MissingMethodException missing = assertInstanceOf(MissingMethodException.class, run.failure);
        assertEquals("checkTestCardData", missing.getMethod());
    }

    @Test
    void aFailingGateStopsTheBuild() throws IOException {
        Files.writeString(workspace.resolve("src/test/resources/captured.txt"), "4000 0000 0000 0002\n");
        Run cards = build("main");
        assertEquals("Test data holds card numbers that are not synthetic; use syntheticCardNumber() or one of "
            + "CardData.SYNTHETIC instead:\n  - src/test/resources/captured.txt: ************0002", cards.failure.getMessage());
        assertEquals(List.of("checkTestCardData"), cards.steps().stream().filter(GATES::contains).toList());
        assertTrue(cards.calls("withSonarQubeEnv").isEmpty());
        Files.delete(workspace.resolve("src/test/resources/captured.txt"));

        findings.put("HIGH", 1);
        Run vulnerable = build("main");
        assertEquals("Vulnerability gate failed:\n  - 1 high finding(s); at most 0 allowed", vulnerable.failure.getMessage());
        assertEquals(List.of("checkTestCardData", "vulnerabilityGate"), vulnerable.steps().stream().filter(GATES::contains).toList());
        findings.put("HIGH", 0);

        Pipeline.BuildFailure quality = assertInstanceOf(Pipeline.BuildFailure.class, buildWithQualityGate("ERROR").failure);
        assertEquals("Quality gate failed: status ERROR; fix the findings the analysis reports", quality.getMessage());

        ticketStatus.put("CHG-1001", "pending");
        Run refused = build("main");
        assertEquals("Production deployment refused:\n  - change ticket CHG-1001 has status 'pending', not approved", refused.failure.getMessage());
        assertTrue(refused.calls("sh").stream().noneMatch(c -> c.script().startsWith("./deploy.sh")), "nothing deployed");
    }

    private Run buildWithQualityGate(String status) throws IOException {
        Pipeline pipeline = new Pipeline(workspace);
        pipeline.env.put("BRANCH_NAME", "main");
        pipeline.shAnswers = script -> script.startsWith("jq ") ? "0\n" : "";
        pipeline.qualityGateStatus = status;
        Run run = new Run(pipeline).run(Files.readString(JENKINSFILE));
        assertEquals(List.of(), run.calls("productionDeploymentGate"), "the deployment gate is not reached");
        assertTrue(run.calls("node").size() == 1, "no second agent is started");
        return run;
    }

    /** The change ticket comes from the commit message; it reaches the lookup in the environment, not in the command. */
    @Test
    void aTicketIdFromTheCommitMessageNeverBecomesPartOfACommand() throws IOException {
        commitMessage = "Merge pull request #42 from x/y\n\nChange-Ticket: $(touch${IFS}/tmp/pwned)\n";
        Run run = build("main");
        assertEquals("Production deployment refused:\n  - change ticket $(touch${IFS}/tmp/pwned) has status 'unknown', not approved",
            run.failure.getMessage());
        assertTrue(run.calls("sh").stream().noneMatch(c -> c.script().contains("pwned")), () -> run.calls("sh").toString());
        assertTrue(run.calls("withEnv").stream().anyMatch(c -> String.valueOf(c.args().get(0)).equals("[TICKET=$(touch${IFS}/tmp/pwned)]")));
    }
}
