import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MANIFEST_PATH } from '../../src/registry/manifest';

/** The source of a CommonJS class that has every contract member, with overridable member bodies. */
export function pluginClassSource(className: string, applicationId: string, overrides: Record<string, string> = {}): string {
  const members: Record<string, string> = {
    applicationId: `return ${JSON.stringify(applicationId)};`,
    defaultContainerImage: 'return "example/app:1.0.0";',
    applicationPort: 'return 8080;',
    containerDataPath: 'return "/data";',
    efsDataPath: 'return "/app";',
    volumeName: 'return "app-data";',
    containerUser: 'return "1000:1000";',
    efsPermissions: 'return "750";',
    ebsDeviceName: 'return "/dev/xvdf";',
    ec2DataPath: 'return "/srv/app";',
    ec2LogPaths: 'return ["/var/log/app.log"];',
    configureUserData: '',
    healthCheckPath: 'return "/";',
    containerEnvironmentVariables: 'return {};',
    containerInitialization: 'return undefined;',
    logAlarms: 'return [];',
    supportedAuthModes: 'return ["none", "application-oidc", "alb-oidc"];',
    ephemeralWorkers: 'return undefined;',
    egressRules: 'return [];',
    secrets: 'return {};',
    defaultSize: 'return {};',
    settings: 'return [];',
    withSettings: 'return this;',
    requestBodyLimits: 'return [];',
    blockedRequests: 'return [];',
    knownVulnerabilities: 'return [];',
    softwareComponents: 'return [];',
    complianceControls: 'return [];',
    database: 'return undefined;',
    supportsOidcIntegration: 'return false;',
    oidcIntegration: 'return undefined;',
    ...overrides,
  };
  const body = Object.entries(members)
    .filter(([, code]) => code !== 'DELETE')
    .map(([name, code]) => `  ${name}() { ${code} }`).join('\n');
  return `class ${className} {\n${body}\n}\nexports.${className} = ${className};\n`;
}

export interface FakePackage {
  readonly name: string;
  /** index.js of the package. */
  readonly source: string;
  /** Manifest text. */
  readonly manifest?: string;
  /** More fields of its package.json (for example the plugin contract it records, `fw.pluginContract`). */
  readonly packageJson?: Record<string, unknown>;
}

/** A project directory with the given packages installed in its node_modules. */
export function fakeInstall(packages: FakePackage[]): string {
  const project = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-registry-'));
  for (const pkg of packages) {
    const dir = path.join(project, 'node_modules', ...pkg.name.split('/'));
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: pkg.name, version: '1.0.0', main: 'index.js', ...pkg.packageJson }));
    fs.writeFileSync(path.join(dir, 'index.js'), pkg.source);
    if (pkg.manifest !== undefined) {
      fs.mkdirSync(path.join(dir, path.dirname(MANIFEST_PATH)), { recursive: true });
      fs.writeFileSync(path.join(dir, MANIFEST_PATH), pkg.manifest);
    }
  }
  return project;
}

/** Where a fake package's manifest is. */
export function manifestOf(project: string, packageName: string): string {
  return fs.realpathSync(path.join(project, 'node_modules', ...packageName.split('/'), MANIFEST_PATH));
}
