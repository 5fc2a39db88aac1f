/**
 * A path pattern or prefix that starts with a literal segment: `/` and one character or more, none a wildcard, before
 * the second `/` or the end. A wildcard there (`/*`, `/?*`, `/*?`, `/??*`) or `/` alone would cover whole
 * applications: the load balancer's sign-in skipped on every path (`tokenPaths`), the WAF's body limit lifted
 * everywhere (`requestBodyLimits`).
 */
export const LITERAL_FIRST_SEGMENT = /^\/[^/*?]+(\/|$)/;
