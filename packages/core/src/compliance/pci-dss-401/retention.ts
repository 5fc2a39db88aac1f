/** PCI DSS 10.5.1: audit log history is kept for at least twelve months. */
export const MIN_LOG_RETENTION_DAYS = 365;
