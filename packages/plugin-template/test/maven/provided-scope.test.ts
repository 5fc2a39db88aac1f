import { FRAMEWORK_AND_CDK, PACMAK_POM, scopes } from './pom-fixture';
import { peerMavenNames, withProvidedScope } from '../../src/maven/provided-scope';

describe('withProvidedScope', () => {
  test('the framework, aws-cdk-lib and constructs become provided; the jsii runtime and the rest keep their scope', () => {
    expect(scopes(PACMAK_POM)['dev.fwframework:core']).toBe('(none)');
    expect(scopes(withProvidedScope(PACMAK_POM, FRAMEWORK_AND_CDK))).toEqual({
      'dev.fwframework:core': 'provided',
      'software.amazon.awscdk:aws-cdk-lib': 'provided',
      'software.constructs:constructs': 'provided',
      'software.amazon.jsii:jsii-runtime': '(none)',
      'org.jetbrains:annotations': 'provided',
    });
  });

  test('the scope goes on its own line after the version, indented like it; nothing else changes', () => {
    const pom = withProvidedScope(PACMAK_POM, ['dev.fwframework:core']);
    expect(pom).toContain('      <version>0.1.0</version>\n      <scope>provided</scope>\n    </dependency>');
    expect(pom.replace('\n      <scope>provided</scope>', '')).toBe(PACMAK_POM);
  });

  test('a scope already written is replaced, and a second run changes nothing', () => {
    const compile = PACMAK_POM.replace('<version>10.8.1</version>', '<version>10.8.1</version>\n      <scope>compile</scope>');
    expect(scopes(withProvidedScope(compile, FRAMEWORK_AND_CDK))['software.constructs:constructs']).toBe('provided');
    const once = withProvidedScope(PACMAK_POM, FRAMEWORK_AND_CDK);
    expect(withProvidedScope(once, FRAMEWORK_AND_CDK)).toBe(once);
  });

  test('a name the POM does not have is an error that names it', () => {
    expect(() => withProvidedScope(PACMAK_POM, ['dev.fwframework:core', 'dev.fwframework:api']))
      .toThrow('the POM has no dependency dev.fwframework:api');
  });
});

describe('peerMavenNames', () => {
  const closure = {
    '@fw/core': { targets: { java: { maven: { groupId: 'dev.fwframework', artifactId: 'core' } } } },
    'aws-cdk-lib': { targets: { java: { maven: { groupId: 'software.amazon.awscdk', artifactId: 'aws-cdk-lib' } } } },
    'constructs': { targets: { java: { maven: { groupId: 'software.constructs', artifactId: 'constructs' } } } },
    'some-library': { targets: { java: { maven: { groupId: 'org.example', artifactId: 'some-library' } } } },
  };

  test('each npm peer dependency by the Maven name its assembly declares; other dependencies are not named', () => {
    expect(peerMavenNames({ '@fw/core': '^0.1.0', 'aws-cdk-lib': '^2.263.0', 'constructs': '^10.8.1' }, { dependencyClosure: closure }))
      .toEqual(FRAMEWORK_AND_CDK);
  });

  test('a peer dependency without a Java target is an error that names it', () => {
    expect(() => peerMavenNames({ 'left-pad': '^1.0.0' }, { dependencyClosure: closure }))
      .toThrow('the peer dependency left-pad has no Maven name in the jsii assembly');
  });
});
