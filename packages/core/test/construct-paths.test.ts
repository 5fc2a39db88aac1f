import * as fs from 'node:fs';
import * as path from 'node:path';
import { ContainerImageSpec, RuntimeType, SecurityProfile } from '../src';
import { PLATFORM_PROPS, synthPlatform } from './support/platform';
import { propsFor, synth } from './support/synth';
import { userErrorOf } from './support/user-error';

// A user error says where it was made (UserError.constructPath, which fw-deploy and UserErrors print as "in <path>"),
// as aws-cdk-lib's ValidationError does: the constructs a user creates give their path to every error of their
// construction that names no construct of its own.

test.each([
  ['a context key\'s value', () => synth(RuntimeType.FARGATE, { subdomain: 'Not_A_Label' } as any)],
  ['a plugin setting nobody declared', () => synth(RuntimeType.FARGATE, { pluginSettings: { colour: 'blue' } })],
  ['an image by tag in PRODUCTION, run on EC2', () => synth(RuntimeType.EC2, { ...propsFor(SecurityProfile.PRODUCTION), imageDigests: {} },
    new ContainerImageSpec({ applicationId: 'grafana', image: 'grafana/grafana-oss:11.5.2', port: 3000, user: '472:472', dataPath: '/var/lib/grafana' }))],
])('ApplicationFactory: %s names the factory', (_what, build) => {
  expect(userErrorOf(build).constructPath).toBe('WikiStack/App');
});

test('Platform: a value of its props names the platform', () => {
  expect(userErrorOf(() => synthPlatform([], { ...PLATFORM_PROPS, vpcCidr: '10.0.0.0/8' })).constructPath).toBe('Platform/Platform');
});

test('every construct a user creates passes the errors of its construction through withConstructPath (the sources)', () => {
  const src = path.join(__dirname, '..', 'src');
  const index = fs.readFileSync(path.join(src, 'index.ts'), 'utf-8');
  const exported = [...index.matchAll(/^export \{ ([^}]+) \} from '\.\/([^']+)';$/gm)]
    .flatMap(([, names, file]) => names.split(',').map((n) => ({ name: n.trim(), file: path.join(src, `${file}.ts`) })));
  const constructs = exported.filter(({ name, file }) => new RegExp(`export class ${name} extends Construct\\b`).test(fs.readFileSync(file, 'utf-8')));
  expect(constructs.map((c) => c.name).sort()).toEqual(['ApplicationFactory', 'Platform']);
  for (const { name, file } of constructs) {
    const source = fs.readFileSync(file, 'utf-8');
    const body = source.slice(source.indexOf(`export class ${name}`));
    const constructor = body.slice(body.indexOf('  constructor('), body.indexOf('\n  }\n', body.indexOf('  constructor(')));
    expect([name, /\} catch \(e\) \{\n\s+throw withConstructPath\(e, this\);/.test(constructor)]).toEqual([name, true]);
  }
});
