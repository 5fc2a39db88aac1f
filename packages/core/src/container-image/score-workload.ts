import * as fs from 'node:fs';
import * as path from 'node:path';
import { Validator } from '@cfworker/json-schema';
import { parse } from 'yaml';
import { containerImageProps } from './container-image-config';
import { scoreMapping } from './score-mapping';
import { ScoreWorkloadSpec } from './score-workload-spec';
import type { RuntimeType } from '../contract/runtime-type';
import { referenceProblems } from '../contract/value-boundary';
import { shownValue, UserError } from '../errors';

/** Score's published JSON schema of `score.dev/v1b1`, committed as published (score/README.md says from where). */
export const SCORE_SCHEMA_FILE = path.join(__dirname, '..', '..', 'score', 'score-v1b1.json');

/** A `scoreWorkload` value: a YAML file's path relative to the project (where cdk.json is), never leaving it. */
export const SCORE_WORKLOAD_PATH = /^(?!\/)(?!(?:.*\/)?\.\.(?:\/|$))[\w./-]+\.ya?ml$/;

/** Keywords whose error only says that something beneath failed: the errors beneath say what. */
const BRANCHES = new Set(['properties', '$ref', 'allOf', 'items', 'prefixItems', 'propertyNames']);

let loaded: { readonly schema: any; readonly validator: Validator } | undefined;

/** Score's schema and its validator, read once a process (a platform may describe several applications in Score). */
function scoreSchema(): { readonly schema: any; readonly validator: Validator } {
  if (!loaded) {
    const schema = JSON.parse(fs.readFileSync(SCORE_SCHEMA_FILE, 'utf-8'));
    loaded = { schema, validator: new Validator(schema, '2020-12', false) };
  }
  return loaded;
}

/** A JSON pointer's parts (`#/a/b~1c` is a, b/c), as the validator reports locations. */
function pointer(location: string): string[] {
  const rest = location.replace(/^#\/?/, '');
  return rest === '' ? [] : rest.split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * Every way `workload` breaks Score's schema, each naming the field and Score's rule (never the value: a variable may
 * hold what someone pasted), or none.
 */
export function scoreSchemaProblems(workload: unknown): string[] {
  const { schema, validator } = scoreSchema();
  const { errors } = validator.validate(workload);
  const field = (location: string) => pointer(location).join('.') || '(the file)';
  const describe = (keywordLocation: string) => {
    const node = pointer(keywordLocation).slice(0, -1).reduce<any>((n, k) => n?.[k], schema);
    return typeof node?.description === 'string' ? ` (Score: ${node.description})` : '';
  };
  return errors
    .filter((e) => !BRANCHES.has(e.keyword))
    // A property's "does not match" when the error at the property itself says why (false: no such field).
    .filter((e) => !(e.keyword === 'additionalProperties' && errors.some((o) => o.instanceLocation.startsWith(`${e.instanceLocation}/`))))
    .map((e) => (e.keyword === 'false' ? `${field(e.instanceLocation)}: no such field in Score's schema`
      : `${field(e.instanceLocation)}: ${e.error}${describe(e.keywordLocation)}`));
}

/**
 * The application the Score workload file `file` describes (`scoreWorkload`): read from `projectDirectory`, checked
 * against Score's schema, then mapped; every problem at once, each naming the file and the field.
 */
export function scoreWorkloadSpec(applicationId: string, file: unknown, runtimeType: RuntimeType,
  projectDirectory = process.cwd()): ScoreWorkloadSpec {
  if (typeof file !== 'string' || !SCORE_WORKLOAD_PATH.test(file)) {
    throw new UserError(`scoreWorkload ${shownValue(file)} (applicationId ${applicationId}) is not allowed; expected the path of a .yaml file ` +
      'beside cdk.json or below it, of letters, digits and _ . / - without .., for example "score.yaml".');
  }
  const where = `scoreWorkload ${file} (applicationId ${applicationId})`;
  const full = path.join(projectDirectory, file);
  if (!fs.existsSync(full)) throw new UserError(`${where}: there is no such file in ${projectDirectory}; give its path from there.`);
  let workload: unknown;
  try {
    workload = parse(fs.readFileSync(full, 'utf-8'));
  } catch (e) {
    throw new UserError(`${where} is not YAML: ${(e as Error).message.split('\n')[0]}`);
  }
  const fail = (problems: string[]) => new UserError(`Invalid ${where} (${problems.length} problem${problems.length > 1 ? 's' : ''}):\n` +
    `${problems.map((p) => `  - ${p}`).join('\n')}`);
  // Every value is data, as every context key's is (docs/context-keys.md): no dynamic reference, no token marker.
  const schemaProblems = [...scoreSchemaProblems(workload), ...workload && typeof workload === 'object'
    ? Object.entries(workload).flatMap(([key, value]) => referenceProblems(key, value, 'context')) : []];
  if (schemaProblems.length > 0) throw fail(schemaProblems);
  const mapped = scoreMapping(applicationId, workload, runtimeType);
  if (mapped.problems.length > 0) throw fail(mapped.problems);
  const props = containerImageProps(applicationId, mapped.containerImage, { where, fields: mapped.fields });
  return new ScoreWorkloadSpec(props, { where, hostVariables: mapped.hostVariables, size: mapped.size, notes: mapped.notes });
}
