package hudson.plugins.audit_trail;

/** Stand-in for audit-trail's LogFileAuditLogger (getLog comes from AbstractLogFileAuditLogger there). */
public class LogFileAuditLogger extends AuditLogger {
    private final String log;

    public LogFileAuditLogger(String log) {
        this.log = log;
    }

    public String getLog() {
        return log;
    }
}
