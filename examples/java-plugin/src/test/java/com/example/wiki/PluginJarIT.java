package com.example.wiki;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fwframework.core.IApplicationSpec;
import dev.fwframework.deploy.Deploy;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;

/** Against the packaged JAR (failsafe puts it on the class path instead of target/classes). */
class PluginJarIT {
    @Test
    void serviceLoaderFindsThePluginInItsJar() {
        List<IApplicationSpec> found = new ArrayList<>();
        ServiceLoader.load(IApplicationSpec.class).forEach(found::add);
        assertEquals(1, found.size());
        assertEquals("wiki", found.get(0).applicationId());
        String location = found.get(0).getClass().getProtectionDomain().getCodeSource().getLocation().getPath();
        assertTrue(location.endsWith("wiki-plugin-1.0.0.jar"), location);
    }

    @ParameterizedTest
    @ValueSource(strings = {"FARGATE", "EC2"})
    void theJavaDeploymentAppSynthesisesEachRuntime(String runtimeType) throws Exception {
        Path outdir = Files.createTempDirectory("wiki-synth-");
        App app = new App(AppProps.builder().outdir(outdir.toString()).context(Map.of(
            "stackName", "wiki-" + runtimeType.toLowerCase(), "applicationId", "wiki", "runtimeType", runtimeType,
            "securityProfile", "DEV", "sslEnabled", "false")).build());
        Deploy.addTo(app);
        app.synth();
        File template = outdir.resolve("wiki-" + runtimeType.toLowerCase() + ".template.json").toFile();
        assertTrue(template.isFile(), template.toString());
        String json = Files.readString(template.toPath());
        assertTrue(json.contains(runtimeType.equals("FARGATE") ? "AWS::ECS::Service" : "AWS::AutoScaling::AutoScalingGroup"));
        assertTrue(json.contains("/aws/wiki-" + runtimeType.toLowerCase() + "/" + runtimeType + "/DEV"));
    }
}
