import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { parse, stringify } from 'yaml';
import { DeploymentApp, RuntimeType } from '../src';
import { requireInCi } from './support/shellcheck';
import { applicationTask, only, resources, userData } from './support/synth';
import { scorePieces } from '../src/container-image/score-placeholders';
import { SCORE_SCHEMA_FILE, scoreSchemaProblems, scoreWorkloadSpec } from '../src/container-image/score-workload';

// A Score workload file (scoreWorkload) as the description of an application: validated against Score's published
// schema, then mapped; what cannot be honoured is refused, every problem at once. examples/score-workload is the
// identity provider the any-image issue could not run: its file is synthesised here in PRODUCTION on both runtimes.

const EXAMPLE = path.join(__dirname, '..', '..', '..', 'examples', 'score-workload');
const CDK_JSON = JSON.parse(fs.readFileSync(path.join(EXAMPLE, 'cdk.json'), 'utf-8')).context;
const WORKLOAD = parse(fs.readFileSync(path.join(EXAMPLE, 'score.yaml'), 'utf-8'));

/** Runs `body` with the working directory at `dir`, as the CDK CLI runs the app where cdk.json is. */
function inDirectory<T>(dir: string, body: () => T): T {
  const before = process.cwd();
  process.chdir(dir);
  try {
    return body();
  } finally {
    process.chdir(before);
  }
}

function synthExample(context: Record<string, unknown> = {}) {
  const app = new App({ context: { ...CDK_JSON, ...context } });
  const stack = inDirectory(EXAMPLE, () => DeploymentApp.addTo(app));
  return { stack, json: Template.fromStack(stack).toJSON() };
}

/** A directory with `score.yaml` holding `workload`, where `scoreWorkloadSpec` reads it. */
function project(workload: unknown): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-score-'));
  fs.writeFileSync(path.join(dir, 'score.yaml'), typeof workload === 'string' ? workload : stringify(workload));
  return dir;
}
const mapped = (workload: unknown, runtimeType = RuntimeType.FARGATE, id = 'keycloak') => () => scoreWorkloadSpec(id, 'score.yaml', runtimeType, project(workload));
const refusal = (body: () => unknown) => {
  try {
    body();
  } catch (e) {
    return (e as Error).message.split('\n').slice(1).map((l) => l.replace(/^ {2}- /, ''));
  }
  throw new Error('not refused');
};

const fargate = synthExample();
const ec2 = synthExample({ runtimeType: 'EC2' });

test('the schema is Score\'s, byte for byte as score/README.md records it', () => {
  const recorded = /SHA-256 `([0-9a-f]{64})`/.exec(fs.readFileSync(path.join(path.dirname(SCORE_SCHEMA_FILE), 'README.md'), 'utf-8'))![1];
  expect(createHash('sha256').update(fs.readFileSync(SCORE_SCHEMA_FILE)).digest('hex')).toBe(recorded);
});

test('placeholders read as Score\'s reference library reads them (score-go v1.12.0, framework/substitution_test.go)', () => {
  const shown = (value: string) => scorePieces(value).map((p) => ('text' in p ? p.text : `<${p.ref.join('|')}>`)).join('');
  expect(['', 'abc', '$abc', 'abc $$ abc', '$${abc}', '$$${abc}', '$$$${abc}', '$${abc .4t3298y *(^&(*}', 'my name is ${metadata.name}',
    'my name is ${metadata.thing\\.two}', '${metadata.annotations.key\\.com/foo-bar}'].map(shown)).toEqual(['', 'abc', '$abc', 'abc $ abc',
    '${abc}', '$<abc>', '$${abc}', '${abc .4t3298y *(^&(*}', 'my name is <metadata|name>', 'my name is <metadata|thing.two>',
    '<metadata|annotations|key.com/foo-bar>']);
});

describe('examples/score-workload in PRODUCTION', () => {
  test('Fargate: the command and args, the size, the readiness probe on the management port, the variables', () => {
    const container = applicationTask(fargate.json).Properties.ContainerDefinitions.find((c: any) => c.Name === 'Application');
    const c = WORKLOAD.containers.keycloak;
    expect([container.EntryPoint, container.Command, container.User]).toEqual([c.command, c.args, '1000:0']);
    expect([applicationTask(fargate.json).Properties.Cpu, applicationTask(fargate.json).Properties.Memory]).toEqual(['1024', '2048']);
    const targets = resources(fargate.json, 'AWS::ElasticLoadBalancingV2::TargetGroup').map(([, t]) => t.Properties);
    expect(targets.map((t) => [t.Port, t.HealthCheckPath, t.HealthCheckPort])).toEqual([[8080, '/health/ready', '9000']]);
    const environment = Object.fromEntries(container.Environment.map((e: any) => [e.Name, e.Value]));
    expect(environment).toMatchObject({ KC_DB: 'postgres', KC_HOSTNAME: 'https://login.example.com', KC_PROXY_HEADERS: 'xforwarded' });
    // The URL from the database's own values, in the form the file gives.
    expect(JSON.stringify(environment.KC_DB_URL)).toMatch(/^\{"Fn::Join":\["",\["jdbc:postgresql:\/\/",\{"Fn::GetAtt":\["\w+","Endpoint\.Address"\]\},.*\?sslmode=require"\]\]\}$/);
  });

  test('the database is the application\'s own, its user and password secrets, never environment values', () => {
    expect(only(fargate.json, 'AWS::RDS::DBInstance').Properties.EngineVersion).toMatch(/^17/);
    const container = applicationTask(fargate.json).Properties.ContainerDefinitions.find((c: any) => c.Name === 'Application');
    expect(container.Secrets.map((s: any) => s.Name).sort()).toEqual(['KC_BOOTSTRAP_ADMIN_PASSWORD', 'KC_DB_PASSWORD', 'KC_DB_USERNAME']);
    expect(container.Environment.map((e: any) => e.Name)).not.toContain('KC_DB_PASSWORD');
  });

  test('EC2: the unit runs the same command; the secrets are read at boot; the limits are named unused', () => {
    const script = userData(ec2.json);
    expect(script).toContain(`'${JSON.stringify({ entryPoint: WORKLOAD.containers.keycloak.command, command: WORKLOAD.containers.keycloak.args })}'`);
    expect(script).toMatch(/fw_env_secret '\/etc\/fw\/[^']+' 'KC_DB_PASSWORD' /);
    expect(script).not.toMatch(/fw_env_line [^\n]*'KC_DB_(PASSWORD|USERNAME)'/);
    Annotations.fromStack(ec2.stack).hasWarning('*', Match.stringLikeRegexp('containers\\.keycloak\\.resources\\.limits is not used on runtimeType EC2'));
    expect(resources(ec2.json, 'AWS::RDS::DBInstance')).toHaveLength(1);
  });
});

test('Score\'s own full sample is valid Score; each field the framework cannot honour is named, every one at once', () => {
  const sample = fs.readFileSync(path.join(__dirname, 'fixtures', 'score', 'score-full.yaml'), 'utf-8');
  expect(scoreSchemaProblems(parse(sample))).toEqual([]);
  const problems = refusal(mapped(sample, RuntimeType.FARGATE, 'example-workload-name123'));
  expect(problems).toEqual(expect.arrayContaining([
    expect.stringMatching(/^resources\.resource-one1\.type: "Resource-One" is not a type the framework provides; supported: postgres/),
    expect.stringMatching(/^containers: container-one1, container-two2 are 2 containers/),
    expect.stringMatching(/^containers\.container-one1\.files: files are not supported/),
    'containers.container-one1.volumes: /mnt/something, /mnt/something-else: one data path is supported',
    'containers.container-one1.volumes./mnt/something.path: a sub-path is not supported; the volume is the data path',
    expect.stringMatching(/^service\.ports: port-one, port-two2 are 2; the load balancer sends requests to one port/),
    expect.stringMatching(/^containers\.container-one1\.readinessProbe\.httpGet\.host: the load balancer's health check sends none/),
    expect.stringMatching(/^containers\.container-one1\.livenessProbe\.exec: the load balancer cannot run a command/),
    expect.stringMatching(/^metadata\.annotations\.fw\/container-user: is required/),
  ]));
});

test('what breaks Score\'s schema is named by field, with Score\'s own rule, and no value', () => {
  const broken = { ...WORKLOAD, metadata: { name: 'Keycloak' }, containers: { keycloak: { ...WORKLOAD.containers.keycloak, cmd: ['x'], variables: { SECRET_KEY: 42 } } } };
  const problems = scoreSchemaProblems(broken);
  expect(problems).toEqual(expect.arrayContaining([
    expect.stringMatching(/^metadata\.name: String does not match pattern\. \(Score: A string that can describe the Workload/),
    'containers.keycloak.cmd: no such field in Score\'s schema',
    expect.stringMatching(/^containers\.keycloak\.variables\.SECRET_KEY: Instance type "number" is invalid\. Expected "string"\./),
  ]));
  expect(problems.join('\n')).not.toContain('42');
  expect(refusal(mapped(broken))[0]).toMatch(/^metadata\.name/);
});

test('a password inside other text, an output a resource lacks, a literal route host, UDP: each refused, naming it', () => {
  const c = WORKLOAD.containers.keycloak;
  const problems = refusal(mapped({
    ...WORKLOAD,
    service: { ports: { http: { port: 8080, protocol: 'UDP' } } },
    containers: { keycloak: { ...c, variables: { ...c.variables, DSN: 'postgres://u:${resources.db.password}@x', PORT_TOO: '${resources.db.sslmode}' } } },
    resources: { ...WORKLOAD.resources, db: { type: 'postgres', class: 'large', id: 'shared-db' }, route: { type: 'route', params: { host: 'login.example.com', path: '/', port: 'http' } } },
  }));
  expect(problems).toEqual([
    'resources.db.class: a class is not supported; leave it out',
    'resources.db.id: a resource shared between workloads (id) is not supported; each application has its own',
    expect.stringMatching(/^containers\.keycloak\.variables\.DSN: holds the database's password inside other text, which would put it in clear text/),
    'containers.keycloak.variables.PORT_TOO: ${resources.db.sslmode} names the output "sslmode" of db (type postgres), which gives host, port, name, database, username, password',
    'service.ports.http.protocol: UDP is not supported; the load balancer speaks HTTP over TCP',
    expect.stringMatching(/^resources\.route\.params\.host: give \$\{resources\.<name>\.host\} of the workload's dns resource/),
  ]);
});

test('a CloudFormation dynamic reference anywhere in the file is refused, naming where and not the value', () => {
  const c = WORKLOAD.containers.keycloak;
  const problems = refusal(mapped({ ...WORKLOAD, containers: { keycloak: { ...c, variables: { TOKEN: '{{resolve:secretsmanager:db}}' } } } }));
  expect(problems).toEqual([expect.stringMatching(/^containers\.keycloak\.variables\.TOKEN holds "\{\{", the start of a CloudFormation dynamic reference/)]);
  expect(problems.join('\n')).not.toContain('resolve:secretsmanager');
});

test('limits that are no Fargate size are rounded up to the nearest that holds them, and said', () => {
  const c = WORKLOAD.containers.keycloak;
  const spec = mapped({ ...WORKLOAD, containers: { keycloak: { ...c, resources: { requests: { cpu: '300m', memory: '1.5Gi' } } } } })();
  expect(spec.defaultSize()).toMatchObject({ cpu: 512, memoryLimitMiB: 2048 });
  expect(spec.notes).toEqual([expect.stringMatching(/requests \(308 CPU units, 1536 MiB\) is not a Fargate task size: the nearest that holds it, 512 CPU units and 2048 MiB, is used/)]);
});

test('the file must be a .yaml path inside the project; both descriptions at once are refused', () => {
  for (const file of ['../score.yaml', '/etc/score.yaml', 'score.json', 'a/../../score.yaml']) {
    expect(() => scoreWorkloadSpec('keycloak', file, RuntimeType.FARGATE, EXAMPLE)).toThrow(/is not allowed; expected the path of a \.yaml file beside cdk\.json/);
  }
  expect(() => scoreWorkloadSpec('keycloak', 'missing.yaml', RuntimeType.FARGATE, EXAMPLE)).toThrow(/there is no such file in/);
  expect(() => synthExample({ containerImage: { image: 'x:1', port: 80, user: '1:1' } }))
    .toThrow('applicationId \'keycloak\' has both containerImage and scoreWorkload; each describes the whole application: keep one.');
});

// Score's reference library validates with santhosh-tekuri/jsonschema (score-go v1.12.0, schema/validate.go); the Go
// program in test/score-validate does as it does. The framework's validator must give the same verdict on each file.
const goAvailable = requireInCi(spawnSync('go', ['version']).status === 0, 'go (to run Score\'s validator)');
(goAvailable ? test : test.skip)('the framework\'s validator agrees with the one Score\'s own tools use, file by file', () => {
  const c = WORKLOAD.containers.keycloak;
  const cases: Record<string, unknown> = {
    'example.yaml': WORKLOAD,
    'sample.yaml': parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'score', 'score-full.yaml'), 'utf-8')),
    'api-version.yaml': { ...WORKLOAD, apiVersion: 'score.dev/v1b2' },
    'name.yaml': { ...WORKLOAD, metadata: { name: '-bad' } },
    'no-containers.yaml': { ...WORKLOAD, containers: {} },
    'number-variable.yaml': { ...WORKLOAD, containers: { keycloak: { ...c, variables: { A: 1 } } } },
    'unknown-field.yaml': { ...WORKLOAD, containers: { keycloak: { ...c, cmd: ['x'] } } },
    'probe-without-kind.yaml': { ...WORKLOAD, containers: { keycloak: { ...c, readinessProbe: {} } } },
    'memory.yaml': { ...WORKLOAD, containers: { keycloak: { ...c, resources: { limits: { memory: '2GB' } } } } },
    'resource-type.yaml': { ...WORKLOAD, resources: { db: { type: '-' } } },
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-score-validate-'));
  for (const [file, workload] of Object.entries(cases)) fs.writeFileSync(path.join(dir, file), stringify(workload));
  const run = spawnSync('go', ['run', '.', SCORE_SCHEMA_FILE, ...Object.keys(cases).map((f) => path.join(dir, f))], {
    cwd: path.join(__dirname, 'score-validate'), encoding: 'utf-8', env: { ...process.env, GOFLAGS: '-mod=mod' },
  });
  // On a machine whose module cache is empty, go prints what it downloads on stderr: the status says how it ended.
  expect([run.status, run.status === 0 ? '' : run.stderr]).toEqual([0, '']);
  const theirs = Object.fromEntries(run.stdout.trim().split('\n').map((line) => line.split('\t')).map(([file, verdict]) => [path.basename(file), verdict]));
  const ours = Object.fromEntries(Object.entries(cases).map(([file, workload]) => [file, scoreSchemaProblems(workload).length === 0 ? 'valid' : 'invalid']));
  expect(ours).toEqual(theirs);
  // Both valid and broken files are among them: the comparison can fail either way.
  expect(Object.values(theirs).filter((v) => v === 'valid')).toHaveLength(2);
}, 300_000);
