/**
 * Requests to the application that the load balancer's WAF blocks from outside: endpoints nobody needs from the
 * internet and configuration cannot switch off (the build server's script console and CLI). What reaches the
 * application inside the VPC (its build agents, other applications over private routes) does not pass the WAF.
 */
export interface BlockedRequest {
  /**
   * A regular expression the request's path matches, once percent-decoded and its `//`, `.` and `..` segments resolved
   * (WAF's URL_DECODE and NORMALIZE_PATH), for example `^/cli(/.*)?$`. At most `BLOCKED_PATH_PATTERN_MAX` characters.
   */
  readonly pathPattern: string;
  /** Only requests of this HTTP method, upper case, for example `POST`. @default - every method */
  readonly method?: string;
  /**
   * Only requests whose `Content-Type` header, lower-cased, matches this regular expression, for example
   * `^\\s*(application|text)/xml` for an XML body with or without parameters. At most `BLOCKED_PATH_PATTERN_MAX` characters.
   * @default - any content type, or none
   */
  readonly contentTypePattern?: string;
}

/**
 * The longest pattern: 200 characters, WAF's quota for a regex pattern (AWS WAF Developer Guide, "AWS WAF quotas"; the
 * API model allows 512: botocore 1.44.8 wafv2 `RegexPatternString`).
 */
export const BLOCKED_PATH_PATTERN_MAX = 200;
/** At most this many blocked requests a plugin (each costs the web ACL capacity units). */
export const BLOCKED_REQUESTS_MAX = 10;

/** Every problem with a plugin's blocked requests, each naming the entry, its value and what is allowed. */
export function blockedRequestProblems(blocked: unknown, where: string): string[] {
  if (!Array.isArray(blocked)) return [`${where} returned ${JSON.stringify(blocked)}; allowed: a list of BlockedRequest.`];
  if (blocked.length > BLOCKED_REQUESTS_MAX) return [`${where} lists ${blocked.length} requests; allowed: at most ${BLOCKED_REQUESTS_MAX}.`];
  return blocked.flatMap((request: BlockedRequest, i) => {
    const problems: string[] = [];
    const pattern = request?.pathPattern;
    if (typeof pattern !== 'string' || pattern.length === 0 || pattern.length > BLOCKED_PATH_PATTERN_MAX || !compiles(pattern)) {
      problems.push(`${where}[${i}].pathPattern ${JSON.stringify(pattern)}; allowed: a regular expression of 1 to ` +
        `${BLOCKED_PATH_PATTERN_MAX} characters.`);
    }
    const type = request?.contentTypePattern;
    if (type !== undefined && (typeof type !== 'string' || type.length === 0 || type.length > BLOCKED_PATH_PATTERN_MAX || !compiles(type))) {
      problems.push(`${where}[${i}].contentTypePattern ${JSON.stringify(type)}; allowed: a regular expression of 1 to ` +
        `${BLOCKED_PATH_PATTERN_MAX} characters.`);
    }
    if (request?.method !== undefined && !/^[A-Z]{3,7}$/.test(request.method)) {
      problems.push(`${where}[${i}].method ${JSON.stringify(request.method)}; allowed: an HTTP method in upper case, for example POST.`);
    }
    return problems;
  });
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}
