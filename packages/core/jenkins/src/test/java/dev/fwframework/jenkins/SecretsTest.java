package dev.fwframework.jenkins;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** encryptArtifact (with the real openssl), withBuildCredentials and withPaymentGatewayKey (with a stub aws CLI). */
class SecretsTest {
    @TempDir Path workspace;

    private static final String PASSPHRASE = "correct horse battery staple";

    @Test
    void anArtifactIsEncryptedWithAes256AndThePlainOriginalDeleted() throws Exception {
        byte[] plain = "card report 4111111111111111\n".getBytes(StandardCharsets.UTF_8);
        Files.write(workspace.resolve("report.csv"), plain);
        Pipeline pipeline = new Pipeline(workspace);
        pipeline.credentials.put("artifact-key", PASSPHRASE);

        assertEquals("report.csv.enc", pipeline.call("encryptArtifact", Map.of("file", "report.csv", "keyCredentialsId", "artifact-key")));

        assertFalse(Files.exists(workspace.resolve("report.csv")), "the plain original is deleted");
        byte[] sealed = Files.readAllBytes(workspace.resolve("report.csv.enc"));
        assertEquals("Salted__", new String(sealed, 0, 8, StandardCharsets.US_ASCII));
        // The documented decryption command, with the passphrase in its environment.
        ProcessBuilder builder = new ProcessBuilder("openssl", "enc", "-d", "-aes-256-cbc", "-pbkdf2", "-iter", "600000",
            "-in", "report.csv.enc", "-pass", "env:KEY").directory(workspace.toFile());
        builder.environment().put("KEY", PASSPHRASE);
        Process process = builder.start();
        assertArrayEquals(plain, process.getInputStream().readAllBytes());
        assertEquals(0, process.waitFor());
        assertFalse(String.join("\n", pipeline.log).contains(PASSPHRASE), "the passphrase never reaches the log");
        assertTrue(pipeline.env.isEmpty(), "the key leaves the environment with the step");
    }

    @Test
    void aFailedEncryptionKeepsThePlainFileAndFailsTheBuild() throws Exception {
        Files.writeString(workspace.resolve("report.csv"), "data");
        Files.createDirectories(workspace.resolve("report.csv.enc")); // openssl cannot write its output here
        Pipeline pipeline = new Pipeline(workspace);
        pipeline.credentials.put("artifact-key", PASSPHRASE);
        assertThrows(Pipeline.BuildFailure.class,
            () -> pipeline.call("encryptArtifact", Map.of("file", "report.csv", "keyCredentialsId", "artifact-key")));
        assertTrue(Files.exists(workspace.resolve("report.csv")));
    }

    @Test
    void encryptArtifactNamesWhatIsMissing() {
        assertEquals("encryptArtifact needs file and keyCredentialsId (a secret-text credential); given file: report.csv, keyCredentialsId: null",
            assertThrows(Pipeline.BuildFailure.class, () -> new Pipeline(workspace).call("encryptArtifact", Map.of("file", "report.csv"))).getMessage());
    }

    @Test
    void credentialsAreBoundByIdentifierForTheBodyOnly() {
        Pipeline pipeline = new Pipeline(workspace);
        pipeline.credentials.put("nexus-deploy", "deployer:s3cret");
        AtomicReference<String> seen = new AtomicReference<>();
        pipeline.call("withBuildCredentials", "nexus-deploy", new groovy.lang.Closure<Object>(null) {
            @SuppressWarnings("unused")
            public Object doCall() {
                seen.set(pipeline.env.get("USERNAME") + "/" + pipeline.env.get("PASSWORD"));
                return null;
            }
        });
        assertEquals("deployer/s3cret", seen.get());
        assertTrue(pipeline.env.isEmpty());
        assertThrows(Pipeline.BuildFailure.class, () -> pipeline.call("withBuildCredentials", "unknown", pipeline.closure("{ -> null }")));
    }

    @Test
    void thePaymentGatewayKeyIsReadThroughTheRoleIntoAPrivateFileThatIsDeletedAfterwards() throws Exception {
        Path bin = Files.createDirectories(workspace.resolveSibling("bin"));
        Path aws = bin.resolve("aws");
        // The stub answers like the AWS CLI; reading the secret works only with the assumed role's session.
        Files.writeString(aws, "#!/bin/sh\n"
            + "case \"$1 $2\" in\n"
            + "  'sts assume-role') echo \"$@\" > \"$FW_STUB_LOG\"; printf 'AKIAROLE\\tsecretkey\\tsessiontoken\\n' ;;\n"
            + "  'secretsmanager get-secret-value') [ \"$AWS_SESSION_TOKEN\" = sessiontoken ] || exit 9; printf 'sk_live_gateway_key\\n' ;;\n"
            + "  *) exit 2 ;;\n"
            + "esac\n");
        Files.setPosixFilePermissions(aws, PosixFilePermissions.fromString("rwxr-xr-x"));
        Pipeline pipeline = new Pipeline(workspace);
        pipeline.env.put("PATH", bin + ":" + System.getenv("PATH"));
        pipeline.env.put("FW_STUB_LOG", workspace.resolveSibling("aws.log").toString());
        AtomicReference<Path> keyFile = new AtomicReference<>();
        AtomicReference<String> key = new AtomicReference<>();
        groovy.lang.Closure<Object> body = new groovy.lang.Closure<Object>(null) {
            @SuppressWarnings("unused")
            public Object doCall() throws Exception {
                Path file = Path.of(pipeline.env.get("PAYMENT_GATEWAY_KEY_FILE"));
                keyFile.set(file);
                key.set(Files.readString(file).trim());
                assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
                throw new IllegalStateException("the deployment failed");
            }
        };
        Map<String, Object> args = Map.of("roleArn", "arn:aws:iam::123456789012:role/payment-gateway-reader", "secretId", "prod/gateway");
        assertThrows(IllegalStateException.class, () -> pipeline.call("withPaymentGatewayKey", args, body));

        assertEquals("sk_live_gateway_key", key.get());
        assertFalse(Files.exists(keyFile.get()), "the key file is deleted, also when the body fails");
        assertTrue(Files.readString(workspace.resolveSibling("aws.log")).contains("--role-arn arn:aws:iam::123456789012:role/payment-gateway-reader"));
        assertFalse(String.join("\n", pipeline.log).contains("sk_live_gateway_key"), "the key never reaches the log");
    }
}
