import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { RuntimeType, SecurityProfile } from '../../src';
import { CONFORMANCE_PACK_RULES_MAX, CONFORMANCE_PACK_TEMPLATE_MAX, CUSTOMER_INPUT_RULES } from '../../src/compliance/pci-conformance-pack';
import { PCI_DSS_MAPPING } from '../../src/compliance/pci-dss-401/mapping';
import { CONTEXT_KEYS } from '../../src/context/context-keys';
import { requireInCi } from '../support/shellcheck';
import { synth } from '../support/synth';

describe('pciConformancePack', () => {
  const { stack, template } = synth(RuntimeType.FARGATE, { securityProfile: SecurityProfile.DEV, pciConformancePack: true });

  test('deploys AWS\'s PCI DSS 4.0 conformance pack, every rule of the mapping, within AWS Config\'s template limit', () => {
    const [pack] = Object.values(template.findResources('AWS::Config::ConformancePack')) as any[];
    // botocore 1.44.8 config model: ConformancePackName matches [a-zA-Z][-a-zA-Z0-9]*, at most 256 characters.
    expect(pack.Properties.ConformancePackName).toBe('fw-pci-dss-4-WikiStack');
    const body: string = pack.Properties.TemplateBody;
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(CONFORMANCE_PACK_TEMPLATE_MAX);
    const rules = Object.values(JSON.parse(body).Resources) as any[];
    expect(rules.length).toBeLessThanOrEqual(CONFORMANCE_PACK_RULES_MAX);
    expect(rules.map((r) => r.Properties.ConfigRuleName).sort())
      .toEqual(PCI_DSS_MAPPING.rules.map((r) => r.configRule).filter((name) => !(name in CUSTOMER_INPUT_RULES)).sort());
    expect(rules.find((r) => r.Properties.ConfigRuleName === 'cw-loggroup-retention-period-check').Properties)
      .toEqual({ ConfigRuleName: 'cw-loggroup-retention-period-check', Source: { Owner: 'AWS', SourceIdentifier: 'CW_LOGGROUP_RETENTION_PERIOD_CHECK' }, Scope: { ComplianceResourceTypes: ['AWS::Logs::LogGroup'] } });
  });

  test('every input is a value: no Ref to a parameter the body does not declare; no placeholder of AWS\'s', () => {
    const body = JSON.parse(Object.values<any>(template.findResources('AWS::Config::ConformancePack'))[0].Properties.TemplateBody);
    expect(body.Parameters).toBeUndefined();
    expect(JSON.stringify(body)).not.toMatch(/"Ref"|"Fn::/);
    const blacklisted = Object.values<any>(body.Resources).find((r) => r.Properties.ConfigRuleName === 's3-bucket-blacklisted-actions-prohibited');
    expect(blacklisted.Properties.InputParameters.blacklistedActionPattern).toMatch(/^s3:DeleteBucketPolicy, /);
    expect(Object.keys(CUSTOMER_INPUT_RULES)).toEqual(['s3-bucket-policy-not-more-permissive']);
  });

  const hasCfnLint = requireInCi(spawnSync('cfn-lint', ['--version']).status === 0, 'cfn-lint');
  (hasCfnLint ? test : test.skip)('cfn-lint passes on the body, as the template it is', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-pack-')), 'body.json');
    fs.writeFileSync(file, Object.values<any>(template.findResources('AWS::Config::ConformancePack'))[0].Properties.TemplateBody);
    const run = spawnSync('cfn-lint', ['--format', 'parseable', '--', file], { encoding: 'utf-8' });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  test('warns, at synth, of its prerequisite: a configuration recorder in the account and region', () => {
    Annotations.fromStack(stack).hasWarning('*', Match.stringLikeRegexp('configuration recorder recording in this account and region.*NoAvailableConfigurationRecorderException'));
  });

  test('is off unless set, and takes true or false only', () => {
    const key = CONTEXT_KEYS.find((k) => k.name === 'pciConformancePack')!;
    expect([key.required, key.parse('true'), key.parse(false), key.parse('yes')]).toEqual([false, { value: true }, { value: false }, { allowed: 'true or false' }]);
    expect(Template.fromJSON(synth(RuntimeType.FARGATE, { securityProfile: SecurityProfile.DEV }).json).findResources('AWS::Config::ConformancePack')).toEqual({});
  });
});
