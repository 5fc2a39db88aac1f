import * as fs from 'node:fs';
import * as path from 'node:path';
import { mockClient } from 'aws-sdk-client-mock';
import { AwsCalls, CLIENT_CLASS, PREFLIGHT_CLIENTS, type PreflightClient } from '../../src/preflight/clients';

// The AWS answers the preflight tests mock, held to the services' own models: every response and every call's input
// must use only members botocore's model gives the operation (aws/preflight/operation-shapes.json, derived by
// tools/aws/preflight-shapes/derive.py from the pinned cfn-lint's botocore, its version in the file's `source`), and every error a mock throws must
// be one the model lists for it, or one of the errors every call can meet.

/** Errors outside the operations' own lists: the query protocol's validation error, and the common ones. */
const COMMON_ERRORS = ['ValidationError', 'AccessDeniedException', 'AccessDenied', 'UnauthorizedOperation', 'CredentialsProviderError', 'ExpiredToken'];

const SHAPES = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'aws', 'preflight', 'operation-shapes.json'), 'utf-8'));

type Tree = string | { enum: string[] } | Tree[] | { [member: string]: Tree };

/** What in `value` the shape `tree` has no place for, as `path: problem` lines. */
export function misfits(value: unknown, tree: Tree, at = '$'): string[] {
  if (value === undefined) return [];
  if (Array.isArray(tree)) {
    return Array.isArray(value) ? value.flatMap((v, i) => misfits(v, tree[0], `${at}[${i}]`)) : [`${at}: a list in the model`];
  }
  if (typeof tree === 'string') {
    const ok = { string: typeof value === 'string', boolean: typeof value === 'boolean', timestamp: value instanceof Date || typeof value === 'string' }[tree]
      ?? (['integer', 'long', 'double', 'float'].includes(tree) ? typeof value === 'number' : true);
    return ok ? [] : [`${at}: ${JSON.stringify(value)} is not a ${tree}`];
  }
  if ('enum' in tree && Array.isArray(tree.enum)) {
    return tree.enum.includes(value as string) ? [] : [`${at}: ${JSON.stringify(value)} is none of ${tree.enum.join(', ')}`];
  }
  if (typeof value !== 'object' || value === null) return [`${at}: a structure in the model`];
  const members = tree as Record<string, Tree>;
  return Object.entries(value).flatMap(([k, v]) => (members['*'] !== undefined ? misfits(v, members['*'], `${at}.${k}`)
    : members[k] === undefined ? [`${at}.${k}: no such member`] : misfits(v, members[k], `${at}.${k}`)));
}

function operation(client: PreflightClient, name: string): { input: Tree; output: Tree; errors: string[] } {
  const op = SHAPES.clients[client]?.operations[name];
  if (!op) throw new Error(`${client} ${name}: not in aws/preflight/operation-shapes.json (add it to tools/aws/preflight-shapes/derive.py)`);
  return op;
}

/** An error as the SDK throws it: its `name` is the service's error code. */
export function awsError(name: string, message = name): Error {
  return Object.assign(new Error(message), { name });
}

/**
 * Every client mocked: `answer` registers a response (checked against the model) or an error (one the model lists),
 * `inputs` returns what preflight sent (checked against the model too). Unanswered calls return `{}`.
 */
export class MockedAws {
  private readonly mocks = new Map<PreflightClient, any>();

  constructor() {
    for (const client of Object.keys(PREFLIGHT_CLIENTS) as PreflightClient[]) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      this.mocks.set(client, mockClient(require(client)[CLIENT_CLASS[client]]));
    }
  }

  /** The AwsCalls preflight's checks are given. */
  public calls(region = 'eu-west-1'): AwsCalls {
    return new AwsCalls(region, __dirname);
  }

  public answer(client: PreflightClient, name: string, response: object | Error, input?: object): this {
    const op = operation(client, name);
    if (response instanceof Error) {
      if (!op.errors.includes(response.name) && !COMMON_ERRORS.includes(response.name)) throw new Error(`${name} lists no error ${response.name}: ${op.errors.join(', ')}`);
    } else {
      const wrong = misfits(response, op.output);
      if (wrong.length > 0) throw new Error(`${client} ${name}: the mocked response is not shaped as the model's:\n${wrong.join('\n')}`);
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const command = require(client)[`${name}Command`];
    const stub = input ? this.mocks.get(client)!.on(command, input) : this.mocks.get(client)!.on(command);
    if (response instanceof Error) stub.rejects(response); else stub.resolves(response);
    return this;
  }

  /** Every call preflight sent, `client Operation`, with any input member the model does not have. */
  public sent(): { call: string; input: any; misfits: string[] }[] {
    return [...this.mocks].flatMap(([client, mock]) => mock.calls().map((c: any) => {
      const name = c.args[0].constructor.name.replace(/Command$/, '');
      return { call: `${client.replace('@aws-sdk/client-', '')} ${name}`, input: c.args[0].input, misfits: misfits(c.args[0].input, operation(client, name).input) };
    }));
  }

  public reset(): void {
    for (const mock of this.mocks.values()) mock.reset();
  }

  public restore(): void {
    for (const mock of this.mocks.values()) mock.restore();
  }
}
