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

  /**
   * Two boots that stand for two instances of the group: each attaches the stack's volume (a stub `aws` that answers
   * as EC2 would, the loop device standing for the attached NVMe device, whose serial a stub `lsblk` reports once the
   * attach call was made), then the plugin's mountEbs mounts it at the name ebsDeviceName() promises.
   */
  describe('two instances, one volume: the framework attaches it, the second instance finds the first one\'s data', () => {
    const VOLUME = 'vol-0123456789abcdef0';
    // A fresh, empty loop device of its own: the volume as CloudFormation creates it.
    let volume: string;
    beforeAll(() => {
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fw-ebs-')), 'data-volume.img');
      sh(`truncate -s 64M ${file}`);
      volume = sh(`losetup -f --show ${file}`);
    });
    afterAll(() => {
      if (volume) spawnSync('losetup', ['-d', volume]);
    });
    const attachScript = (extra: string) => {
      const b = new BashUserDataBuilder();
      b.attachEbsVolume(VOLUME, '/dev/xvdf', 'eu-west-1');
      b.mountEbs('/dev/xvdf', '/srv/data', '1000', '1000');
      b.addCommands(extra);
      return b.render();
    };
    /** EC2 as the instance `me` sees it: the volume held by `previous` for `busy` more calls, then available. */
    const ec2 = (dir: string, me: string, previous: string, busy: number): Stubs => ({
      dnf: '',
      yum: '',
      sleep: '',
      curl: `case "$*" in *api/token*) echo token ;; *meta-data/instance-id*) echo ${me} ;; *) exit 22 ;; esac`,
      aws: [
        `n=$(cat ${dir}/describe-calls 2>/dev/null || echo 0); echo $((n + 1)) > ${dir}/describe-calls`,
        'case "$2" in',
        `  describe-volumes) if [ "$n" -lt ${busy} ]; then printf 'in-use\\t%s\\n' ${previous}; else printf 'available\\tNone\\n'; fi ;;`,
        `  attach-volume) touch ${dir}/attached; echo '{"State": "attaching"}' ;;`,
        '  *) exit 2 ;;',
        'esac',
      ].join('\n'),
      lsblk: `if [ -e ${dir}/attached ]; then echo "${volume} ${VOLUME.replace('-', '')}"; fi; echo "/dev/sda "`,
    });

    test('the first formats and writes; the second waits for the volume, attaches it and reads the file without formatting', () => {
      const state = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-ec2-'));
      const first = runInSandbox(attachScript('printf "written by the first instance\\n" > /srv/data/marker'),
        ec2(state, 'i-0first', 'None', 0), undefined, { alsoOverlaid: ['/dev'] });
      expect(first.stderr).toBe('');
      expect(first.status).toBe(0);
      expect(first.calls).toContain(`aws ec2 attach-volume --region eu-west-1 --volume-id ${VOLUME} --instance-id i-0first --device /dev/xvdf`);
      expect(first.log).toContain(`formatting ${volume} as ext4 (it has no filesystem yet)`);
      expect(first.log).toContain(`attached ${VOLUME} as ${volume}`);
      // The machine's /dev is untouched: the link to the device was made in the sandbox's overlay.
      expect(fs.existsSync('/dev/xvdf')).toBe(false);

      // The second instance boots while the first still holds the volume (it is terminating): it waits, then attaches.
      fs.rmSync(path.join(state, 'attached'));
      fs.rmSync(path.join(state, 'describe-calls'));
      const second = runInSandbox(attachScript('cat /srv/data/marker > /srv/seen'),
        ec2(state, 'i-0second', 'i-0first', 2), undefined, { alsoOverlaid: ['/dev'] });
      expect(second.stderr).toBe('');
      expect(second.status).toBe(0);
      expect(second.calls.filter((c) => c.startsWith('aws '))).toEqual([
        ...Array(3).fill(`aws ec2 describe-volumes --region eu-west-1 --volume-ids ${VOLUME} --query Volumes[0].[State,Attachments[0].InstanceId] --output text`),
        `aws ec2 attach-volume --region eu-west-1 --volume-id ${VOLUME} --instance-id i-0second --device /dev/xvdf`,
      ]);
      expect(second.log.filter((l) => l.startsWith('waiting for'))).toEqual([
        `waiting for ${VOLUME}: in-use, i-0first`, `waiting for ${VOLUME}: in-use, i-0first`,
      ]);
      expect(second.log.some((l) => l.startsWith('formatting'))).toBe(false);
      expect(second.written('/srv/seen')).toBe('written by the first instance\n');
    });

    test('a volume that never becomes free stops the boot before anything is mounted', () => {
      const state = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-ec2-'));
      const run = runInSandbox(attachScript('true'), ec2(state, 'i-0third', 'i-0first', 1000), undefined, { alsoOverlaid: ['/dev'] });
      expect(run.status).not.toBe(0);
      expect(run.calls.some((c) => c.startsWith('aws ec2 attach-volume'))).toBe(false);
      expect(run.calls.some((c) => c.startsWith('mount'))).toBe(false);
      expect(run.log).toContain(`${VOLUME} was not free after 600s`);
      expect(run.calls.filter((c) => c.startsWith('aws ec2 describe-volumes'))).toHaveLength(120);
    });
  });
});
