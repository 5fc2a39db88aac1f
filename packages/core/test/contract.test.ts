import { AuthMode, BashUserDataBuilder, Ec2Context, Ec2Contexts, IOidcIntegration, PosixUser, RuntimeType, SecurityProfile } from '../src';
import { MinimalSpec, problemsWith } from './fixtures/minimal-spec';
import { WikiSpec } from './fixtures/wiki-spec';
import { specProblems } from '../src/contract/spec-validation';

describe('ApplicationSpec base class: the spec\'s defaults', () => {
  const spec = new MinimalSpec();
  test('healthCheckPath is /', () => expect(spec.healthCheckPath()).toBe('/'));
  test('the container environment is empty', () => {
    expect(spec.containerEnvironmentVariables('ci.example.com', true, AuthMode.APPLICATION_OIDC)).toEqual({});
  });
  test('OIDC is unsupported and there is no integration (rule 7)', () => {
    expect(spec.supportsOidcIntegration()).toBe(false);
    expect(spec.oidcIntegration()).toBeUndefined();
  });
  test('a spec with only the required members passes the framework\'s checks', () => {
    expect(specProblems(spec, 'MinimalSpec')).toEqual([]);
  });
});

describe('the test plugin (specification rule 8)', () => {
  const spec = new WikiSpec();
  test('(a) metadata accessors return the declared values', () => {
    expect(spec.applicationId()).toBe('wiki');
    expect(spec.defaultContainerImage()).toBe('ghcr.io/example/wiki:1.4.2@sha256:3333333333333333333333333333333333333333333333333333333333333333');
    expect(spec.applicationPort()).toBe(3000);
    expect(spec.containerDataPath()).toBe('/srv/wiki-data');
    expect(spec.efsDataPath()).toBe('/wiki');
    expect(spec.volumeName()).toBe('wiki-data');
    expect(spec.containerUser()).toBe('1001:1002');
    expect(spec.efsPermissions()).toBe('750');
    expect(spec.ebsDeviceName()).toBe('/dev/xvdf');
    expect(spec.ec2DataPath()).toBe('/srv/wiki');
    expect(spec.ec2LogPaths()).toEqual(['/var/log/wiki/wiki.log']);
    expect(spec.healthCheckPath()).toBe('/healthz?ready=1');
  });
  test('(b) with an fqdn, sslEnabled true and auth mode none, the public address is https://<fqdn>', () => {
    const address = spec.containerEnvironmentVariables('wiki.example.com', true, AuthMode.NONE).WIKI_PUBLIC_URL;
    expect(address.startsWith('https://')).toBe(true);
    expect(address.endsWith('wiki.example.com')).toBe(true);
  });
  test('without an fqdn, a local address with the application port (rule 1)', () => {
    expect(spec.containerEnvironmentVariables('', true, AuthMode.NONE).WIKI_PUBLIC_URL).toBe('http://localhost:3000');
  });
});

describe('enumerations and constants', () => {
  test('runtime types, security profiles and auth modes carry the context values', () => {
    expect(Object.values(RuntimeType)).toEqual(['FARGATE', 'EC2']);
    expect(Object.values(SecurityProfile)).toEqual(['DEV', 'STAGING', 'PRODUCTION']);
    expect(AuthMode.ALL).toEqual(['none', 'application-oidc', 'alb-oidc']);
  });
});

describe('Ec2Contexts.requireEfsIds (rule 6)', () => {
  const base: Ec2Context = { stackName: 's', securityProfile: 'DEV', runtimeType: 'EC2', logGroupName: '/aws/s/EC2/DEV', serviceUser: 's', sslEnabled: false, hasEfs: true };
  test('returns both ids', () => {
    expect(Ec2Contexts.requireEfsIds({ ...base, efsId: 'fs-1', accessPointId: 'fsap-1' })).toEqual({ efsId: 'fs-1', accessPointId: 'fsap-1' });
  });
  test('fails naming a missing access point', () => {
    expect(() => Ec2Contexts.requireEfsIds({ ...base, efsId: 'fs-1' }))
      .toThrow('Ec2Context.hasEfs is true but accessPointId is missing (efsId: "fs-1", accessPointId: absent); both are required to mount EFS.');
  });
  test('fails naming both when both are missing', () => {
    expect(() => Ec2Contexts.requireEfsIds(base)).toThrow(/efsId and accessPointId are missing/);
  });
  test('fails when there is no EFS at all', () => {
    expect(() => Ec2Contexts.requireEfsIds({ ...base, hasEfs: false })).toThrow(/hasEfs is false/);
  });
  test('the test plugin fails its user data the same way', () => {
    expect(() => new WikiSpec().configureUserData(new BashUserDataBuilder(), { ...base, efsId: 'fs-0123456789abcdef0' }))
      .toThrow(/accessPointId is missing/);
  });
});

describe('PosixUser.parse', () => {
  test('splits uid and gid', () => expect(PosixUser.parse('1000:1001')).toEqual({ uid: '1000', gid: '1001' }));
  test.each(['jenkins', '1000', '1000:', ':1000', 'a:b', '1000:1000:1', ' 1000:1000'])('rejects %j', (value) => {
    expect(() => PosixUser.parse(value)).toThrow(`containerUser '${value}' is not of the form <UID>:<GID>`);
  });
});

describe('spec values checked, naming the plugin and the member', () => {
  test.each([
    ['applicationId', 'Bad Id', /^MinimalSpec\.applicationId\(\) returned "Bad Id"; allowed: lower-case letters/],
    ['containerUser', 'jenkins', /^MinimalSpec\.containerUser\(\) returned "jenkins"; allowed: <UID>:<GID> with numeric ids/],
    ['containerUser', '1000:abc', /containerUser\(\) returned "1000:abc"/],
    ['efsPermissions', '0o750', /^MinimalSpec\.efsPermissions\(\) returned "0o750"; allowed: octal permissions/],
    ['efsPermissions', '789', /efsPermissions\(\) returned "789"/],
    ['applicationPort', 0, /^MinimalSpec\.applicationPort\(\) returned 0; allowed: an integer port from 1 to 65535\.$/],
    ['applicationPort', 65536, /applicationPort\(\) returned 65536/],
    ['applicationPort', 80.5, /applicationPort\(\) returned 80.5/],
    ['containerDataPath', 'data', /^MinimalSpec\.containerDataPath\(\) returned "data"; allowed: an absolute path/],
    ['efsDataPath', 'x/y', /efsDataPath\(\) returned "x\/y"; allowed: an absolute path/],
    ['ec2DataPath', '', /ec2DataPath\(\) returned ""; allowed: an absolute path/],
    ['ec2LogPaths', ['/ok.log', 'relative.log'], /ec2LogPaths\(\) returned \["\/ok.log","relative.log"\]; allowed: a list of absolute paths/],
    ['healthCheckPath', 'health', /^MinimalSpec\.healthCheckPath\(\) returned "health"; allowed: a path starting with \//],
    ['volumeName', 'my volume', /volumeName\(\) returned "my volume"/],
    ['ebsDeviceName', 'xvdf', /ebsDeviceName\(\) returned "xvdf"/],
    ['defaultContainerImage', ' ', /defaultContainerImage\(\) returned " "/],
  ])('%s = %j', (member, value, message) => {
    const problems = problemsWith(member, value);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
  });

  test('a health-check path may carry a query string', () => {
    expect(problemsWith('healthCheckPath', '/login?from=%2F')).toEqual([]);
  });

  test('OIDC support and integration must agree (rule 7)', () => {
    const integration: IOidcIntegration = { callbackPath: () => '/cb', clientSecretVariable: () => 'S', environment: () => ({}) };
    const claimsButNone = Object.assign(new MinimalSpec(), { supportsOidcIntegration: () => true });
    const deniesButHas = Object.assign(new MinimalSpec(), { oidcIntegration: () => integration });
    expect(specProblems(claimsButNone, 'P')).toEqual(['P.oidcIntegration() returned nothing although supportsOidcIntegration() is true.']);
    expect(specProblems(deniesButHas, 'P')[0]).toMatch(/must return nothing when supportsOidcIntegration\(\) is false/);
  });

  test('a plugin that implements the interface directly and lacks a member is told which, and how to fix it', () => {
    const members = Object.fromEntries(Object.getOwnPropertyNames(MinimalSpec.prototype).concat(
      Object.getOwnPropertyNames(Object.getPrototypeOf(MinimalSpec.prototype)))
      .filter((m) => m !== 'constructor' && m !== 'ephemeralWorkers')
      .map((m) => [m, (MinimalSpec.prototype as any)[m]]));
    expect(specProblems(members as any, 'P')).toEqual(['P lacks ephemeralWorkers(): a plugin that implements ' +
      'IApplicationSpec directly writes every member (ephemeralWorkers() returns nothing when it starts no workers); ' +
      'extending ApplicationSpec supplies the defaults.']);
  });

  test.each([
    [{ image: 'a b' }, /^P\.ephemeralWorkers\(\)\.image "a b"; allowed: an image reference/],
    [{ cpu: 300 }, /^P\.ephemeralWorkers\(\)\.cpu 300 is not a Fargate task size; allowed: 256, 512/],
    [{ applicationPorts: [] }, /^P\.ephemeralWorkers\(\)\.applicationPorts \[\]; allowed: a non-empty list of integer ports/],
    [{ applicationPorts: [70000] }, /applicationPorts \[70000\]/],
    [{ environment: { 'BAD-NAME': 'x' } }, /^P\.ephemeralWorkers\(\)\.environment names \["BAD-NAME"\]; allowed: a letter or _/],
  ])('ephemeralWorkers() %j is refused', (change, message) => {
    const workers = { image: 'example/worker:1.0.0', cpu: 256, memoryLimitMiB: 512, applicationPorts: [80], ...change };
    const problems = specProblems(Object.assign(new MinimalSpec(), { ephemeralWorkers: () => workers }), 'P');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
  });

  test('a member that throws is reported, not propagated', () => {
    const spec = Object.assign(new MinimalSpec(), { applicationPort: () => { throw new Error('boom'); } });
    expect(specProblems(spec, 'P')).toEqual(['P.applicationPort() threw: boom']);
  });
});
