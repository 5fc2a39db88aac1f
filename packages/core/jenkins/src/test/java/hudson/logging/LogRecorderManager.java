package hudson.logging;

import java.util.ArrayList;
import java.util.List;

/**
 * Stand-in for Jenkins core's LogRecorderManager (jenkinsci/jenkins jenkins-2.568.2,
 * core/src/main/java/hudson/logging/LogRecorderManager.java), with core's signatures: the recorders, as
 * configuration-as-code sets them (setRecorders, a @DataBoundSetter, lines 109-123; core also indexes them by name
 * for its URLs, which nothing here reads), and the look-up by name (getLogRecorder, lines 139-141: a recorder with
 * that name from the configured list, or null).
 */
public class LogRecorderManager {
    private List<LogRecorder> recorders;

    public LogRecorderManager() {
        this.recorders = new ArrayList<>();
    }

    public List<LogRecorder> getRecorders() {
        return recorders;
    }

    public void setRecorders(List<LogRecorder> recorders) {
        this.recorders = recorders;
    }

    public LogRecorder getLogRecorder(String token) {
        for (LogRecorder recorder : recorders) {
            if (recorder.getName().equals(token)) return recorder;
        }
        return null;
    }
}
