package dev.fwframework.deploy;

import dev.fwframework.core.PluginContract;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The plugin contract a plugin's JAR records: {@code META-INF/fw/plugin.json} ({@link PluginContract#JAVA_RESOURCE})
 * beside its service file, {@code {"pluginContract": "MAJOR.MINOR"}}, which the plugin template writes.
 */
final class ContractRecord {
    /** The one value of the record; the file is written by the template, not by hand, so a pattern reads it. */
    private static final Pattern VERSION = Pattern.compile("\"pluginContract\"\\s*:\\s*\"([^\"]*)\"");

    private ContractRecord() {}

    /** Where a class was loaded from: its JAR or class directory, for messages. */
    static Path locationOf(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | NullPointerException | SecurityException e) {
            return Path.of(type.getName());
        }
    }

    /** The version the JAR or class directory at {@code location} records; null when it records none. */
    static String of(Path location) {
        String resource = PluginContract.JAVA_RESOURCE;
        try {
            if (Files.isDirectory(location)) {
                Path file = location.resolve(resource);
                return Files.exists(file) ? versionIn(Files.readString(file, StandardCharsets.UTF_8)) : null;
            }
            if (!Files.isRegularFile(location)) return null;
            try (JarFile jar = new JarFile(location.toFile())) {
                if (jar.getEntry(resource) == null) return null;
                try (InputStream in = jar.getInputStream(jar.getEntry(resource))) {
                    return versionIn(new String(in.readAllBytes(), StandardCharsets.UTF_8));
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(location + ": " + resource + " cannot be read: " + e.getMessage(), e);
        }
    }

    /** The recorded version; a record without one is given as it is, for the framework to refuse naming it. */
    private static String versionIn(String json) {
        Matcher m = VERSION.matcher(json);
        return m.find() ? m.group(1) : json.trim();
    }
}
