import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BashUserDataBuilder } from '../src';
import { loopDeviceUnavailable, runInSandbox, Stubs } from './support/sandbox';
import { needing } from './support/shellcheck';

// The real EBS snippet on a real block device: a loop device stands in for the EBS volume. Only the package
// manager is stubbed; blkid, mkfs, mount and chown are real, inside a private mount namespace.
const STUBS: Stubs = { dnf: '', yum: '' };

function sh(cmd: string): string {
  const run = spawnSync('bash', ['-c', cmd], { encoding: 'utf-8' });
  if (run.status !== 0) throw new Error(`${cmd} failed: ${run.stderr}`);
  return run.stdout.trim();
}

needing('root, a mount namespace and a free loop device', loopDeviceUnavailable()).describe('mountEbs on a loop device', () => {
  let image: string;
  let device: string;

  beforeAll(() => {
    image = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-ebs-')), 'volume.img');
    sh(`truncate -s 64M ${image}`);
    device = sh(`losetup -f --show ${image}`);
  });

  afterAll(() => {
    if (device) spawnSync('losetup', ['-d', device]);
  });

  function script(extra: string): string {
    const b = new BashUserDataBuilder();
    b.mountEbs(device, '/srv/data', '1000', '1000');
    b.addCommands(extra);
    return b.render();
  }

  test('the first boot formats and mounts; a second boot keeps the data and the fstab line', () => {
    const first = runInSandbox(script(
      'printf "kept across boots\\n" > /srv/data/marker && findmnt -n -o SOURCE,OPTIONS /srv/data > /srv/probe && stat -c %u:%g /srv/data >> /srv/probe'), STUBS);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(first.log).toContain(`formatting ${device} as ext4 (it has no filesystem yet)`);
    const uuid = sh(`blkid -p -s UUID -o value ${device}`);
    expect(first.fstab).toContain(`UUID=${uuid} /srv/data ext4 defaults,nofail 0 2\n`);
    const [mountLine, owner] = first.written('/srv/probe')!.trim().split('\n');
    expect(mountLine.startsWith(device)).toBe(true);
    expect(owner).toBe('1000:1000');
    // The namespace is gone, so the file is on the device, not in the mount point directory.
    expect(first.written('/srv/data/marker')).toBeUndefined();

    const second = runInSandbox(script('cat /srv/data/marker > /srv/seen'), STUBS, first.dir);
    expect(second.status).toBe(0);
    expect(second.log.slice(first.log.length).some((l) => l.startsWith('formatting'))).toBe(false);
    expect(second.log.slice(first.log.length)).toContain(`mounted ${device} (UUID=${uuid}) at /srv/data for 1000:1000`);
    expect(second.written('/srv/seen')).toBe('kept across boots\n');
    expect(sh(`blkid -p -s UUID -o value ${device}`)).toBe(uuid);
    expect(second.fstab).toBe(first.fstab);
    expect(second.fstab.match(/ \/srv\/data /g)).toHaveLength(1);
  });
});
