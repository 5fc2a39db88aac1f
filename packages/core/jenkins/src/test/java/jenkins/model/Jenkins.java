package jenkins.model;

import hudson.PluginManager;
import hudson.logging.LogRecorderManager;
import hudson.model.TopLevelItem;
import hudson.model.UpdateCenter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.LogRecord;

/**
 * Stand-in for Jenkins core's Jenkins: the members the compliance jobs read, with core's signatures (jenkinsci/jenkins
 * jenkins-2.568.2 core/src/main/java/jenkins/model/Jenkins.java).
 */
public class Jenkins {
    /** Core: WebAppMain's ring buffer, INFO and above only (WebAppMain.java:112-119, 342-345). No job reads it. */
    public static List<LogRecord> logRecords = new ArrayList<>();
    public static String VERSION = "2.568.2";
    public static final Jenkins INSTANCE = new Jenkins();

    public final UpdateCenter updateCenter = new UpdateCenter();
    public final PluginManager pluginManager = new PluginManager();

    /**
     * Core: lines 882 and 2660-2678. getLog checks SYSTEM_READ: a build has it, as it runs as SYSTEM unless a
     * QueueItemAuthenticator says otherwise (hudson/model/queue/Tasks.java:105-113, hudson/model/Queue.java:2136-2140).
     */
    private transient LogRecorderManager log = new LogRecorderManager();

    public LogRecorderManager getLog() {
        return log;
    }

    public void setLog(LogRecorderManager log) {
        this.log = log;
    }

    /** The top-level items a test sets up, by name. */
    public final Map<String, TopLevelItem> items = new LinkedHashMap<>();

    /** Core: Jenkins.getItem(String), the top-level item of that name or null. */
    public TopLevelItem getItem(String name) {
        return items.get(name);
    }

    public static Jenkins get() {
        return INSTANCE;
    }

    public UpdateCenter getUpdateCenter() {
        return updateCenter;
    }

    public PluginManager getPluginManager() {
        return pluginManager;
    }

    /** Core: Jenkins.getQueue() (line 2091). */
    public final hudson.model.Queue queue = new hudson.model.Queue();

    public hudson.model.Queue getQueue() {
        return queue;
    }

    /** Core: the built-in node's executors, Jenkins.getNumExecutors() (line 3283). */
    public int numExecutors = 0;

    public int getNumExecutors() {
        return numExecutors;
    }
}
