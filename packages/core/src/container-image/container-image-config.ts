import type { ContainerImageProps } from './container-image-spec';
import { didYouMean } from '../context/did-you-mean';
import { CONTAINER_COMMAND_LIMITS, containerCommandProblems } from '../contract/container-command';
import { shownValue, UserError } from '../errors';

/** What `entryPoint` and `command` take, as `ContainerCommand` does. */
const ARGUMENTS = `1 to ${CONTAINER_COMMAND_LIMITS.arguments} arguments (text without NUL, at most ${CONTAINER_COMMAND_LIMITS.argumentLength} characters each)`;

/** The fields of `containerImage` in cdk.json: each with its check and what it allows. `applicationId` is the key's. */
export const CONTAINER_IMAGE_FIELDS: Record<string, { readonly required: boolean; readonly valid: (v: any) => boolean; readonly allowed: string }> = {
  image: { required: true, valid: (v) => typeof v === 'string' && v.trim() !== '', allowed: 'the image with its tag, for example "sonatype/nexus3:3.70.1"' },
  port: { required: true, valid: (v) => Number.isInteger(v) && v >= 1 && v <= 65535, allowed: 'the port it listens on, 1 to 65535' },
  user: { required: true, valid: (v) => typeof v === 'string' && /^\d+:\d+$/.test(v), allowed: 'its user as "uid:gid", for example "200:200"' },
  // Letters, digits and _ . / - only: on EC2 the path becomes the unit's BindPaths= and ReadWritePaths= entries.
  dataPath: { required: false, valid: (v) => typeof v === 'string' && /^\/[\w./-]+$/.test(v), allowed: 'the absolute path of its data in the image, of letters, digits and _ . / -, for example "/nexus-data" (without it the image keeps no data)' },
  healthCheckPath: { required: false, valid: (v) => typeof v === 'string' && v.startsWith('/'), allowed: 'a path starting with /' },
  healthCheckPort: { required: false, valid: (v) => Number.isInteger(v) && v >= 1 && v <= 65535, allowed: 'the port the health check calls, 1 to 65535 (by default the port it listens on)' },
  entryPoint: { required: false, valid: (v) => containerCommandProblems('', { entryPoint: v }).length === 0, allowed: `a list of ${ARGUMENTS} replacing the image's ENTRYPOINT, the first not empty, for example ["/opt/keycloak/bin/kc.sh"]` },
  command: { required: false, valid: (v) => containerCommandProblems('', { command: v }).length === 0, allowed: `a list of ${ARGUMENTS} replacing the image's CMD, for example ["start", "--optimized"]` },
  startupSeconds: { required: false, valid: (v) => Number.isInteger(v), allowed: 'a whole number of seconds' },
  environment: {
    required: false,
    valid: (v) => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string' && !x.includes('\0')),
    allowed: 'an object of variable names to text without NUL (secrets go in the secrets key, by ARN)',
  },
  database: { required: false, valid: (v) => typeof v === 'object' && v !== null && !Array.isArray(v), allowed: 'a DatabaseRequirement object' },
  requestBodyLimits: { required: false, valid: Array.isArray, allowed: 'a list of {pathPrefix, maxBytes}' },
  authModes: { required: false, valid: (v) => Array.isArray(v) && v.every((x) => typeof x === 'string'), allowed: 'a list of auth modes' },
  egress: { required: false, valid: Array.isArray, allowed: 'a list of {description, protocol, port, cidr}' },
  defaultCredentials: { required: false, valid: Array.isArray, allowed: 'a list of {account, change}: the accounts the image starts with at its vendor\'s password' },
};

/** Where values other than `containerImage`'s come from (a Score workload), for messages. */
export interface ContainerImageSource {
  /** The description as a whole, for example `scoreWorkload score.yaml (applicationId idp)`. */
  readonly where: string;
  /** Where each field comes from, by field name. */
  readonly fields: Record<string, string>;
}

/**
 * The props of the application an entry's `containerImage` describes, or an error naming every field that is absent,
 * unknown or of the wrong kind; the framework's checks of any plugin then apply to what they describe.
 */
export function containerImageProps(applicationId: string, raw: unknown, from?: ContainerImageSource): ContainerImageProps {
  const where = from?.where ?? `containerImage (applicationId ${applicationId})`;
  const field = (name: string) => from?.fields[name] ?? `containerImage.${name}`;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new UserError(`${where} ${shownValue(raw)} is not allowed; expected an object with ${Object.keys(CONTAINER_IMAGE_FIELDS).join(', ')}.`);
  }
  const value = raw as Record<string, unknown>;
  const problems = [
    ...Object.keys(value).filter((k) => !(k in CONTAINER_IMAGE_FIELDS)).map((k) => {
      const guess = didYouMean(k, Object.keys(CONTAINER_IMAGE_FIELDS));
      return `${field(k)}: no such field${guess ? `; did you mean ${guess}?` : ''} Known: ${Object.keys(CONTAINER_IMAGE_FIELDS).join(', ')}.`;
    }),
    ...Object.entries(CONTAINER_IMAGE_FIELDS).flatMap(([name, check]) => {
      if (value[name] === undefined) return check.required ? [`${field(name)} is required; expected ${check.allowed}.`] : [];
      // The environment's values are not shown (a secret may have been pasted there): only the names that are wrong.
      const shown = name === 'environment' && typeof value[name] === 'object' && value[name] !== null
        ? `(entries ${Object.entries(value[name] as object).filter(([, v]) => typeof v !== 'string' || v.includes('\0')).map(([k]) => JSON.stringify(k)).join(', ') || 'not shown'})`
        : shownValue(value[name]);
      return check.valid(value[name]) ? [] : [`${field(name)} ${shown} is not allowed; expected ${check.allowed}.`];
    }),
  ];
  if (problems.length) throw new UserError(`Invalid ${where} (${problems.length} problem${problems.length > 1 ? 's' : ''}):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  return { applicationId, ...value } as unknown as ContainerImageProps;
}
