package com.example.wiki;

import dev.fwframework.core.ApplicationFactory;
import dev.fwframework.core.ApplicationFactoryProps;
import dev.fwframework.core.DeploymentContext;
import dev.fwframework.core.DeploymentContextReader;
import dev.fwframework.core.IApplicationSpec;
import java.util.ServiceLoader;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Environment;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;

/**
 * The deployment app in Java: context keys -> the plugin from ServiceLoader -> one stack with one ApplicationFactory.
 * A cdk.json names it as {@code "app": "mvn -q exec:java -Dexec.mainClass=com.example.wiki.DeployApp"}.
 */
public final class DeployApp {
    private DeployApp() {}

    /** Finds the registered plugin whose applicationId matches, listing those available when none does. */
    public static IApplicationSpec plugin(String applicationId) {
        StringBuilder available = new StringBuilder();
        for (IApplicationSpec spec : ServiceLoader.load(IApplicationSpec.class)) {
            if (spec.applicationId().equals(applicationId)) return spec;
            available.append(available.length() == 0 ? "" : ", ").append(spec.applicationId());
        }
        throw new IllegalArgumentException("No plugin has applicationId '" + applicationId + "'. Available: " + available + ".");
    }

    /** Builds the stack the context keys of {@code app} describe. */
    public static Stack build(App app) {
        DeploymentContext context = DeploymentContextReader.fromScope(app);
        Stack stack = new Stack(app, context.getStackName(), StackProps.builder()
            .stackName(context.getStackName())
            .env(Environment.builder().region(context.getRegion()).build())
            .build());
        new ApplicationFactory(stack, "Application", context.getRuntimeType(), plugin(context.getApplicationId()),
            ApplicationFactoryProps.builder()
                .securityProfile(context.getSecurityProfile())
                .domain(context.getDomain())
                .subdomain(context.getSubdomain())
                .sslEnabled(context.getSslEnabled())
                .hostedZoneId(context.getHostedZoneId())
                .certificateArn(context.getCertificateArn())
                .authMode(context.getAuthMode())
                .oidc(context.getOidc())
                .ec2Storage(context.getEc2Storage())
                .build());
        return stack;
    }

    public static void main(String[] args) {
        App app = new App();
        build(app);
        app.synth();
    }
}
