package jenkins.model;

import hudson.PluginManager;
import hudson.model.UpdateCenter;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.LogRecord;

/** Stand-in for Jenkins core's Jenkins: the members the compliance jobs read, with core's signatures. */
public class Jenkins {
    public static List<LogRecord> logRecords = new ArrayList<>();
    public static String VERSION = "2.568.2";
    public static final Jenkins INSTANCE = new Jenkins();

    public final UpdateCenter updateCenter = new UpdateCenter();
    public final PluginManager pluginManager = new PluginManager();

    public static Jenkins get() {
        return INSTANCE;
    }

    public UpdateCenter getUpdateCenter() {
        return updateCenter;
    }

    public PluginManager getPluginManager() {
        return pluginManager;
    }
}
