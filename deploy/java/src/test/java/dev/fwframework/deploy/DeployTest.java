package dev.fwframework.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;

/** The deployment app from Java: the built-in plugin through the framework, and the errors a user sees. */
class DeployTest {
    /** The main job's context (examples/build-server/cdk.json), on Fargate. */
    private static Map<String, Object> buildServerContext(String runtimeType) {
        Map<String, Object> context = new HashMap<>();
        context.put("stackName", "build-server");
        context.put("applicationId", "jenkins");
        context.put("runtimeType", runtimeType);
        context.put("securityProfile", "DEV");
        context.put("region", "eu-west-1");
        context.put("sslEnabled", "false");
        // The build server refuses to run without a name: the identity provider sends users back to it.
        context.put("domain", "example.com");
        context.put("authMode", "application-oidc");
        context.put("oidcIssuer", "https://login.example.com");
        context.put("oidcAuthorizationEndpoint", "https://login.example.com/oauth2/authorize");
        context.put("oidcTokenEndpoint", "https://login.example.com/oauth2/token");
        context.put("oidcUserInfoEndpoint", "https://login.example.com/oauth2/userinfo");
        context.put("oidcClientId", "build-server");
        context.put("oidcClientSecretArn", "arn:aws:secretsmanager:eu-west-1:123456789012:secret:build-server/oidc-AbCdEf");
        return context;
    }

    @Test
    void theBuiltInBuildServerSynthesisesFromJava() throws Exception {
        Path outdir = Files.createTempDirectory("fw-deploy-");
        App app = new App(AppProps.builder().outdir(outdir.toString()).context(buildServerContext("EC2")).build());
        Deploy.addTo(app);
        app.synth();
        String template = Files.readString(outdir.resolve("build-server.template.json"));
        assertTrue(template.contains("AWS::AutoScaling::AutoScalingGroup"));
        assertTrue(template.contains("/aws/build-server/EC2/DEV"));
    }

    @Test
    void aPlatformConfigurationSynthesisesFromJava() throws Exception {
        Map<String, Object> buildServer = buildServerContext("FARGATE");
        for (String key : List.of("securityProfile", "region", "sslEnabled", "domain")) buildServer.remove(key);
        buildServer.put("subdomain", "ci");
        Map<String, Object> context = new HashMap<>();
        context.put("platform", Map.of("stackName", "platform", "region", "eu-west-1", "domain", "example.com"));
        context.put("applications", List.of(buildServer));
        Path outdir = Files.createTempDirectory("fw-deploy-platform-");
        App app = new App(AppProps.builder().outdir(outdir.toString()).context(context).build());
        Deploy.addTo(app);
        app.synth();
        assertTrue(Files.readString(outdir.resolve("platform.template.json")).contains("AWS::ElasticLoadBalancingV2::LoadBalancer"));
        String application = Files.readString(outdir.resolve("build-server.template.json"));
        assertTrue(application.contains("/fw/platform/listener-arn"));
        assertTrue(application.contains("ci.example.com"));
    }

    @Test
    void anUnknownApplicationIdIsTheUsersMistakeWithItsMessageAlone() {
        Map<String, Object> context = buildServerContext("FARGATE");
        context.put("applicationId", "jira");
        RuntimeException e = assertThrows(RuntimeException.class, () -> Deploy.addTo(new App(AppProps.builder().context(context).build())));
        assertEquals("No installed plugin has applicationId 'jira'. Available: jenkins (@fw/core).", UserMessages.of(e));
    }

    @Test
    void aFaultIsNotTakenForTheUsersMistake() {
        assertNull(UserMessages.of(new IllegalStateException("boom")));
        assertEquals("Validation failed with the following errors: x", UserMessages.of(new RuntimeException(
            "Error: Validation failed with the following errors: x\n@jsii/kernel.RuntimeError: Error: Validation failed")));
        // A UserError that ends a call into the framework which called back into the plugin (as jsii 1.140 delivers it).
        assertEquals("wiki.configureUserData() threw: not pinned", UserMessages.of(new RuntimeException(
            "wiki.configureUserData() threw: not pinned\nUserError: wiki.configureUserData() threw: not pinned\n"
            + "    at callPlugin (/tmp/jsii-kernel-x/node_modules/@fw/core/lib/contract/plugin-calls.js:36:15)")));
    }
}
