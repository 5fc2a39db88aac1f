package hudson.plugins.audit_trail;

import java.util.ArrayList;
import java.util.List;

/** Stand-in for audit-trail's AuditTrailPlugin (a GlobalConfiguration there). */
public class AuditTrailPlugin {
    public final List<AuditLogger> loggers = new ArrayList<>();

    public List<AuditLogger> getLoggers() {
        return loggers;
    }
}
