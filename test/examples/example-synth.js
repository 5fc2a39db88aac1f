// What an example's own test synthesises: `npx cdk synth -q` in examples/<name>, as a user runs it (the CDK's
// CloudFormation validation on), into a directory of its own.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

/** The example's directory, its cdk.json context, where it was synthesised, the run, and each stack's template by name. */
function synthExample(name) {
  const example = path.join(__dirname, '..', '..', 'examples', name);
  const cdkJson = JSON.parse(fs.readFileSync(path.join(example, 'cdk.json'), 'utf-8')).context;
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), `fw-${name}-`));
  const run = spawnSync('npx', ['cdk', 'synth', '-q', '-o', outdir], {
    cwd: example, encoding: 'utf-8', env: { ...process.env, CDK_DISABLE_CLI_TELEMETRY: 'true' },
  });
  const template = (stack) => JSON.parse(fs.readFileSync(path.join(outdir, `${stack}.template.json`), 'utf-8'));
  return { example, cdkJson, outdir, run, template };
}

/** A template's resources of one type, as [logical id, resource] pairs. */
const resources = (t, type) => Object.entries(t.Resources).filter(([, r]) => r.Type === type);

/**
 * How the ECS services of the templates in `files` roll out, against the profile's rule (deploymentAlarmRollback,
 * docs/security-profiles.md): in STAGING and PRODUCTION each rolls back on its health alarms, named; in every profile
 * a service whose task writes EFS never runs a second task (`MaximumPercent` at most 100, one task: one writer of the
 * application's data), and one without keeps its tasks serving while new ones start (`MinimumHealthyPercent` 100).
 */
function rolloutProblems(files, alarmRollback) {
  return files.flatMap((file) => {
    const template = JSON.parse(fs.readFileSync(file, 'utf-8'));
    return resources(template, 'AWS::ECS::Service').flatMap(([id, service]) => {
      const deployment = service.Properties.DeploymentConfiguration ?? {};
      const alarms = deployment.Alarms ?? {};
      const where = `${path.basename(file)} ${id}`;
      const task = template.Resources[service.Properties.TaskDefinition.Ref].Properties;
      const writesEfs = (task.Volumes ?? []).some((v) => v.EFSVolumeConfiguration);
      return [
        ...alarmRollback && !(alarms.Enable === true && alarms.Rollback === true && alarms.AlarmNames?.length > 0) ? [`${where}: does not roll back on its alarms`] : [],
        ...!alarmRollback && alarms.Enable === true ? [`${where}: rolls back on alarms in DEV`] : [],
        // One writer of its file system never runs twice; an application without one keeps serving while it changes.
        ...writesEfs && (deployment.MaximumPercent ?? 200) > 100 ? [`${where}: writes EFS, MaximumPercent ${deployment.MaximumPercent ?? '200 (ECS\'s default)'}`] : [],
        ...writesEfs && service.Properties.DesiredCount > 1 ? [`${where}: writes EFS, DesiredCount ${service.Properties.DesiredCount}`] : [],
        ...!writesEfs && deployment.MinimumHealthyPercent !== 100 ? [`${where}: no data of its own, MinimumHealthyPercent ${deployment.MinimumHealthyPercent}`] : [],
      ];
    });
  });
}

/** Every template a directory of `cdk synth -o` holds. */
const templatesIn = (dir) => fs.readdirSync(dir).filter((f) => f.endsWith('.template.json')).map((f) => path.join(dir, f));

module.exports = { synthExample, resources, rolloutProblems, templatesIn };
