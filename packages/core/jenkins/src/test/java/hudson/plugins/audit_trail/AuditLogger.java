package hudson.plugins.audit_trail;

/** Stand-in for audit-trail's AuditLogger. */
public abstract class AuditLogger {}
