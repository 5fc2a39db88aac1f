package dev.fwframework.jenkins;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * Our model of how mask-passwords masks a build log with its global regexes, written from the plugin's source at
 * jenkinsci/mask-passwords-plugin tag 220.v95819055b_265 (src/main/java/com/michelin/cio/hudson/plugins/...) and
 * Jenkins core at jenkinsci/jenkins tag jenkins-2.568.2:
 * <ul>
 * <li>maskpasswords/MaskPasswordsConsoleLogFilter.java:58-82: with globalVarEnableGlobally set, every build's log goes
 *     through a MaskPasswordsOutputStream built with the global passwords (we configure none) and the values of
 *     MaskPasswordsConfig.getGlobalVarMaskRegexesU(), with no run name (the 3-argument constructor,
 *     MaskPasswordsOutputStream.java:111-113, passes "").</li>
 * <li>maskpasswords/MaskPasswordsConfig.java:128, 335-343: those values come from globalVarMaskRegexesMap, a HashMap that
 *     Jenkins' XStream fills from MaskPasswordsConfig.xml one entry at a time (core hudson/util/RobustMapConverter.java:
 *     87-93, registered for maps at XStream2.java:318): the regexes apply in HashMap order of their names, not in the
 *     file's order.</li>
 * <li>maskpasswords/MaskPasswordsOutputStream.java:94-98: each regex is compiled as it is, without flags; 118-124: each
 *     line is decoded, masked and written back, its end of line included. Core's
 *     hudson/console/LineTransformationOutputStream.java:55-106 ends a line after LF, after a CR not followed by LF,
 *     and at close for what is left.</li>
 * <li>util/MaskPasswordsUtil.java:56-58: a blank line is left alone; 18-36: otherwise every match of every pattern is
 *     collected, in pattern order (the non-null groups of a pattern that has groups, else the whole match); 42-50:
 *     each collected text is then replaced wherever it occurs in the line by "********" (line 16), and a line that had
 *     a match is logged at INFO as "Masking Run[&lt;run name&gt;]'s line: " + the masked line stripped of surrounding
 *     white space, to the logger named after the class (line 15).</li>
 * </ul>
 * The plugin decodes and encodes each line with the platform charset (MaskPasswordsOutputStream.java:119, 123); this
 * model works on text already decoded.
 */
final class PluginLogMasking {
    static final String MASK = "********";
    static final Logger PLUGIN_LOG = Logger.getLogger("com.michelin.cio.hudson.plugins.util.MaskPasswordsUtil");

    private final List<Pattern> patterns = new ArrayList<>();

    /** The global regexes, by name, as MaskPasswordsConfig.xml lists them. */
    PluginLogMasking(Map<String, String> globalRegexes) {
        Map<String, String> asXStreamFillsIt = new HashMap<>();
        globalRegexes.forEach(asXStreamFillsIt::put);
        asXStreamFillsIt.values().forEach(regex -> patterns.add(Pattern.compile(regex)));
    }

    /** A build's log as the plugin writes it. */
    String maskLog(String log) {
        StringBuilder masked = new StringBuilder();
        for (String line : log.split("(?<=\n)|(?<=\r)(?!\n)")) masked.append(maskLine(line));
        return masked.toString();
    }

    /** One line, its end of line included. */
    String maskLine(String line) {
        if (line.isBlank()) return line;
        List<String> found = new ArrayList<>();
        for (Pattern pattern : patterns) {
            pattern.matcher(line).results().forEach(match -> {
                if (match.groupCount() == 0) found.add(match.group());
                else IntStream.rangeClosed(1, match.groupCount()).mapToObj(match::group).filter(Objects::nonNull).forEach(found::add);
            });
        }
        if (found.isEmpty()) return line;
        for (String text : found) line = line.replace(text, MASK);
        PLUGIN_LOG.info("Masking Run[]'s line: " + line.strip());
        return line;
    }
}
