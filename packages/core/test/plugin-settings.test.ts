import { ApplicationFactoryProps, ApplicationSize, IApplicationSpec, PluginSetting, RuntimeType } from '../src';
import { WikiSpec } from './fixtures/wiki-spec';
import { applicationTask, only, synth } from './support/synth';
import { configuredSpec } from '../src/context/plugin-settings';
import { FACTORY_SIZE_DEFAULTS } from '../src/contract/factory-limits';

// A plugin's own settings by configuration (`pluginSettings`, handed to `withSettings()`), and the size it declares
// (`defaultSize()`), which the factory's props and the context keys override.

const DATABASE_URL = 'postgresql://db.example.com:5432/wiki';

/** A wiki that keeps its pages in a database it is told about, and needs more than the framework's default size. */
class DatabaseWikiSpec extends WikiSpec {
  constructor(private readonly values: Record<string, string> = {}, private readonly size: ApplicationSize = { cpu: 2048, memoryLimitMiB: 4096, instanceType: 'm7i.large' }) {
    super();
  }
  public settings(): PluginSetting[] {
    return [
      { name: 'databaseUrl', description: 'The PostgreSQL database of the pages.', pattern: 'postgresql://[^\\s/@]+/\\w+', allowed: `a PostgreSQL URL without credentials, for example ${DATABASE_URL}` },
      { name: 'pageCacheMiB', description: 'Memory for cached pages.', pattern: '\\d{1,5}', allowed: 'a whole number of MiB', defaultValue: '256' },
    ];
  }
  public withSettings(values: Record<string, string>): IApplicationSpec {
    return new DatabaseWikiSpec(values, this.size);
  }
  public defaultSize(): ApplicationSize {
    return this.size;
  }
  public containerEnvironmentVariables(fqdn: string, sslEnabled: boolean, authMode: string): Record<string, string> {
    return {
      ...super.containerEnvironmentVariables(fqdn, sslEnabled, authMode),
      WIKI_DATABASE_URL: this.values.databaseUrl,
      WIKI_PAGE_CACHE_MIB: this.values.pageCacheMiB,
    };
  }
}

function deploy(runtime: RuntimeType, context: Record<string, unknown>, props: ApplicationFactoryProps = {},
  spec: IApplicationSpec = new DatabaseWikiSpec()) {
  return synth(runtime, props, spec, context).json;
}

const task = (json: any) => applicationTask(json).Properties;
const environment = (json: any) => Object.fromEntries(task(json).ContainerDefinitions
  .find((c: any) => c.Name === 'Application').Environment.map((e: any) => [e.Name, e.Value]));

describe('settings by configuration', () => {
  const json = deploy(RuntimeType.FARGATE, { pluginSettings: { databaseUrl: DATABASE_URL } });

  test('the plugin deployed is the one withSettings() returned: the given setting, and the declared default', () => {
    expect(environment(json)).toMatchObject({ WIKI_DATABASE_URL: DATABASE_URL, WIKI_PAGE_CACHE_MIB: '256' });
  });

  test('-c gives them as JSON text; a number in cdk.json arrives as text', () => {
    const fromText = deploy(RuntimeType.FARGATE, { pluginSettings: JSON.stringify({ databaseUrl: DATABASE_URL, pageCacheMiB: 512 }) });
    expect(environment(fromText)).toMatchObject({ WIKI_DATABASE_URL: DATABASE_URL, WIKI_PAGE_CACHE_MIB: '512' });
  });

  test('the factory\'s prop gives them in code', () => {
    const inCode = deploy(RuntimeType.FARGATE, {}, { pluginSettings: { databaseUrl: DATABASE_URL } });
    expect(environment(inCode)).toMatchObject({ WIKI_DATABASE_URL: DATABASE_URL });
  });

  test.each([
    ['a setting the plugin does not declare, with the closest one', { databaseUrl: DATABASE_URL, pageCacheMb: '1' },
      'Invalid pluginSettings for DatabaseWikiSpec (1 problem):\n  - unknown setting \'pageCacheMb\'; did you mean \'pageCacheMiB\'? Settings of DatabaseWikiSpec: databaseUrl, pageCacheMiB.'],
    ['a required setting missing', {},
      'Invalid pluginSettings for DatabaseWikiSpec (1 problem):\n  - databaseUrl is required by DatabaseWikiSpec: The PostgreSQL database of the pages.'],
    ['a value its pattern refuses, with what is allowed', { databaseUrl: 'mysql://db/wiki', pageCacheMiB: 'lots' },
      'Invalid pluginSettings for DatabaseWikiSpec (2 problems):\n  - databaseUrl "mysql://db/wiki" is not allowed; expected a PostgreSQL URL without credentials, for example ' +
      `${DATABASE_URL}.\n  - pageCacheMiB "lots" is not allowed; expected a whole number of MiB.`],
  ])('%s', (_name, pluginSettings, message) => {
    expect(() => deploy(RuntimeType.FARGATE, { pluginSettings })).toThrow(message);
  });

  test('a plugin that declares no settings refuses them, naming itself', () => {
    expect(() => deploy(RuntimeType.FARGATE, { pluginSettings: { databaseUrl: DATABASE_URL } }, {}, new WikiSpec()))
      .toThrow('pluginSettings gives databaseUrl, but WikiSpec (applicationId wiki) takes no settings (its settings() declares none); remove pluginSettings.');
  });

  test('pluginSettings that are not an object of text, numbers or true/false: the context key\'s own message', () => {
    expect(() => deploy(RuntimeType.FARGATE, { pluginSettings: { databaseUrl: [DATABASE_URL] } }))
      .toThrow(/pluginSettings \{"databaseUrl":\["postgresql:\/\/db\.example\.com:5432\/wiki"\]\} is not allowed; expected a JSON object of the plugin's setting names/);
  });

  test('a declaration the framework cannot check, and a withSettings() that returns another plugin', () => {
    class BadDeclaration extends DatabaseWikiSpec {
      public settings(): PluginSetting[] { return [{ name: 'x', description: 'x', pattern: '(' }, { name: '2x', description: 'x' }]; }
    }
    expect(() => deploy(RuntimeType.FARGATE, {}, {}, new BadDeclaration()))
      .toThrow(/^BadDeclaration\.settings\(\) is not a valid declaration:\n {2}- BadDeclaration\.settings\(\)\[0\]\.pattern "\(" is not a regular expression: .*\n {2}- BadDeclaration\.settings\(\)\[1\]\.name "2x" is not allowed/);
    class Forgetful extends DatabaseWikiSpec {
      public withSettings(): IApplicationSpec { return new WikiSpec(); }
      public applicationId() { return 'forgetful'; }
    }
    expect(() => deploy(RuntimeType.FARGATE, { pluginSettings: { databaseUrl: DATABASE_URL } }, {}, new Forgetful()))
      .toThrow('Forgetful.withSettings() returned a plugin whose applicationId is "wiki", not "forgetful": it must return the same plugin, configured.');
  });
});

describe('the size a plugin declares, overridden by the props and the context keys', () => {
  const settings = { pluginSettings: { databaseUrl: DATABASE_URL } };

  test('Fargate: the declared cpu and memory, not the framework\'s', () => {
    expect(FACTORY_SIZE_DEFAULTS.cpu).not.toBe(2048);
    expect(task(deploy(RuntimeType.FARGATE, settings))).toMatchObject({ Cpu: '2048', Memory: '4096' });
  });

  test('Fargate: the context keys cpu and memoryLimitMiB override it, as -c text too', () => {
    expect(task(deploy(RuntimeType.FARGATE, { ...settings, cpu: '4096', memoryLimitMiB: 8192 }))).toMatchObject({ Cpu: '4096', Memory: '8192' });
  });

  test('EC2: the declared instance type; the prop overrides it', () => {
    const instanceType = (json: any) => only(json, 'AWS::EC2::LaunchTemplate').Properties.LaunchTemplateData.InstanceType;
    expect(instanceType(deploy(RuntimeType.EC2, settings))).toBe('m7i.large');
    expect(instanceType(deploy(RuntimeType.EC2, settings, { instanceType: 'm7i.xlarge' }))).toBe('m7i.xlarge');
  });

  test('a declared size Fargate does not run is refused, naming the plugin\'s member', () => {
    expect(() => deploy(RuntimeType.FARGATE, settings, {}, new DatabaseWikiSpec({}, { cpu: 2048, memoryLimitMiB: 2048 })))
      .toThrow('DatabaseWikiSpec.defaultSize().memoryLimitMiB 2048 does not go with DatabaseWikiSpec.defaultSize().cpu 2048 on Fargate; allowed: 4096 to 16384 in steps of 1024 MiB.');
  });

  test('a context key that is no number: the context key\'s own message', () => {
    expect(() => deploy(RuntimeType.FARGATE, { ...settings, cpu: 'two' }))
      .toThrow('cpu "two" is not allowed; expected a whole number of CPU units, for example 2048.');
  });
});

test('an optional setting left out reaches withSettings as no entry; given, it is checked like the others', () => {
  let received: Record<string, string> | undefined;
  class Optional extends WikiSpec {
    public settings(): PluginSetting[] { return [{ name: 'mirror', description: 'a mirror', pattern: 'https://\\S+', allowed: 'an HTTPS URL', optional: true }]; }
    public withSettings(values: Record<string, string>) { received = values; return this; }
  }
  configuredSpec('Optional', new Optional(), {});
  expect(received).toEqual({});
  configuredSpec('Optional', new Optional(), { mirror: 'https://mirror.example.com' });
  expect(received).toEqual({ mirror: 'https://mirror.example.com' });
  expect(() => configuredSpec('Optional', new Optional(), { mirror: 'ftp://x' })).toThrow('mirror "ftp://x" is not allowed; expected an HTTPS URL.');
});
