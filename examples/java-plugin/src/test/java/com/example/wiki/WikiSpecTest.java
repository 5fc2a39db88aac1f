package com.example.wiki;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fwframework.core.ApplicationFactory;
import dev.fwframework.core.AuthMode;
import dev.fwframework.core.RuntimeType;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Stack;

/** The three test kinds. */
class WikiSpecTest {
    private final WikiSpec spec = new WikiSpec();

    @Test
    void metadataAccessorsReturnTheDeclaredValues() {
        assertEquals("wiki", spec.applicationId());
        assertEquals("ghcr.io/example/wiki:1.4.2", spec.defaultContainerImage());
        assertEquals(3000, spec.applicationPort().intValue());
        assertEquals("/srv/wiki-data", spec.containerDataPath());
        assertEquals("/wiki", spec.efsDataPath());
        assertEquals("wiki-data", spec.volumeName());
        assertEquals("1001:1002", spec.containerUser());
        assertEquals("750", spec.efsPermissions());
        assertEquals("/dev/xvdf", spec.ebsDeviceName());
        assertEquals("/srv/wiki", spec.ec2DataPath());
        assertEquals(List.of("/var/log/wiki/wiki.log"), spec.ec2LogPaths());
        assertEquals("/healthz?ready=1", spec.healthCheckPath());
    }

    @Test
    void httpsAddressEndingWithTheFqdn() {
        String url = spec.containerEnvironmentVariables("wiki.example.com", true, AuthMode.NONE).get("WIKI_PUBLIC_URL");
        assertTrue(url.startsWith("https://"), url);
        assertTrue(url.endsWith("wiki.example.com"), url);
    }

    @ParameterizedTest
    @EnumSource(RuntimeType.class)
    void aFreshStackSynthesises(RuntimeType runtime) {
        App app = new App();
        new ApplicationFactory(new Stack(app, "Wiki"), "App", runtime, new WikiSpec());
        assertDoesNotThrow(() -> app.synth());
    }
}
