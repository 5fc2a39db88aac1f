package com.example.wiki;

import dev.fwframework.core.DeploymentApp;
import dev.fwframework.core.IApplicationSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Stack;

/**
 * The deployment app in Java: the plugins ServiceLoader finds on the class path, handed to the framework's own
 * deployment app, which reads the context keys, takes the plugin the applicationId key names and builds the stack.
 * A cdk.json names it as {@code "app": "mvn -q exec:java -Dexec.mainClass=com.example.wiki.DeployApp"}.
 */
public final class DeployApp {
    private DeployApp() {}

    /** Every plugin registered on the class path (META-INF/services/dev.fwframework.core.IApplicationSpec). */
    public static List<IApplicationSpec> plugins() {
        List<IApplicationSpec> plugins = new ArrayList<>();
        ServiceLoader.load(IApplicationSpec.class).forEach(plugins::add);
        return plugins;
    }

    /** Builds the stack the context keys of {@code app} describe. */
    public static Stack build(App app) {
        return DeploymentApp.addToWithPlugins(app, plugins());
    }

    public static void main(String[] args) {
        App app = new App();
        build(app);
        app.synth();
    }
}
