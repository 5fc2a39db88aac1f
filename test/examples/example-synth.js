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

module.exports = { synthExample, resources };
