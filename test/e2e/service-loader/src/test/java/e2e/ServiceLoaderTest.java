package e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fwframework.core.IApplicationSpec;
import dev.fwframework.core.PluginContract;
import dev.fwframework.deploy.Deploy;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class ServiceLoaderTest {
    @Test
    void findsTheTypeScriptPluginInItsJar() {
        List<IApplicationSpec> found = new ArrayList<>();
        ServiceLoader.load(IApplicationSpec.class).forEach(found::add);
        assertEquals(1, found.size(), "plugins found: " + found);
        IApplicationSpec plugin = found.get(0);
        assertEquals(System.getProperty("expected.class"), plugin.getClass().getName());
        assertEquals(System.getProperty("expected.applicationId"), plugin.applicationId());
        String jar = plugin.getClass().getProtectionDomain().getCodeSource().getLocation().getPath();
        assertTrue(jar.endsWith(".jar"), jar);
    }

    /** The contract the framework was built with, one minor and one major on. */
    private static String contract(int majors, int minors) {
        String[] parts = PluginContract.VERSION.split("\\.");
        int major = Integer.parseInt(parts[0]) + majors;
        return major + "." + (majors == 0 ? Integer.parseInt(parts[1]) + minors : 0);
    }

    @Test
    void theDeploymentAppLoadsItWithAFrameworkOneMinorNewer() {
        List<IApplicationSpec> found = Deploy.plugins(contract(0, 1));
        assertEquals(1, found.size(), "plugins found: " + found);
        assertEquals(System.getProperty("expected.applicationId"), found.get(0).applicationId());
    }

    @Test
    void theDeploymentAppRefusesItWithAFrameworkOneMajorNewer() {
        RuntimeException e = assertThrows(RuntimeException.class, () -> Deploy.plugins(contract(1, 0)));
        String message = e.getMessage();
        for (String expected : new String[] {System.getProperty("expected.class"), "was built against plugin contract " + PluginContract.VERSION,
            "this framework's is " + contract(1, 0), "npx projen upgrade-fw"}) {
            assertTrue(message.contains(expected), "\"" + expected + "\" not in: " + message);
        }
    }
}
