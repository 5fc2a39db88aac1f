package hudson.logging;

import hudson.util.RingBufferLogHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Stand-in for Jenkins core's LogRecorder (jenkinsci/jenkins jenkins-2.568.2,
 * core/src/main/java/hudson/logging/LogRecorder.java): the members the log review and the configuration use, with
 * core's public signatures, and its way of collecting written here from that file:
 * <ul>
 * <li>The constructor (lines 108-114) hangs the recorder's handler on the root logger (core through a WeakLogHandler;
 *     here directly, and {@link #detachAll} takes it off again).</li>
 * <li>The handler (217-236) is a RingBufferLogHandler of the default size (hudson/util/RingBufferLogHandler.java:39,
 *     50-53). Of the targets whose domain holds a record, the one with the longest name decides (orderedTargets,
 *     124-132, sorts by name length, longest first, 340-348; a stable sort, so the first listed wins a tie): the record
 *     is kept if its level reaches that target's level, else dropped, whatever a shorter target says. A record no
 *     target covers is dropped.</li>
 * <li>A target's domain (Target.matches, 300-314) is its logger and the loggers below it (the name followed by a
 *     dot); a target with an empty name covers every record. matches answers null outside the domain, else whether the
 *     record's level is at least the target's.</li>
 * <li>getLogRecords (530-535) is the handler's records, newest first.</li>
 * </ul>
 */
public class LogRecorder {
    /** The handlers the stand-ins hung on the root logger, so that a test can take them down again. */
    static final List<Handler> ATTACHED = new ArrayList<>();

    private final String name;
    private List<Target> loggers = new ArrayList<>();

    private final RingBufferLogHandler handler = new RingBufferLogHandler() {
        @Override
        public void publish(LogRecord record) {
            if (record != null && keeps(record)) super.publish(record);
        }
    };

    public LogRecorder(String name) {
        this.name = name;
        Logger.getLogger("").addHandler(handler);
        ATTACHED.add(handler);
    }

    /** Takes every stand-in recorder's handler off the root logger. */
    public static void detachAll() {
        ATTACHED.forEach(Logger.getLogger("")::removeHandler);
        ATTACHED.clear();
    }

    private boolean keeps(LogRecord record) {
        Target decides = null;
        for (Target t : loggers) {
            if (t.matches(record) != null && (decides == null || t.name.length() > decides.name.length())) decides = t;
        }
        return decides != null && decides.matches(record);
    }

    public String getName() {
        return name;
    }

    public List<Target> getLoggers() {
        return loggers;
    }

    public void setLoggers(List<Target> loggers) {
        this.loggers = loggers;
    }

    public List<LogRecord> getLogRecords() {
        return handler.getView();
    }

    /** A logger name and a level (core: lines 242-338; the constructors and members used here). */
    public static final class Target {
        public final String name;
        private final Level level;

        public Target(String name, Level level) {
            this.name = name;
            this.level = level;
        }

        public Target(String name, String level) {
            this(name, Level.parse(level));
        }

        public String getName() {
            return name;
        }

        public Level getLevel() {
            return level;
        }

        public Boolean matches(LogRecord r) {
            String logger = r.getLoggerName();
            boolean inDomain = name.isEmpty() || logger != null && (logger.equals(name) || logger.startsWith(name + "."));
            return inDomain ? r.getLevel().intValue() >= level.intValue() : null;
        }
    }
}
