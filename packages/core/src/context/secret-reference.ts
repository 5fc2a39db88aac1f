import { Token, Tokenization } from 'aws-cdk-lib';

/**
 * A secret the application reads into one environment variable, in the form ECS's `valueFrom` takes: a Secrets
 * Manager secret, and optionally one key of its JSON and a version.
 * @see https://docs.aws.amazon.com/AmazonECS/latest/developerguide/secrets-envvar-secrets-manager.html
 */
export interface SecretReference {
  /** The secret's complete ARN, or a token for it (`secret.secretArn` of a secret in the same app). */
  readonly secretArn: string;
  /** The key of the secret's JSON whose value the variable gets; absent: the whole SecretString. */
  readonly jsonKey?: string;
  readonly versionStage?: string;
  readonly versionId?: string;
}

/** The form each message shows. */
export const SECRET_ARN_EXAMPLE = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:db-password-AbCdEf';
/** The JSON-key form, as ECS writes it: `<complete ARN>:<json-key>:<version-stage>:<version-id>`, the last two may be empty. */
export const SECRET_JSON_KEY_EXAMPLE = `${SECRET_ARN_EXAMPLE}:password::`;

const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** `arn:<partition>:<service>:<region>:<account>:<resource>`; a secret's resource is `secret:<name>`. */
const ARN = /^arn:aws[a-z-]*:([a-z0-9-]+):[a-z0-9-]*:(?:\d{12})?:(.+)$/;
/** A secret's name as Secrets Manager stores it, with the `-` and six characters it appends to make the complete ARN. */
const COMPLETE_NAME = /^[\w/+=.@-]+-[A-Za-z0-9]{6}$/;

const HOW = `give the complete ARN as Secrets Manager shows it (for example ${SECRET_ARN_EXAMPLE}), ` +
  `the JSON-key form for one key of a JSON secret (${SECRET_JSON_KEY_EXAMPLE}), ` +
  'or a secret of the same app by its secretArn';

/**
 * Reads one entry of `secrets`: the reference, or the problem, naming the variable as `where` shows it (for example
 * `WikiSpec.secrets().DB_PASSWORD`). A value that is not an ARN is never shown: it may be the secret itself.
 */
export function parseSecretReference(where: string, variable: string, value: unknown): SecretReference | { problem: string } {
  if (!VARIABLE.test(variable)) {
    return { problem: `${where}: ${JSON.stringify(variable)} is not an environment variable name; allowed: letters, digits and _, not starting with a digit, for example DB_PASSWORD.` };
  }
  if (typeof value !== 'string' || value === '') {
    return { problem: `${where} is ${value === '' ? 'empty' : `a ${value === null ? 'null' : typeof value}`}, not a secret reference; ${HOW}.` };
  }
  if (Token.isUnresolved(value)) return tokenReference(where, value);
  const arn = ARN.exec(value);
  if (!arn) return { problem: `${where} is not an ARN (the value is not shown: it may be the secret itself); ${HOW}.` };
  const [, service, resource] = arn;
  // Shown only up to the secret's name: a value pasted after the ARN (a password) is never echoed.
  const shown = JSON.stringify(value.slice(0, value.length - resource.length) + resource.split(':').slice(0, 2).join(':'));
  if (service !== 'secretsmanager' || !resource.startsWith('secret:')) {
    return { problem: `${where} is an ARN of ${service} (${JSON.stringify(value.slice(0, value.length - resource.length))}...), not of a Secrets Manager secret; ${HOW}.` };
  }
  const [, name, ...fields] = resource.split(':');
  if (fields.length !== 0 && fields.length !== 3) {
    return {
      problem: `${where} is ${shown} with ${fields.length} field${fields.length > 1 ? 's' : ''} after it (not shown): the JSON-key form has three fields after the secret's name, ` +
      `<json-key>:<version-stage>:<version-id>, the last two may be empty (for example ${SECRET_JSON_KEY_EXAMPLE}).`,
    };
  }
  if (!COMPLETE_NAME.test(name)) {
    return {
      problem: `${where} is ${shown}, a partial ARN: it lacks the - and six characters Secrets ` +
      `Manager appends to the name, which ECS and IAM need; ${HOW}.`,
    };
  }
  return withFields(where, value, value.slice(0, value.length - resource.length) + `secret:${name}`, fields);
}

/** A deploy-time ARN: a whole token (`secret.secretArn`), or one followed by the JSON-key fields. */
function tokenReference(where: string, value: string): SecretReference | { problem: string } {
  const fragments = Tokenization.reverseString(value);
  // The token's text is the same string each time it is rendered, so what follows it is the literal tail.
  const head = fragments.tokens.length === 1 ? Token.asString(fragments.firstToken) : undefined;
  const tail = head !== undefined && value.startsWith(head) ? value.slice(head.length) : undefined;
  const fields = tail ? tail.split(':').slice(1) : [];
  if (tail === undefined || (tail !== '' && (!tail.startsWith(':') || fields.length !== 3))) {
    return {
      problem: `${where} is a value known only at deploy time, but not a secret's secretArn (alone, or followed ` +
      'by :<json-key>:<version-stage>:<version-id>); give secret.secretArn, or `${secret.secretArn}:password::` for one key of its JSON.',
    };
  }
  return withFields(where, value, head!, fields);
}

function withFields(where: string, value: string, secretArn: string, fields: string[]): SecretReference | { problem: string } {
  if (fields.length === 0) return { secretArn };
  const [jsonKey, versionStage, versionId] = fields;
  if (versionStage && versionId) {
    return { problem: `${where} names both a version stage and a version id; ECS takes one of them, for example ${SECRET_JSON_KEY_EXAMPLE.replace(/::$/, ':AWSCURRENT:')}.` };
  }
  if (!jsonKey && !versionStage && !versionId) {
    return {
      problem: `${where} is ${Token.isUnresolved(value) ? 'a secretArn' : JSON.stringify(secretArn)} followed by three empty fields; ` +
      'leave them out for the whole SecretString, or name the JSON key (for example :password::).',
    };
  }
  return { secretArn, ...jsonKey ? { jsonKey } : {}, ...versionStage ? { versionStage } : {}, ...versionId ? { versionId } : {} };
}
