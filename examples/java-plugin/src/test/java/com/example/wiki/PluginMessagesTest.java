package com.example.wiki;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fwframework.core.ApplicationFactory;
import dev.fwframework.core.Ec2Context;
import dev.fwframework.core.Ec2Contexts;
import dev.fwframework.core.IUserDataBuilder;
import dev.fwframework.core.RuntimeType;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Stack;

/** What a Java plugin author reads when something is wrong: the plugin named, Java's words, the member that threw. */
class PluginMessagesTest {
    private static RuntimeException synthFailure(RuntimeType runtime, WikiSpec spec) {
        App app = new App();
        return assertThrows(RuntimeException.class, () -> {
            new ApplicationFactory(new Stack(app, "Wiki"), "App", runtime, spec);
            app.synth();
        });
    }

    private static void assertNoJavaScriptWords(String message) {
        for (String word : new String[] {"undefined", "null", "ApplicationSpec declares"}) {
            assertFalse(message.contains(word), "'" + word + "' in: " + message);
        }
    }

    @Test
    void aBadValueNamesThePluginNotTheBaseClass() {
        String message = synthFailure(RuntimeType.FARGATE, new WikiSpec() {
            @Override public Number applicationPort() { return 70000; }
        }).getMessage();
        // jsii passes no Java class name to the framework: the plugin is named by its applicationId().
        assertTrue(message.contains("Plugin wiki declares invalid values"), message);
        assertTrue(message.contains("wiki.applicationPort() returned 70000; allowed: "), message);
        assertNoJavaScriptWords(message);
    }

    @Test
    void aMissingValueIsAbsentNotUndefined() {
        Ec2Context context = Ec2Context.builder().stackName("Wiki").securityProfile("DEV").runtimeType("EC2")
            .logGroupName("/wiki").serviceUser("wiki").sslEnabled(false).hasEfs(true).efsId("fs-0123456789abcdef0").build();
        String message = assertThrows(RuntimeException.class, () -> Ec2Contexts.requireEfsIds(context)).getMessage();
        assertTrue(message.contains("accessPointId is missing (efsId: \"fs-0123456789abcdef0\", accessPointId: absent)"), message);
        assertNoJavaScriptWords(message);
    }

    @Test
    void anExceptionInAPluginMemberIsReportedWithTheMemberAndItsMessage() {
        String message = synthFailure(RuntimeType.EC2, new WikiSpec() {
            @Override public void configureUserData(IUserDataBuilder builder, Ec2Context context) {
                throw new IllegalStateException("the wiki package is not pinned");
            }
        }).getMessage();
        assertTrue(message.contains("wiki.configureUserData() threw: "), message);
        assertTrue(message.startsWith("wiki.configureUserData() threw: the wiki package is not pinned"), message);
    }

    @Test
    void aCommandLineWithALineBreakIsRefusedNamingItsIndex() {
        String message = synthFailure(RuntimeType.EC2, new WikiSpec() {
            @Override public void configureUserData(IUserDataBuilder builder, Ec2Context context) {
                builder.addCommands("mkdir -p /srv/wiki", "systemctl enable wiki\nsystemctl start wiki");
            }
        }).getMessage();
        assertTrue(message.contains("wiki.configureUserData() threw: addCommands(): command 2 (argument index 1)"), message);
        assertTrue(message.contains("holds a line break"), message);
        assertNoJavaScriptWords(message);
    }
}
