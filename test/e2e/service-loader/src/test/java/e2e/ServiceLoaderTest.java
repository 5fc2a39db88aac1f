package e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fwframework.core.IApplicationSpec;
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
}
