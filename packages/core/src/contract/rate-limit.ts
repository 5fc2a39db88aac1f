/**
 * Requests one client address may send to an application in `WAF_RATE_WINDOW_SECONDS` before WAF blocks it for a while
 * (the `rateLimit` context key's default): far above a person's use of the application (a Jenkins page with its
 * polling makes a few requests a minute), low enough to slow password and token guessing and scraping. Webhooks from a
 * shared source (a git host), an office behind one address or builds through one NAT gateway count against one address:
 * raise it for the application they reach.
 */
export const WAF_RATE_LIMIT = 2000;

/** What a rate-based rule's limit may be (AWS WAF's API model, `RateLimit`: aws/wafv2/rate-based-statement.json). */
export const WAF_RATE_LIMIT_BOUNDS = { min: 10, max: 2_000_000_000 } as const;

/** The window WAF counts each address's requests over: 5 minutes, WAF's default (one of 60, 120, 300 and 600). */
export const WAF_RATE_WINDOW_SECONDS = 300;
