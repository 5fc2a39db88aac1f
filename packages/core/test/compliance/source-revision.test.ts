import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { ApplicationFactory, ContainerImageSpec, RuntimeType, SecurityProfile } from '../../src';
import { SOURCE_REVISION_VARIABLE, sourceRevision } from '../../src/compliance/source-revision';
import { PLACEHOLDER_DIGEST } from '../../src/contract/spec-validation';
import { WikiSpec } from '../fixtures/wiki-spec';
import { propsFor, REGION_ENV, synth, testDefaults } from '../support/synth';

// The evidence report identifies what it describes: the source revision (FW_SOURCE_REVISION, else the deployment
// project's git commit; PRODUCTION refuses without one) and each image by its digest (a placeholder is warned in
// every profile and reported as not identified).

const given = process.env[SOURCE_REVISION_VARIABLE];
afterEach(() => {
  if (given === undefined) delete process.env[SOURCE_REVISION_VARIABLE]; else process.env[SOURCE_REVISION_VARIABLE] = given;
});

test('FW_SOURCE_REVISION first; else the git commit of the working directory; else none', () => {
  process.env[SOURCE_REVISION_VARIABLE] = 'v1.2.3-4-gabcdef0';
  expect(sourceRevision()).toBe('v1.2.3-4-gabcdef0');
  delete process.env[SOURCE_REVISION_VARIABLE];
  expect(sourceRevision(__dirname)).toMatch(/^[0-9a-f]{40}(\+uncommitted changes)?$/);
  expect(sourceRevision(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-no-git-')))).toBeUndefined();
});

describe('outside a git repository, without FW_SOURCE_REVISION', () => {
  const here = process.cwd();
  beforeEach(() => {
    delete process.env[SOURCE_REVISION_VARIABLE];
    process.chdir(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-no-git-')));
  });
  afterEach(() => process.chdir(here));
  const factory = (profile: SecurityProfile) => () => {
    const spec = new WikiSpec();
    new ApplicationFactory(new Stack(new App(), 'WikiStack', { env: REGION_ENV }), 'App', RuntimeType.FARGATE, spec, { ...propsFor(profile), ...testDefaults(spec) });
  };

  test('PRODUCTION refuses, saying how to give one', () => {
    expect(factory(SecurityProfile.PRODUCTION)).toThrow('PRODUCTION\'s evidence report names the source revision it was synthesised from, ' +
      'and none is known: set FW_SOURCE_REVISION to the commit your pipeline synthesises, or synthesise in the deployment project\'s git repository once it has a commit.');
  });

  test('STAGING reports it as not stated', () => {
    expect(factory(SecurityProfile.STAGING)).not.toThrow();
  });
});

test('a placeholder digest is warned in every profile and the report names the image as not identified, never by that digest', () => {
  const image = new ContainerImageSpec({ applicationId: 'idp', image: 'example/identity:2.1.0', port: 8080, user: '1000:1000' });
  const zeros = { 'example/identity:2.1.0': PLACEHOLDER_DIGEST };
  const dev = synth(RuntimeType.FARGATE, { imageDigests: zeros }, image);
  Annotations.fromStack(dev.stack).hasWarning('*', Match.stringLikeRegexp('is pinned by the placeholder digest \\(all zeros\\): no image has it'));
  const { app, stack } = synth(RuntimeType.FARGATE, { ...propsFor(SecurityProfile.PRODUCTION), imageDigests: zeros }, image);
  Annotations.fromStack(stack).hasWarning('*', Match.stringLikeRegexp('placeholder digest'));
  const markdown = fs.readFileSync(path.join(app.synth().directory, `${stack.stackName}.pci-dss-4.0.1.md`), 'utf-8');
  const system = markdown.split('\n').find((l) => l.startsWith('System: '))!;
  expect(system).toMatch(/; images not identified \(a placeholder digest, all zeros, is no image's identity\): [^;]+\.$/);
  expect(system).not.toContain(PLACEHOLDER_DIGEST);
});
