import { LITERAL_FIRST_SEGMENT } from './literal-path';

/**
 * A path of the application whose requests carry bodies larger than the load balancer's WAF lets through elsewhere
 * (`WAF_BODY_SIZE_LIMIT`: AWSManagedRulesCommonRuleSet's `SizeRestrictions_BODY`), and the largest body it takes.
 * Everywhere else the rule still blocks them.
 */
export interface RequestBodyLimit {
  /**
   * The start of the paths, for example `/job/`: every request whose path starts with it (case-sensitive), once the
   * path is percent-decoded and its `//`, `.` and `..` segments resolved, as the application serves it. Printable ASCII
   * without spaces, `%` or such segments, at most `REQUEST_BODY_PATH_MAX_BYTES` bytes.
   */
  readonly pathPrefix: string;
  /**
   * The largest body those paths take, in bytes, as the request's `Content-Length` states it. A larger body, or one
   * without a `Content-Length`, is blocked. From `WAF_BODY_SIZE_LIMIT` + 1 to `REQUEST_BODY_MAX_BYTES`.
   */
  readonly maxBytes: number;
}

/**
 * The body size above which `SizeRestrictions_BODY` blocks a request: 8 KB (AWS WAF Developer Guide, "Baseline rule
 * groups", core rule set).
 */
export const WAF_BODY_SIZE_LIMIT = 8192;
/** A WAF byte-match string holds at most 200 bytes (botocore 1.44.8 wafv2 model, `ByteMatchStatement.SearchString`). */
export const REQUEST_BODY_PATH_MAX_BYTES = 200;
/** The largest `maxBytes`: 1 GiB, far above any form or upload an application behind a load balancer takes. */
export const REQUEST_BODY_MAX_BYTES = 2 ** 30;
/** At most this many paths a plugin (each costs the web ACL a few capacity units). */
export const REQUEST_BODY_LIMITS_MAX = 10;

/** Every problem with a plugin's declared limits, each naming the entry, its value and what is allowed. */
export function requestBodyLimitProblems(limits: unknown, where: string): string[] {
  if (!Array.isArray(limits)) return [`${where} returned ${JSON.stringify(limits)}; allowed: a list of RequestBodyLimit.`];
  if (limits.length > REQUEST_BODY_LIMITS_MAX) {
    return [`${where} lists ${limits.length} paths; allowed: at most ${REQUEST_BODY_LIMITS_MAX}.`];
  }
  return limits.flatMap((limit: RequestBodyLimit, i) => {
    const problems: string[] = [];
    const prefix = limit?.pathPrefix;
    // The WAF matches the resolved path (RESOLVED_PATH): a prefix that resolving would change never matches.
    if (typeof prefix !== 'string' || !/^\/[\x21-\x7e]*$/.test(prefix) || prefix.length > REQUEST_BODY_PATH_MAX_BYTES ||
      /%|\/\/|\/\.\.?(\/|$)/.test(prefix) || !LITERAL_FIRST_SEGMENT.test(prefix)) {
      problems.push(`${where}[${i}].pathPrefix ${JSON.stringify(prefix)}; allowed: a path starting with / and a literal first ` +
        'segment (not / alone, which would lift the limit everywhere; no * or ? before the second /), printable ASCII ' +
        `without spaces, %, // or . and .. segments, at most ${REQUEST_BODY_PATH_MAX_BYTES} bytes.`);
    }
    const max = limit?.maxBytes;
    if (!Number.isInteger(max) || max <= WAF_BODY_SIZE_LIMIT || max > REQUEST_BODY_MAX_BYTES) {
      problems.push(`${where}[${i}].maxBytes ${JSON.stringify(max)}; allowed: an integer from ${WAF_BODY_SIZE_LIMIT + 1} ` +
        `to ${REQUEST_BODY_MAX_BYTES} (smaller bodies pass the WAF everywhere).`);
    }
    return problems;
  });
}
