import { App, Stack } from 'aws-cdk-lib';
import { ApplicationFactory, ApplicationSpec, Ec2Context, IApplicationSpec, IUserDataBuilder, RuntimeType } from '../src';
import { callPlugin, pluginName } from '../src/contract/plugin-calls';
import { UserError } from '../src/errors';
import { WikiSpec } from './fixtures/wiki-spec';

/** A plugin from another language as jsii hands it over: an ApplicationSpec instance with the members overridden. */
function asFromJava(overrides: Partial<Record<keyof IApplicationSpec, (...args: any[]) => any>>): IApplicationSpec {
  const wiki = new WikiSpec();
  const spec = new (ApplicationSpec as any)();
  for (const member of Object.getOwnPropertyNames(WikiSpec.prototype).filter((m) => m !== 'constructor')) {
    spec[member] = (wiki as any)[member].bind(spec);
  }
  return Object.assign(spec, overrides);
}

describe('the name messages give a plugin', () => {
  test('its class name when written in TypeScript', () => {
    expect(pluginName(new WikiSpec())).toBe('WikiSpec');
  });

  test('its applicationId() when jsii hands over the base class (Java, .NET) or a plain object (Python, Go)', () => {
    expect(pluginName(asFromJava({}))).toBe('wiki');
    expect(pluginName(Object.assign(Object.create(Object.prototype), { applicationId: () => 'wiki' }))).toBe('wiki');
  });

  test('a fallback that says why when applicationId() gives nothing', () => {
    expect(pluginName(asFromJava({ applicationId: () => { throw new Error('boom'); } }))).toBe('the plugin (its applicationId() gives no name)');
  });

  test('a bad value of a plugin from another language names it by applicationId, not ApplicationSpec', () => {
    const app = new App();
    expect(() => new ApplicationFactory(new Stack(app, 'S'), 'App', RuntimeType.FARGATE, asFromJava({ applicationPort: () => 70000 })))
      .toThrow(/^Plugin wiki declares invalid values:\n {2}- wiki\.applicationPort\(\) returned 70000; allowed: /);
  });
});

describe('a plugin member that throws', () => {
  test('becomes a UserError naming the plugin and the member, with the original message', () => {
    const error = (() => {
      try {
        callPlugin('WikiSpec', 'configureUserData', () => { throw new TypeError('x is not a function'); });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toBe('WikiSpec.configureUserData() threw: x is not a function');
  });

  test.each([
    [RuntimeType.EC2, 'configureUserData', class UnpinnedUserData extends WikiSpec {
      public configureUserData(_b: IUserDataBuilder, _c: Ec2Context): void { throw new Error('the wiki package is not pinned'); }
    }],
    [RuntimeType.FARGATE, 'containerEnvironmentVariables', class UnpinnedEnvironment extends WikiSpec {
      public containerEnvironmentVariables(): Record<string, string> { throw new Error('the wiki package is not pinned'); }
    }],
    [RuntimeType.FARGATE, 'containerInitialization', class UnpinnedInitialization extends WikiSpec {
      public containerInitialization(): undefined { throw new Error('the wiki package is not pinned'); }
    }],
  ])('on %s, %s', (runtime, member, Spec) => {
    const app = new App();
    expect(() => new ApplicationFactory(new Stack(app, 'S'), 'App', runtime, new Spec()))
      .toThrow(new RegExp(`^Unpinned\\w+\\.${member}\\(\\) threw: the wiki package is not pinned$`));
  });
});
