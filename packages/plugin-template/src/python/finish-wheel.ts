import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Where a plugin project keeps the files added to its wheels' metadata until `fw-finish-python-artifact` adds them. */
export const WHEEL_RESOURCES = '.wheel-resources';

/**
 * Rewrites a wheel with more files in its `.dist-info` directory and its RECORD regenerated (PEP 427: each file's
 * `sha256=` digest, urlsafe base64 without padding, and size). Passed to `python3 -c`: no single quotes in it.
 */
const ADD_TO_DIST_INFO = String.raw`import base64, hashlib, os, sys, zipfile
wheel, resources = sys.argv[1], sys.argv[2]
added = {name: open(os.path.join(resources, name), "rb").read() for name in sorted(os.listdir(resources))}
with zipfile.ZipFile(wheel) as source:
    entries = [(info, source.read(info.filename)) for info in source.infolist()]
dist_info = next(info.filename.split("/")[0] for info, _ in entries if info.filename.endswith(".dist-info/METADATA"))
record_name = dist_info + "/RECORD"
kept = [(info, data) for info, data in entries if info.filename != record_name and info.filename[len(dist_info) + 1:] not in added]
files = [(info.filename, data) for info, data in kept] + [(dist_info + "/" + name, data) for name, data in added.items()]
def line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return name + ",sha256=" + digest + "," + str(len(data))
record = "".join(line(name, data) + "\n" for name, data in files) + record_name + ",,\n"
with zipfile.ZipFile(wheel + ".new", "w", zipfile.ZIP_DEFLATED) as target:
    for name, data in files:
        target.writestr(name, data)
    target.writestr(record_name, record)
os.replace(wheel + ".new", wheel)
print(wheel + ": " + ", ".join(dist_info + "/" + name for name in added))
`;

/**
 * The last step of a plugin's `package:python` (`fw-finish-python-artifact`), once jsii-pacmak has built the wheel:
 * the files in `.wheel-resources/` join its metadata. They are `entry_points.txt` (the plugin classes in the entry-point
 * group `fw.plugins`, which Python's deployment app reads) and `fw_plugin.json` (the plugin contract it was built
 * against, which discovery checks). The source distribution is left as pacmak wrote it: pip installs the wheel.
 */
export function finishWheels(projectDir: string): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(projectDir, 'package.json'), 'utf-8'));
  const dir = path.join(projectDir, pkg.jsii?.outdir ?? 'dist', 'python');
  const wheels = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.whl')) : [];
  if (wheels.length === 0) throw new Error(`no wheel in ${dir}: run jsii-pacmak's python target first`);
  return wheels.map((wheel) => {
    const run = spawnSync('python3', ['-c', ADD_TO_DIST_INFO, path.join(dir, wheel), path.join(projectDir, WHEEL_RESOURCES)], { encoding: 'utf-8' });
    if (run.error || run.status !== 0) throw new Error(`${wheel}: ${run.error?.message ?? run.stderr.trim()}`);
    return run.stdout.trim();
  });
}

/** The command line: finishes the wheels of the project in the working directory and says what it added. */
export function main(): void {
  try {
    for (const line of finishWheels(process.cwd())) console.log(`fw-finish-python-artifact: ${line}`);
  } catch (e) {
    console.error(`fw-finish-python-artifact: ${(e as Error).message}`);
    process.exit(1);
  }
}
