package dev.fwframework.jenkins;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.TimeZone;
import java.util.logging.Handler;
import java.util.logging.LogManager;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.pac4j.oidc.exceptions.OidcStateMismatchException;

/**
 * What reaches the application log group when a sign-in fails: the records of {@link SignInLog} (the pinned code's own
 * records) written by the JDK's java.util.logging configured with the build server's logging.properties, exactly as
 * Jenkins gets it (-Djava.util.logging.config.file; winstone 8.1039.v78300b_1d48a_9 Launcher.java:469-475 then leaves
 * the console handler alone). src/test/resources/logging.properties is loggingProperties() of jenkins-monitoring.ts
 * (jenkins-monitoring.test.ts checks that they are the same), and src/test/resources/failed-sign-in-console.txt is the
 * console output this test gets, stack frames left out (they are this test's frames, not Jenkins'); the TypeScript test
 * runs the CloudWatch filter FAILED_LOGIN_FILTER over that file.
 */
class FailedSignInLogTest {
    static final Path PROPERTIES = Paths.get("src/test/resources/logging.properties");
    static final Path CONSOLE = Paths.get("src/test/resources/failed-sign-in-console.txt");
    static final Instant AT = Instant.parse("2026-11-26T09:01:02Z");

    @AfterAll
    static void restoreTheJdksLogging() throws IOException {
        LogManager.getLogManager().readConfiguration();
    }

    /** Every kind of record a sign-in writes, failed or not, in one order. */
    static void everySignInRecord() {
        SignInLog.startedUp(AT);
        SignInLog.apiTokenRejected("mallory", "11aa22bb33cc44dd55ee66ff77889900aa", AT);
        SignInLog.loginFormRejected("mallory", "Winter2026!", AT);
        SignInLog.identityProviderError("access_denied", AT);
        SignInLog.callbackRejected("5e0c7a1e-3f0b-4c1d-9a7e-2b8f6d4c3a21", AT);
        SignInLog.signedIn("alice", List.of("developers"), AT);
        SignInLog.apiTokenAccepted("ci-bot", AT);
        SignInLog.signedInWithoutGroups(AT);
        SignInLog.tokenRefreshFailed(AT);
        SignInLog.otherUnhandledException("0b7d2c4e-8a1f-4e6b-b3c5-9d2e7f1a6c80", AT);
    }

    /**
     * Runs {@code emit} with the JDK's logging configured from a logging.properties (null: the JDK's own defaults,
     * root at INFO) and returns what the ConsoleHandler wrote (it writes to System.err, taken when it is created).
     */
    static String console(Path properties, Runnable emit) {
        PrintStream err = System.err;
        Locale locale = Locale.getDefault();
        TimeZone zone = TimeZone.getDefault();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            Locale.setDefault(Locale.US);
            TimeZone.setDefault(TimeZone.getTimeZone("UTC"));
            System.setErr(new PrintStream(out, true, UTF_8));
            if (properties == null) {
                LogManager.getLogManager().readConfiguration();
            } else {
                try (InputStream in = Files.newInputStream(properties)) {
                    LogManager.getLogManager().readConfiguration(in);
                }
            }
            emit.run();
            for (Handler handler : Logger.getLogger("").getHandlers()) handler.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            LogManager.getLogManager().reset();
            System.setErr(err);
            Locale.setDefault(locale);
            TimeZone.setDefault(zone);
        }
        return out.toString(UTF_8);
    }

    static String withoutStackFrames(String console) {
        return console.lines().filter(line -> !line.startsWith("\tat ") && !line.matches("\t\\.\\.\\. \\d+ more"))
            .collect(Collectors.joining("\n", "", "\n"));
    }

    @Test
    void theConsoleShowsWhatTheCheckedInOutputHolds() throws IOException {
        String console = withoutStackFrames(console(PROPERTIES, FailedSignInLogTest::everySignInRecord));
        if (!Files.exists(CONSOLE)) {
            Files.writeString(CONSOLE, console);
            fail("wrote " + CONSOLE + ": review it and run again");
        }
        assertEquals(Files.readString(CONSOLE), console);
    }

    /** The failure lines that only logging.properties lets through: without it the JDK keeps INFO and above. */
    @Test
    void theFineAndFinerFailureLinesNeedLoggingProperties() {
        String configured = console(PROPERTIES, FailedSignInLogTest::everySignInRecord);
        String defaults = console(null, FailedSignInLogTest::everySignInRecord);
        for (String line : List.of("Authentication request for user: mallory failed", "FINE: Login attempt failed")) {
            assertTrue(configured.contains(line), configured);
            assertFalse(defaults.contains(line), defaults);
        }
        assertTrue(defaults.contains("SEVERE: Bad authentication response, error=access_denied"), defaults);
        // BasicHeaderProcessor stays at INFO: its FINE lines (a success here) are not written.
        assertFalse(configured.contains("Request authenticated as"), configured);
    }

    /**
     * Spring Security prints a token's credentials as [PROTECTED] (spring-security 7.1.0
     * AbstractAuthenticationToken.java:188-198): neither the API token nor the password reaches the log.
     */
    @Test
    void neitherTheTokenNorThePasswordIsLogged() {
        String configured = console(PROPERTIES, FailedSignInLogTest::everySignInRecord);
        assertTrue(configured.contains("Principal=mallory, Credentials=[PROTECTED]"), configured);
        assertFalse(configured.contains("11aa22bb33cc44dd55ee66ff77889900aa"), configured);
        assertFalse(configured.contains("Winter2026!"), configured);
    }

    /**
     * Before the ServletException reaches core's handler, Stapler also hands the InvocationTargetException it caught to
     * the servlet container's log ("Error while serving <url>", Stapler.java:841-845); where Jetty writes that is not
     * read here. Its trace names the pac4j exception only as "Caused by:", so the filter's phrase "ServletException:
     * org.pac4j." still counts each failed callback once: it is the first line of the trace of core's record alone.
     */
    @Test
    void theContainersTraceOfTheSameFailureDoesNotRepeatTheFiltersPhrase() {
        OidcStateMismatchException cause = new OidcStateMismatchException("State parameter is different from the one sent in authentication request.");
        StringWriter container = new StringWriter();
        new InvocationTargetException(cause).printStackTrace(new PrintWriter(container));
        assertFalse(container.toString().contains("ServletException: org.pac4j."), container.toString());
        assertTrue(container.toString().contains("Caused by: org.pac4j.oidc.exceptions.OidcStateMismatchException"));
        String core = console(PROPERTIES, () -> SignInLog.callbackRejected("id", AT));
        assertEquals(1, core.split("ServletException: org.pac4j.", -1).length - 1, core);
    }
}
