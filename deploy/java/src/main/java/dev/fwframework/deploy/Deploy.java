package dev.fwframework.deploy;

import dev.fwframework.core.DeploymentApp;
import dev.fwframework.core.DeploymentAppOptions;
import dev.fwframework.core.IApplicationSpec;
import dev.fwframework.core.PluginContract;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Stack;

/**
 * The deployment app for Java: {@code "app": "mvn -q compile exec:java"} in a cdk.json, with this class as the main
 * class (see examples/java-plugin). Java finds plugins the Java way, with {@link ServiceLoader}, and hands them to the
 * framework's deployment app, which adds its built-in plugins, reads the context keys and builds the one stack they
 * describe.
 */
public final class Deploy {
    private Deploy() {}

    /**
     * Every plugin registered on the class path (META-INF/services/dev.fwframework.core.IApplicationSpec of each JAR),
     * each admitted by the framework against the plugin contract its JAR records (META-INF/fw/plugin.json): one built
     * against a newer minor or another major is refused, naming both versions and the fix; one with no record loads,
     * and its deployment warns.
     */
    public static List<IApplicationSpec> plugins() {
        return plugins(null);
    }

    /**
     * The same, checked against another framework's plugin contract: only the end-to-end test gives one (a framework
     * one minor or one major newer); null checks against this framework's.
     */
    public static List<IApplicationSpec> plugins(String frameworkContract) {
        List<IApplicationSpec> plugins = new ArrayList<>();
        ServiceLoader.load(IApplicationSpec.class).stream().forEach(provider -> {
            Path location = ContractRecord.locationOf(provider.type());
            IApplicationSpec spec = provider.get();
            PluginContract.admit(spec, provider.type().getName() + " (" + location.getFileName() + ")", ContractRecord.of(location), frameworkContract);
            plugins.add(spec);
        });
        return plugins;
    }

    /** Builds in {@code app} the stack its context keys describe, with the class path's plugins and the built-in ones. */
    public static Stack addTo(App app) {
        return DeploymentApp.addTo(app, DeploymentAppOptions.builder().plugins(plugins()).build());
    }

    public static void main(String[] args) {
        try {
            App app = new App();
            addTo(app);
            app.synth();
        } catch (RuntimeException e) {
            String message = UserMessages.of(e);
            if (message == null) throw e;
            System.err.println("fw-deploy: " + message);
            System.exit(1);
        }
    }
}
