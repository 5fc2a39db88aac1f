package dev.fwframework.jenkins;

import groovy.lang.Binding;
import groovy.lang.Closure;
import groovy.lang.GroovyClassLoader;
import groovy.lang.GroovyShell;
import groovy.lang.Script;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.codehaus.groovy.runtime.InvokerHelper;
import org.codehaus.groovy.runtime.MethodClosure;
import org.sonarsource.scanner.jenkins.pipeline.WaitForQualityGateStep;

/**
 * Runs the pipeline library's steps as Jenkins loads them (vars/<step>.groovy with src/ on the class path), with the
 * Jenkins steps they call played by {@link Steps}. `sh` runs the script in bash for real unless a test answers it.
 */
final class Pipeline {
    static final Path LIBRARY = Paths.get("pipeline-library").toAbsolutePath();

    /** A failed build: what Jenkins' `error` step and a failing `sh` raise. */
    static final class BuildFailure extends RuntimeException {
        BuildFailure(String message) { super(message); }
    }

    final Path workspace;
    /** Every step called, with its arguments, in order: what a build log would show of them. */
    final List<String> log = new ArrayList<>();
    /** The environment the steps see (withEnv, withCredentials). */
    final Map<String, String> env = new LinkedHashMap<>();
    /** Credentials by identifier: secret text, or "user:password". */
    final Map<String, String> credentials = new HashMap<>();
    /** Answers `sh` calls instead of bash when it returns non-null. */
    Function<String, String> shAnswers = script -> null;
    /** The quality gate status SonarQube reports to waitForQualityGate. */
    String qualityGateStatus = "OK";
    /** Whether a withSonarQubeEnv block ran an analysis earlier in the build (waitForQualityGate needs one). */
    boolean sonarAnalysisRan = true;

    private final GroovyClassLoader loader = new GroovyClassLoader();
    private final Binding binding = new Binding();

    Pipeline(Path workspace) {
        this.workspace = workspace;
        loader.addClasspath(LIBRARY.resolve("src").toString());
        Steps steps = new Steps();
        for (String name : List.of("sh", "echo", "error", "timeout", "withEnv", "withCredentials", "string",
                "usernamePassword", "readFile", "pwd", "waitForQualityGate")) {
            binding.setVariable(name, new MethodClosure(steps, name));
        }
    }

    /** Calls a step of the library (vars/<step>.groovy) as a Jenkinsfile would. */
    Object call(String step, Object... args) {
        try {
            Script script = new GroovyShell(loader, binding).parse(LIBRARY.resolve("vars/" + step + ".groovy").toFile());
            return script.invokeMethod("call", args);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A static method of a library class (src/). */
    Object library(String className, String method, Object... args) {
        return InvokerHelper.invokeStaticMethod(libraryClass(className), method, args);
    }

    /** A library class (src/), compiled by Groovy as Jenkins compiles it. */
    Class<?> libraryClass(String className) {
        try {
            return loader.loadClass(className);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A Groovy closure, as a Jenkinsfile would pass one: for example "{ id -> 'approved' }". */
    Closure<?> closure(String source) {
        return (Closure<?>) new GroovyShell(loader, binding).evaluate(source);
    }

    /** The Jenkins steps the library uses, as far as it uses them. */
    public final class Steps {
        public Object sh(String script) {
            return sh(Map.of("script", script));
        }

        public Object sh(Map<String, Object> args) {
            String script = String.valueOf(args.get("script"));
            log.add("sh " + script);
            String answer = shAnswers.apply(script);
            String stdout = answer != null ? answer : bash(script);
            return Boolean.TRUE.equals(args.get("returnStdout")) ? stdout : null;
        }

        public void echo(Object message) {
            log.add("echo " + message);
        }

        public void error(Object message) {
            log.add("error " + message);
            throw new BuildFailure(String.valueOf(message));
        }

        public Object timeout(Map<String, Object> args, Closure<?> body) {
            log.add("timeout " + args.get("time") + " " + args.get("unit"));
            return body.call();
        }

        public Object withEnv(List<?> entries, Closure<?> body) {
            Map<String, String> added = new LinkedHashMap<>();
            for (Object entry : entries) {
                String[] pair = String.valueOf(entry).split("=", 2);
                added.put(pair[0], pair[1]);
            }
            return with(added, body);
        }

        public Object withCredentials(List<Map<String, String>> bindings, Closure<?> body) {
            Map<String, String> added = new LinkedHashMap<>();
            for (Map<String, String> b : bindings) {
                String value = credentials.get(b.get("credentialsId"));
                if (value == null) throw new BuildFailure("Could not find credentials entry with ID '" + b.get("credentialsId") + "'");
                if (b.containsKey("variable")) {
                    added.put(b.get("variable"), value);
                } else {
                    added.put(b.get("usernameVariable"), value.split(":", 2)[0]);
                    added.put(b.get("passwordVariable"), value.split(":", 2)[1]);
                }
            }
            log.add("withCredentials " + bindings);
            return with(added, body);
        }

        public Map<String, String> string(Map<String, String> args) {
            return args;
        }

        public Map<String, String> usernamePassword(Map<String, String> args) {
            return args;
        }

        public String readFile(String path) throws IOException {
            return Files.readString(workspace.resolve(path), StandardCharsets.UTF_8);
        }

        public String pwd(Map<String, Object> args) throws IOException {
            Path tmp = workspace.resolveSibling(workspace.getFileName() + "@tmp");
            Files.createDirectories(tmp);
            return Boolean.TRUE.equals(args.get("tmp")) ? tmp.toString() : workspace.toString();
        }

        /**
         * The SonarQube Scanner plugin's step (jenkinsci/sonarqube-plugin sonar-2.18.2, WaitForQualityGateStep.java),
         * bound as Jenkins binds a step's named arguments: the constructor's abortPipeline and the @DataBoundSetter
         * properties webhookSecretId and credentialsId (lines 106-115, 153-156); no other name exists.
         */
        public WaitForQualityGateStep.QGStatus waitForQualityGate(Map<String, Object> args) {
            log.add("waitForQualityGate " + new java.util.TreeMap<>(args));
            WaitForQualityGateStep step = new WaitForQualityGateStep(Boolean.TRUE.equals(args.get("abortPipeline")));
            for (Map.Entry<String, Object> arg : args.entrySet()) {
                switch (arg.getKey()) {
                    case "abortPipeline" -> { }
                    case "webhookSecretId" -> step.setWebhookSecretId((String) arg.getValue());
                    case "credentialsId" -> step.setCredentialsId((String) arg.getValue());
                    default -> throw new IllegalArgumentException("waitForQualityGate has no parameter " + arg.getKey());
                }
            }
            if (!sonarAnalysisRan) { // processStepParameters, lines 196-202
                throw new IllegalStateException("No previous SonarQube analysis found on this pipeline execution. "
                    + "Please use the 'withSonarQubeEnv' wrapper to run your analysis.");
            }
            if (step.isAbortPipeline() && !"OK".equals(qualityGateStatus)) { // handleQGStatus, lines 261-266
                throw new BuildFailure("Pipeline aborted due to quality gate failure: " + qualityGateStatus);
            }
            return new WaitForQualityGateStep.QGStatus(qualityGateStatus);
        }

        private Object with(Map<String, String> added, Closure<?> body) {
            Map<String, String> before = new LinkedHashMap<>(env);
            env.putAll(added);
            try {
                return body.call();
            } finally {
                env.clear();
                env.putAll(before);
            }
        }
    }

    /** Runs a script in bash in the workspace with the pipeline's environment; a non-zero exit fails the build. */
    private String bash(String script) {
        try {
            ProcessBuilder builder = new ProcessBuilder("bash", "-c", script).directory(workspace.toFile());
            builder.environment().putAll(env);
            builder.redirectError(ProcessBuilder.Redirect.INHERIT);
            Process process = builder.start();
            String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int status = process.waitFor();
            if (status != 0) throw new BuildFailure("script returned exit code " + status);
            return stdout;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
