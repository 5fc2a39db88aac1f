// The parsers of the context keys' values (`context-keys.ts`): each returns the value, or what is allowed.
import { ACCEPTANCE_OWNER_MAX, ACCEPTANCE_TEXT_MAX, type AcceptedAdvisory } from './accepted-advisory';
import { SECRET_ARN_EXAMPLE } from './secret-reference';
import { ipv4Range, ipv4Within, PRIVATE_RANGES } from '../contract/ipv4-range';
import { ADVISORY_ID } from '../contract/known-vulnerability';
import { LITERAL_FIRST_SEGMENT } from '../contract/literal-path';
import { IMAGE_NAME } from '../contract/spec-validation';

/** What a key's parser returns: the value, or a description of what is allowed. */
export type Parsed = { readonly value: unknown } | { readonly allowed: string };

/** `true` or `false`: text from `-c`, or a JSON boolean from cdk.json. */
export function bool(raw: unknown): Parsed {
  return raw === true || raw === 'true' ? { value: true } : raw === false || raw === 'false' ? { value: false } : { allowed: 'true or false' };
}

/** A Secrets Manager secret ARN: the only form in which a secret may be handed to the framework. */
export const SECRET_ARN = /^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:[\w/+=.@-]+$/;

/**
 * The credential of an ECR pull-through cache rule: a secret named `ecr-pullthroughcache/...` (botocore 1.44.8 ECR
 * model, `CredentialArn`: pattern `...:secret:ecr-pullthroughcache/...`).
 */
export const DOCKER_HUB_CREDENTIAL_ARN = /^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:ecr-pullthroughcache\/[\w/+=.@-]+$/;

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
export const DOMAIN = new RegExp(`^(?:${LABEL}\\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$`);
export const SUBDOMAIN = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);

export function text(pattern: RegExp, allowed: string, normalise: (s: string) => string = (s) => s) {
  return (raw: unknown): Parsed => {
    if (typeof raw !== 'string') return { allowed: `text: ${allowed}` };
    const value = normalise(raw.trim());
    return pattern.test(value) ? { value } : { allowed };
  };
}

/**
 * An e-mail address SMTP can deliver to: at most 254 characters, a local part of at most 64 (RFC 5321 4.5.3.1), a
 * domain of DNS labels.
 * @see https://www.rfc-editor.org/rfc/rfc5321#section-4.5.3.1
 */
export function email(raw: unknown): Parsed {
  const allowed = 'an e-mail address such as security@example.com';
  if (typeof raw !== 'string') return { allowed };
  const value = raw.trim();
  const at = value.lastIndexOf('@');
  const local = value.slice(0, at);
  if (at <= 0 || !/^[^\s@]+$/.test(local) || !DOMAIN.test(value.slice(at + 1).toLowerCase())) return { allowed };
  return value.length <= 254 && local.length <= 64 ? { value }
    : { allowed: 'an e-mail address of at most 254 characters, at most 64 before the @ (the SMTP limits of RFC 5321)' };
}

/**
 * OAuth scopes: a list, or their space-separated text as OAuth writes them (RFC 6749 section 3.3: a scope-token is
 * printable ASCII without space, `"` and `\`), each once, `openid` among them (OpenID Connect Core 1.0, section
 * 3.1.2.1: an OpenID Connect request must contain it).
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-3.3
 * @see https://openid.net/specs/openid-connect-core-1_0.html#AuthRequest
 */
export function oidcScopes(raw: unknown): Parsed {
  const scopes: unknown[] | undefined = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.trim().split(/\s+/) : undefined;
  const valid = scopes !== undefined && scopes.every((s) => typeof s === 'string' && /^[\x21\x23-\x5B\x5D-\x7E]+$/.test(s))
    && new Set(scopes).size === scopes.length && scopes.includes('openid');
  return valid ? { value: scopes } : {
    allowed: 'OAuth scopes as a list or space-separated text, each once, printable ASCII without " or \\, openid among them ' +
      '(for example "openid profile email groups")',
  };
}

/** A JSON value, given as one in cdk.json or as its text with `-c`; undefined when the text is no JSON. */
export function jsonValue(raw: unknown): { readonly value: unknown } | undefined {
  if (typeof raw !== 'string') return { value: raw };
  try {
    return { value: JSON.parse(raw) };
  } catch {
    return undefined;
  }
}

/** A JSON object, given as one in cdk.json or as its text with `-c`; undefined for anything else. */
function jsonObject(raw: unknown): Record<string, unknown> | undefined {
  const value = jsonValue(raw)?.value;
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : undefined;
}

/** An image digest, the value of an `imageDigests` entry (its key is an image reference without one: `IMAGE_NAME`). */
const IMAGE_DIGEST = /^sha256:[0-9a-f]{64}$/;

/** A JSON object (or its text, from `-c`) of image reference -> digest. */
export function imageDigests(raw: unknown): Parsed {
  const allowed = 'a JSON object of image references to digests, for example ' +
    '{"example/wiki:1.4.2": "sha256:<64 lower-case hex digits>"}';
  const value = jsonObject(raw);
  if (!value) return { allowed };
  const entries = Object.entries(value);
  const bad = entries.filter(([image, digest]) => !IMAGE_NAME.test(image) || typeof digest !== 'string' || !IMAGE_DIGEST.test(digest));
  return bad.length === 0 ? { value: Object.fromEntries(entries) }
    : { allowed: `${allowed} (not: ${bad.map(([image]) => JSON.stringify(image)).join(', ')})` };
}

/**
 * A JSON object (or its text, from `-c`) of advisory id -> why it is accepted: the reason as text, or
 * `{ "reason": ..., "until": "YYYY-MM-DD", "owner": ..., "reference": ... }`. Whether each id is one the application
 * declares, and whether the profile needs owner and reference, is checked by the factory.
 */
export function acceptedAdvisories(raw: unknown): Parsed {
  const allowed = 'a JSON object of advisory ids to the reason each is accepted, as text or as {"reason": ..., ' +
    '"until": "YYYY-MM-DD", "owner": ..., "reference": ...}, for example {"SECURITY-3972": {"reason": "CLI and config.xml POSTs ' +
    'blocked", "until": "2027-01-31", "owner": "platform-security", "reference": "SEC-12"}}';
  const value = jsonObject(raw);
  if (!value) return { allowed };
  const bad: string[] = [];
  const parsed: Record<string, AcceptedAdvisory> = {};
  const filled = (v: unknown, max: number) => typeof v === 'string' && v.trim().length > 0 && v.length <= max;
  for (const [id, given] of Object.entries(value)) {
    const entry = typeof given === 'string' ? { reason: given } : given as AcceptedAdvisory;
    const ok = filled(entry?.reason, ACCEPTANCE_TEXT_MAX)
      && (entry.until === undefined || isCalendarDate(entry.until))
      && (entry.owner === undefined || filled(entry.owner, ACCEPTANCE_OWNER_MAX))
      && (entry.reference === undefined || filled(entry.reference, ACCEPTANCE_TEXT_MAX))
      && (typeof given === 'string' || Object.keys(given as object).every((k) => ['reason', 'until', 'owner', 'reference'].includes(k)));
    if (!ADVISORY_ID.test(id) || !ok) {
      bad.push(id);
    } else {
      parsed[id] = {
        reason: entry.reason.trim(),
        ...entry.until !== undefined ? { until: entry.until } : {},
        ...entry.owner !== undefined ? { owner: entry.owner.trim() } : {},
        ...entry.reference !== undefined ? { reference: entry.reference.trim() } : {},
      };
    }
  }
  return bad.length === 0 ? { value: parsed }
    : {
      allowed: `${allowed}; each reason and reference 1 to ${ACCEPTANCE_TEXT_MAX} characters, each owner 1 to ` +
      `${ACCEPTANCE_OWNER_MAX}, each until a calendar date, no other field (not: ${bad.map((id) => JSON.stringify(id)).join(', ')})`,
    };
}

/** `YYYY-MM-DD` naming a day that exists. */
function isCalendarDate(value: unknown): boolean {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value;
}

/**
 * A JSON object (or its text, from `-c`) of environment variable name -> secret reference. Each reference's form is
 * checked where the factory reads it (`parseSecretReference`), with a message for each refused form.
 */
export function secretReferences(raw: unknown): Parsed {
  const allowed = 'a JSON object of environment variable names to Secrets Manager secret ARNs, for example ' +
    `{"DB_PASSWORD": "${SECRET_ARN_EXAMPLE}"}`;
  const value = jsonObject(raw);
  if (!value) return { allowed };
  return Object.values(value).every((v) => typeof v === 'string') ? { value } : { allowed };
}

/** A whole number from `min` up (to `max`), as a JSON number or its text (from `-c`). */
export function wholeNumber(min: number, allowed: string, max = Number.MAX_SAFE_INTEGER) {
  return (raw: unknown): Parsed => {
    const value = typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : raw;
    return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? { value } : { allowed };
  };
}

/**
 * A JSON object (or its text, from `-c`) of a plugin's setting name -> its value: text, or a JSON number or boolean,
 * which the plugin receives as text. Each setting is checked against the plugin's `settings()` where the factory reads it.
 */
export function pluginSettings(raw: unknown): Parsed {
  const allowed = 'a JSON object of the plugin\'s setting names to their values (text, numbers or true/false), for ' +
    'example {"jdbcUrl": "jdbc:postgresql://db.example.com:5432/sonar"}';
  const value = jsonObject(raw);
  if (!value) return { allowed };
  const entries = Object.entries(value);
  return entries.every(([, v]) => ['string', 'number', 'boolean'].includes(typeof v))
    ? { value: Object.fromEntries(entries.map(([k, v]) => [k, String(v)])) } : { allowed };
}

export function oneOf(values: readonly string[]) {
  return (raw: unknown): Parsed =>
    typeof raw === 'string' && values.includes(raw) ? { value: raw } : { allowed: `one of ${values.join(', ')}` };
}

/**
 * A VPC's address range: a private (RFC 1918) IPv4 network from /16 to /20. /20 is the smallest that holds the
 * network's subnets (two /24 for the load balancer, two /22 for compute; `Network`).
 * @see https://www.rfc-editor.org/rfc/rfc1918#section-3
 */
export const VPC_PREFIX_LENGTHS = { min: 16, max: 20 } as const;

export function vpcCidr(raw: unknown): Parsed {
  const allowed = `a private (RFC 1918) IPv4 network from /${VPC_PREFIX_LENGTHS.min} to /${VPC_PREFIX_LENGTHS.max} ` +
    'with no host bits set, such as 10.1.0.0/16';
  const range = typeof raw === 'string' ? ipv4Range(raw.trim()) : undefined;
  if (!range || range.prefix < VPC_PREFIX_LENGTHS.min || range.prefix > VPC_PREFIX_LENGTHS.max) return { allowed };
  if (!PRIVATE_RANGES.some(([base, bits]) => ipv4Within(range, base, bits))) return { allowed };
  return { value: `${range.octets.join('.')}/${range.prefix}` };
}

export function httpsUrl(raw: unknown): Parsed {
  const allowed = 'an https:// URL, without spaces or control characters';
  // The URL parser drops spaces at either end, tabs and line breaks before it reads: what it checks would not be what
  // is rendered, so they are refused and the value is rendered as checked.
  if (typeof raw !== 'string' || /[\s\x00-\x1f\x7f]/.test(raw)) return { allowed };
  try {
    return new URL(raw).protocol === 'https:' ? { value: raw } : { allowed };
  } catch {
    return { allowed };
  }
}

/** A KMS key's complete ARN: a key id (a UUID, or `mrk-` and 32 hex digits for a multi-Region key). */
export const KMS_KEY_ARN = /^arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:key\/(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|mrk-[0-9a-f]{32})$/;

/** How many keys `secretKeyArns` takes: one a secret at most, as many as the grant's statement lists. */
export const SECRET_KEY_ARNS_MAX = 10;

/** A list of 1 to `SECRET_KEY_ARNS_MAX` KMS key ARNs, each once. */
export function kmsKeyArns(raw: unknown): Parsed {
  const value = jsonValue(raw)?.value;
  const valid = Array.isArray(value) && value.length >= 1 && value.length <= SECRET_KEY_ARNS_MAX && new Set(value).size === value.length &&
    value.every((k) => typeof k === 'string' && KMS_KEY_ARN.test(k));
  return valid ? { value } : {
    allowed: `a list of 1 to ${SECRET_KEY_ARNS_MAX} KMS key ARNs, each once, for example ` +
      '["arn:aws:kms:eu-west-1:123456789012:key/12345678-1234-1234-1234-123456789012"] (a key id, not an alias)',
  };
}

/**
 * How many path patterns `tokenPaths` takes: one listener rule, which also matches the host name on a platform, and an
 * application load balancer counts at most five condition values a rule.
 * @see https://docs.aws.amazon.com/elasticloadbalancing/latest/application/load-balancer-limits.html
 */
export const TOKEN_PATHS_MAX = 4;

/**
 * Path patterns of an application load balancer's listener rule (its allowed characters, `*` and `?` as wildcards, at
 * most 128 characters, starting with `/`), each once, none matching every path.
 * @see https://docs.aws.amazon.com/elasticloadbalancing/latest/application/rule-condition-types.html#path-conditions
 */
export function tokenPaths(raw: unknown): Parsed {
  const allowed = `a list of 1 to ${TOKEN_PATHS_MAX} load-balancer path patterns, each starting with / (A-Z a-z 0-9 _ - . $ / ~ " ' @ : + & ` +
    'and the wildcards * and ?, at most 128 characters), each once, each with a literal first segment (no wildcard before the ' +
    'second /: /?* would match every path but /), for example ["/repository/*", "/v2/*"]';
  const value = jsonValue(raw)?.value;
  const valid = Array.isArray(value) && value.length >= 1 && value.length <= TOKEN_PATHS_MAX && new Set(value).size === value.length &&
    value.every((p) => typeof p === 'string' && /^\/[A-Za-z0-9_\-.$/~"'@:+&*?]{0,127}$/.test(p) && LITERAL_FIRST_SEGMENT.test(p));
  return valid ? { value } : { allowed };
}
