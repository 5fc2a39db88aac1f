package dev.fwframework.jenkins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import groovy.json.JsonSlurper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The mask-passwords global patterns (card-data-patterns.json, which card-data-masking.ts renders into the plugin's
 * configuration) applied to build log lines the way mask-passwords 220.v95819055b_265 applies them: by
 * {@link PluginLogMasking}, our model of the plugin's console filter, which says which lines of the plugin and of core
 * it follows (per line, end of line included; a blank line left alone; every match collected, then each matched text
 * replaced everywhere on its line by "********"; the patterns compiled without flags, so the {@code (?i)} inside a
 * pattern is what makes it case-insensitive; the masked line logged at INFO).
 */
class CardDataLogMaskingTest {
    static final Path PATTERNS = Paths.get("card-data-patterns.json");
    static final Logger PLUGIN_LOG = PluginLogMasking.PLUGIN_LOG;
    static final List<LogRecord> pluginLog = new ArrayList<>();
    static final Handler capture = new Handler() {
        @Override public void publish(LogRecord record) { pluginLog.add(record); }
        @Override public void flush() {}
        @Override public void close() {}
    };

    @BeforeAll
    static void captureThePluginsLog() {
        PLUGIN_LOG.addHandler(capture);
        PLUGIN_LOG.setUseParentHandlers(false);
    }

    @AfterAll
    static void releaseThePluginsLog() {
        PLUGIN_LOG.removeHandler(capture);
        PLUGIN_LOG.setUseParentHandlers(true);
    }

    /** card-data-patterns.json, in its order (that of the entries card-data-masking.ts writes). */
    @SuppressWarnings("unchecked")
    static Map<String, String> patterns() {
        try {
            return new LinkedHashMap<>((Map<String, String>) new JsonSlurper().parseText(Files.readString(PATTERNS)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A build's log after the plugin's console filter. */
    static String buildLog(String text) {
        return new PluginLogMasking(patterns()).maskLog(text);
    }

    static String maskLine(String line) {
        String masked = buildLog(line + "\n");
        assertTrue(masked.endsWith("\n"), masked);
        return masked.substring(0, masked.length() - 1);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', value = {
        "4111111111111111                          | ********",
        "card 4111-1111-1111-1111 ok               | card ******** ok",
        "card 4111 1111 1111 1111 ok               | card ******** ok",
        "x=4111111111111111;y                      | x=********;y",
        "'{\"pan\":\"5555-5555-5555-4444\"}'       | '{\"pan\":\"********\"}'",
        "a4111111111111111b and 5105 1051 0510 5100 done | a********b and ******** done",
    })
    void cardNumbersAreMasked(String line, String masked) {
        assertEquals(masked, maskLine(line));
    }

    @Test
    void everySyntheticCardIsMaskedPlainWithDashesAndWithSpaces() {
        @SuppressWarnings("unchecked")
        List<String> synthetic = (List<String>) new Pipeline(Paths.get(".")).library("dev.fwframework.pci.CardData", "getSYNTHETIC");
        assertTrue(synthetic.size() >= 10);
        for (String card : synthetic) {
            assertTrue((Boolean) new Pipeline(Paths.get(".")).library("dev.fwframework.pci.CardData", "passesLuhn", card), card);
            String dashed = String.join("-", card.substring(0, 4), card.substring(4, 8), card.substring(8, 12), card.substring(12));
            for (String form : List.of(card, dashed, dashed.replace('-', ' '))) {
                assertEquals("paid with " + "********" + " today", maskLine("paid with " + form + " today"), form);
            }
        }
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', value = {
        "4111 1111 1111 1111 123                   | ******** ********",
        "4111111111111111/1234                     | ********/********",
        "card 4111-1111-1111-1111, 737             | card ********, ********",
        "CVV: 123                                  | CVV: ********",
        "cvv: 123                                  | cvv: ********",
        "cvc2=1234                                 | cvc2=********",
        "CVC2=1234                                 | CVC2=********",
        "Security Code 5555                        | Security Code ********",
        "'{\"cvv\":\"987\"}'                       | '{\"cvv\":\"********\"}'",
        "'{\"number\":\"4111111111111111\",\"cvc\":\"987\"}' | '{\"number\":\"********\",\"cvc\":\"********\"}'",
    })
    void aCvvAfterACardNumberOrNamedAsSuchIsMaskedWhateverTheCase(String line, String masked) {
        assertEquals(masked, maskLine(line));
    }

    /**
     * The order the plugin applies the patterns in matters when a CVV's digits also end the card number: masking the
     * CVV's text first would leave the card number's first twelve digits in clear. The plugin's order is the HashMap
     * order of the names (see PluginLogMasking), which for our names puts the card number first.
     */
    @Test
    void aCardNumberEndingInItsCvvsDigitsIsMaskedWhole() {
        assertEquals("******** ********", maskLine("4111 1111 1111 1234 1234"));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', value = {
        "15 digits 378282246310005 stay",
        "17 digits 41111111111111112 stay",
        "4111-1111-1111-111",
        "build 1234 took 56 s",
        "started 2026-11-26T09:01:02.123Z, finished 26/11/2026 09:14",
        "release 2026.11.26 build 20261126090102",
        "order ORD-2026-000123 shipped",
        "order 1234-5678-9012 refunded",
        "refund 1234 5678 9012 345 done",
        "cvc 12345",
        "security code review 2026",
        "10.0.0.1:8080 answered in 1234 ms",
    })
    void otherNumbersAreLeftAlone(String line) {
        assertEquals(line, maskLine(line));
    }

    @Test
    void eachLineIsMaskedOnItsOwnAndBlankLinesPassThrough() {
        assertEquals("line 1 ********\nline 2 build 1234 took 56 s\n   \n\nlast without end of line ********",
            buildLog("line 1 4242424242424242\nline 2 build 1234 took 56 s\n   \n\nlast without end of line 6011000990139424"));
        assertEquals("", buildLog(""));
        // A line ends after LF, after CR alone, and at the end of the log: a name on one line does not reach a number
        // on the next (the named-cvv pattern would match "CVV:\r\n123" as one text).
        assertEquals("CVV:\r\n123\r\nCVV: ********\r\n \r\nCVV:\r123\rCVV: ********",
            buildLog("CVV:\r\n123\r\nCVV: 123\r\n \r\nCVV:\r123\rCVV: 123"));
    }

    /** mask-passwords MaskPasswordsUtil.java:44-46: a matched text is masked wherever it occurs in the line, not only where it matched. */
    @Test
    void aMatchedCvvIsMaskedEverywhereOnItsLine() {
        assertEquals("CVV: ******** for build ********4", maskLine("CVV: 123 for build 1234"));
        assertEquals("build 1234 took 56 s", maskLine("build 1234 took 56 s"));
    }

    /** mask-passwords MaskPasswordsUtil.java:47: the plugin logs every line it masked, at INFO, to the Jenkins log: masked, never clear. */
    @Test
    void thePluginsOwnLogLineShowsTheMaskedLineOnly() {
        pluginLog.clear();
        maskLine("card 4111 1111 1111 1111 cvv 123");
        maskLine("no card data here");
        assertEquals(1, pluginLog.size());
        assertEquals("Masking Run[]'s line: card ******** cvv ********", pluginLog.get(0).getMessage());
    }

    /**
     * The two masks agree: for every line, the characters CardData.mask (maskCardData) turns into asterisks are exactly
     * the digits that the plugin's patterns match (each pattern run over the line with java.util.regex, as
     * MaskPasswordsUtil.patternMatch does). The plugin then writes its fixed mask over the matched text.
     */
    @Test
    void theLibrarysMaskAndThePluginsPatternsMaskTheSameDigits() {
        List<String> corpus = List.of("4111111111111111", "card 4111-1111-1111-1111 ok", "4111 1111 1111 1111 123",
            "4111111111111111/1234", "card 4111-1111-1111-1111, 737", "CVV: 123", "cvc2=1234", "Security Code 5555",
            "{\"number\":\"4111111111111111\",\"cvc\":\"987\"}", "a4111111111111111b and 5105 1051 0510 5100 done",
            "15 digits 378282246310005 stay", "17 digits 41111111111111112 stay", "build 1234 took 56 s",
            "order 1234-5678-9012 refunded", "cvc 12345", "4111 1111 1111 1111 12345", "cvv2 99");
        Pipeline pipeline = new Pipeline(Paths.get("."));
        for (String line : corpus) {
            String library = (String) pipeline.call("maskCardData", line);
            TreeSet<Integer> byLibrary = new TreeSet<>();
            for (int i = 0; i < line.length(); i++) if (library.charAt(i) == '*' && line.charAt(i) != '*') byLibrary.add(i);
            TreeSet<Integer> byPlugin = new TreeSet<>();
            for (String regex : patterns().values()) {
                Matcher m = Pattern.compile(regex).matcher(line);
                while (m.find()) for (int i = m.start(); i < m.end(); i++) if (Character.isDigit(line.charAt(i))) byPlugin.add(i);
            }
            assertEquals(byLibrary, byPlugin, line);
        }
    }

    /** The 16-digit part is written once in spirit: the same text in both card patterns and in CardData.groovy. */
    @Test
    void theSixteenDigitPartIsTheSameEverywhere() throws Exception {
        Field f = new Pipeline(Paths.get(".")).libraryClass("dev.fwframework.pci.CardData").getDeclaredField("SIXTEEN_DIGITS");
        f.setAccessible(true);
        String sixteen = (String) f.get(null);
        Map<String, String> p = patterns();
        assertEquals(List.of("card-number", "cvv-after-card-number", "named-cvv"), List.copyOf(p.keySet()));
        assertEquals(sixteen + "(?!\\d)", p.get("card-number"));
        assertEquals("(?<=" + sixteen + "[ ,;|/]{1,3})\\d{3,4}(?!\\d)", p.get("cvv-after-card-number"));
    }
}
