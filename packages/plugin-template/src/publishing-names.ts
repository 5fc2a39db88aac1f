import { pascalCase } from './names';

/** Where a plugin publishes for Java, Go and .NET: names under its author's namespace, never the framework's. */
export interface PublishingNames {
  readonly mavenGroupId: string;
  readonly javaPackage: string;
  readonly goModule: string;
  /** The .NET namespace, also the NuGet package id. */
  readonly dotNet: string;
}

/** The namespaces the framework itself publishes under: nobody else can publish there. */
export const FRAMEWORK_NAMESPACES = { maven: 'dev.fwframework', go: 'github.com/fw-framework/', dotNet: 'FwFramework' } as const;

/**
 * Code-hosting services whose users Maven Central gives a namespace of their own, verified by the account
 * (https://central.sonatype.org/register/namespace/: `io.github.<user>`, ...). Any other host is reversed
 * (`git.example.com` gives `com.example.git`).
 */
const HOSTED_NAMESPACES: Record<string, string> = { 'github.com': 'io.github', 'gitlab.com': 'io.gitlab', 'bitbucket.org': 'io.bitbucket' };

/** `https://host/owner/repo(.git)`, `git@host:owner/repo.git`, `ssh://git@host/owner/repo.git`, `git+https://...`. */
const REPOSITORY = /^(?:git\+)?(?:[a-z]+:\/\/)?(?:[^@/]+@)?([A-Za-z0-9.-]+)(?::\d+)?[:/]([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+?)(?:\.git)?\/?$/;

/**
 * The Maven group, Java package and Go module a plugin publishes under, from its repository's address: `projen new`
 * sets `repositoryUrl` from the git remote (or from git's `github.user` or e-mail), so a scaffold gets its author's
 * names without a question. `flat` is the package name as a Java identifier, `pascal` the application id's.
 */
export function publishingNames(repositoryUrl: string, flat: string, pascal: string): PublishingNames {
  const match = REPOSITORY.exec(repositoryUrl.trim());
  if (!match) {
    throw new Error(`fw-plugin: cannot derive the Maven group and the Go module from repositoryUrl ${JSON.stringify(repositoryUrl)}; ` +
      'give a repository address such as https://github.com/<owner>/<repo>.git, or set publishToMaven (javaPackage, mavenGroupId, ' +
      'mavenArtifactId), publishToGo (moduleName) and publishToNuget (dotNetNamespace, packageId) yourself');
  }
  const [, host, owner, repo] = match;
  const mavenGroupId = `${HOSTED_NAMESPACES[host.toLowerCase()] ?? host.toLowerCase().split('.').reverse().join('.')}.${owner.toLowerCase()}`;
  // A Java package's parts are identifiers: no '-' or '.', no leading digit.
  const javaParts = mavenGroupId.split('.').map((part) => part.replace(/[^a-z0-9_]/g, '_').replace(/^(?=\d)/, '_'));
  const ownerPascal = pascalCase(owner).replace(/^(?=\d)/, '_');
  return {
    mavenGroupId,
    javaPackage: [...javaParts, flat].join('.'),
    goModule: `${host.toLowerCase()}/${owner}/${repo}-go`,
    dotNet: `${ownerPascal}.FwPlugins.${pascal}`,
  };
}

/** Each name given or derived that lies in the framework's namespaces: a plugin cannot be published there. */
export function frameworkNamespaceProblems(names: PublishingNames): string[] {
  const inMaven = (name: string) => name === FRAMEWORK_NAMESPACES.maven || name.startsWith(`${FRAMEWORK_NAMESPACES.maven}.`);
  return [
    ...inMaven(names.mavenGroupId) ? [`the Maven group ${names.mavenGroupId}`] : [],
    ...inMaven(names.javaPackage) ? [`the Java package ${names.javaPackage}`] : [],
    ...names.goModule.startsWith(FRAMEWORK_NAMESPACES.go) ? [`the Go module ${names.goModule}`] : [],
    ...names.dotNet === FRAMEWORK_NAMESPACES.dotNet || names.dotNet.startsWith(`${FRAMEWORK_NAMESPACES.dotNet}.`) ? [`the .NET namespace ${names.dotNet}`] : [],
  ];
}

/**
 * The names a plugin publishes under: each one given, else derived from `repositoryUrl`; refused, all named at once,
 * where one lies in the framework's namespaces.
 */
export function authorNames(repositoryUrl: string, given: Partial<PublishingNames>, flat: string, pascal: string): PublishingNames {
  const complete = given.mavenGroupId && given.javaPackage && given.goModule && given.dotNet;
  const derived = complete ? undefined : publishingNames(repositoryUrl, flat, pascal);
  const names: PublishingNames = {
    mavenGroupId: given.mavenGroupId ?? derived!.mavenGroupId,
    javaPackage: given.javaPackage ?? derived!.javaPackage,
    goModule: given.goModule ?? derived!.goModule,
    dotNet: given.dotNet ?? derived!.dotNet,
  };
  const refused = frameworkNamespaceProblems(names);
  if (refused.length > 0) {
    throw new Error(`fw-plugin: ${refused.join(', ')} ${refused.length > 1 ? 'are' : 'is'} in the framework's own namespace, where ` +
      'a plugin cannot be published; use your organisation\'s (set repositoryUrl to your repository, or publishToMaven, publishToGo and publishToNuget)');
  }
  return names;
}
