package dev.fwframework.jenkins;

import jakarta.servlet.ServletException;
import java.time.Instant;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.pac4j.core.exception.TechnicalException;
import org.pac4j.oidc.exceptions.OidcStateMismatchException;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;

/**
 * Writes, through java.util.logging, the records the pinned code writes around a sign-in: the logger, level, message,
 * parameters and exception of each are the source's (jenkinsci/jenkins jenkins-2.568.2, jenkinsci/oic-auth-plugin
 * 4.715.vf202e4229f61, pac4j/pac4j pac4j-parent-6.4.3, jenkinsci/stapler 2088.v915606dc8e86, as cited per method), and
 * the exceptions are built with the real Servlet API 5.0.0 and Spring Security 7.1.0 classes (jenkins-2.568.2
 * bom/pom.xml pins both). Whether a record is created and where it goes is the JDK's business: the logger's level
 * decides, as in Jenkins.
 */
final class SignInLog {
    private SignInLog() {}

    /** Logs a record as the named logger would, with the source class and method the JDK would find in Jenkins. */
    static void log(String logger, Level level, String sourceClass, String sourceMethod, String message, Object[] parameters,
            Throwable thrown, Instant at) {
        LogRecord record = new LogRecord(level, message);
        record.setLoggerName(logger);
        record.setSourceClassName(sourceClass);
        record.setSourceMethodName(sourceMethod);
        record.setParameters(parameters);
        record.setThrown(thrown);
        record.setInstant(at);
        Logger.getLogger(logger).log(record);
    }

    // ---- sign-ins that failed

    /**
     * A Basic header whose API token does not match. BasicHeaderProcessor.java:90-100 asks each BasicHeaderAuthenticator;
     * BasicHeaderApiTokenAuthenticator (first: equal ordinals sort by class name, ExtensionComponent.java:90-129) finds no
     * match and logs nothing (BasicHeaderApiTokenAuthenticator.java:26-50); BasicHeaderRealPasswordAuthenticator builds
     * the token (lines 55-57) and hands it to the realm, whose AuthenticationManager accepts no password
     * (OicSecurityRealm.java:754-765), and logs at FINER (lines 64-67). Jenkins also sets WebAuthenticationDetails
     * (the client's address) as the token's details; they are left out here.
     */
    static void apiTokenRejected(String user, String token, Instant at) {
        UsernamePasswordAuthenticationToken authRequest = new UsernamePasswordAuthenticationToken(user, token);
        BadCredentialsException failed = new BadCredentialsException("Unexpected authentication type: " + authRequest);
        log("jenkins.security.BasicHeaderRealPasswordAuthenticator", Level.FINER,
            "jenkins.security.BasicHeaderRealPasswordAuthenticator", "authenticate2",
            "Authentication request for user: {0} failed: {1}", new Object[] {user, failed}, null, at);
    }

    /**
     * A POST of a user name and password to the login form URL, securityRealm/escapeHatch for the OIDC realm
     * (OicSecurityRealm.java:726-729; AuthenticationProcessingFilter2.java:69-74): the realm rejects it (754-765) and
     * AuthenticationProcessingFilter2.unsuccessfulAuthentication logs "Login attempt failed" at FINE (lines 127-130).
     */
    static void loginFormRejected(String user, String password, Instant at) {
        UsernamePasswordAuthenticationToken attempt = UsernamePasswordAuthenticationToken.unauthenticated(user, password);
        log("hudson.security.AuthenticationProcessingFilter2", Level.FINE, "hudson.security.AuthenticationProcessingFilter2",
            "unsuccessfulAuthentication", "Login attempt failed", null,
            new BadCredentialsException("Unexpected authentication type: " + attempt), at);
    }

    /**
     * The identity provider sends the browser back with an error: OidcCredentialsExtractor.java:122-125 logs with
     * SLF4J's error(), which slf4j-jdk14 (bundled in jenkins.war, war/pom.xml:106-107) turns into a SEVERE record of the
     * logger named after the class, with the message already formatted (qos-ch/slf4j v_2.0.17
     * slf4j-jdk14/.../JDK14LoggerAdapter.java:145-157, 255-256; pac4j's lombok.config names the field LOGGER).
     * "error" stands for the ErrorObject's text.
     */
    static void identityProviderError(String error, Instant at) {
        log("org.pac4j.oidc.credentials.extractor.OidcCredentialsExtractor", Level.SEVERE,
            "org.pac4j.oidc.credentials.extractor.OidcCredentialsExtractor", "extract",
            "Bad authentication response, error=" + error, null, null, at);
    }

    /**
     * The callback's state is not the one Jenkins sent (OidcCredentialsExtractor.java:151-154; the other pac4j failures
     * of the callback, OidcException and its subclasses, take the same way): the exception leaves
     * OicSecurityRealm.doFinishLogin (1128-1191), Stapler wraps it in a ServletException (Stapler.java:841-851), the
     * security filters rethrow it (spring-security 7.1.0 ExceptionTranslationFilter.java:151-157), the
     * uncaught-exception filter (core/src/main/resources/META-INF/web-fragment.xml:66-70, 155-156; stapler
     * UncaughtExceptionFilter.java:23-33) hands it to core's handler, which logs it (InstallUncaughtExceptionHandler.java:48-54).
     */
    static void callbackRejected(String id, Instant at) {
        ServletException e = new ServletException(
            new OidcStateMismatchException("State parameter is different from the one sent in authentication request."));
        log("hudson.init.impl.InstallUncaughtExceptionHandler", Level.WARNING, "hudson.init.impl.InstallUncaughtExceptionHandler",
            "handleException", "Caught unhandled exception with ID " + id, null, e, at);
    }

    // ---- everything else a sign-in writes to these loggers

    /** An OIDC sign-in that worked: OicSecurityRealm.java:889-890 fires SecurityListener (SecurityListener.java:106-119, 147-148). */
    static void signedIn(String user, List<String> groups, Instant at) {
        log("jenkins.security.SecurityListener", Level.FINE, "jenkins.security.SecurityListener", "fireAuthenticated2",
            "authenticated: {0} {1}", new Object[] {user, groups}, null, at);
        log("jenkins.security.SecurityListener", Level.FINE, "jenkins.security.SecurityListener", "fireLoggedIn",
            "logged in: {0}", new Object[] {user}, null, at);
    }

    /** An API token that matched: BasicHeaderApiTokenAuthenticator.java:36-39, then BasicHeaderProcessor.java:92-95 at FINE. */
    static void apiTokenAccepted(String user, Instant at) {
        log("jenkins.security.SecurityListener", Level.FINE, "jenkins.security.SecurityListener", "fireAuthenticated2",
            "authenticated: {0} {1}", new Object[] {user, List.of("developers")}, null, at);
        log("jenkins.security.BasicHeaderProcessor", Level.FINE, "jenkins.security.BasicHeaderProcessor", "doFilter",
            "Request authenticated as {0} by {1}", new Object[] {user, "jenkins.security.BasicHeaderApiTokenAuthenticator"}, null, at);
    }

    /** A sign-in whose tokens carry no groups claim: it goes on without groups (OicSecurityRealm.java:954-956). */
    static void signedInWithoutGroups(Instant at) {
        log("org.jenkinsci.plugins.oic.OicSecurityRealm", Level.WARNING, "org.jenkinsci.plugins.oic.OicSecurityRealm",
            "determineAuthorities", "idToken and userInfo did not contain group field name: groups", null, null, at);
    }

    /** A session whose token could not be refreshed (OicSecurityRealm.java:1362-1381): a pac4j exception, but no sign-in. */
    static void tokenRefreshFailed(Instant at) {
        log("org.jenkinsci.plugins.oic.OicSecurityRealm", Level.WARNING, "org.jenkinsci.plugins.oic.OicSecurityRealm",
            "handleTokenExpiration", "Failed to refresh expired token", null,
            new TechnicalException("Bad token response, error=invalid_request"), at);
    }

    /** Any other request that failed with an exception: the same handler and message (InstallUncaughtExceptionHandler.java:54). */
    static void otherUnhandledException(String id, Instant at) {
        log("hudson.init.impl.InstallUncaughtExceptionHandler", Level.WARNING, "hudson.init.impl.InstallUncaughtExceptionHandler",
            "handleException", "Caught unhandled exception with ID " + id, null,
            new ServletException(new IllegalStateException("something else broke")), at);
    }

    /** An ordinary INFO line: a milestone (InitReactorRunner.java:83-91, InitMilestone.java:121). */
    static void startedUp(Instant at) {
        log("jenkins.InitReactorRunner", Level.INFO, "jenkins.InitReactorRunner$1", "onAttained",
            "Completed initialization", null, null, at);
    }
}
