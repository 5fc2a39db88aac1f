import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { refreshChecksums } from '../../src/maven/checksums';

// The digests of "hello", as published (RFC 1321's and FIPS 180's algorithms; `printf hello | md5sum` and so on).
const HELLO = {
  md5: '5d41402abc4b2a76b9719d911017c592',
  sha1: 'aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d',
  sha256: '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824',
};

describe('refreshChecksums', () => {
  let dir: string;
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-checksums-')); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, content: string) => fs.writeFileSync(path.join(dir, name), content);
  const read = (name: string) => fs.readFileSync(path.join(dir, name), 'utf-8');

  test('the checksums of a changed file are rewritten from its content; those still right are left alone', () => {
    write('a.jar', 'hello');
    write('a.jar.md5', 'digest of the JAR before it changed');
    write('a.jar.sha1', 'digest of the JAR before it changed');
    write('a.jar.sha256', 'digest of the JAR before it changed');
    write('a.pom', 'hello');
    write('a.pom.md5', HELLO.md5);
    write('a.pom.sha1', `${HELLO.sha1.toUpperCase()}  a.pom\n`);
    expect(refreshChecksums(dir)).toEqual(['a.jar.md5', 'a.jar.sha1', 'a.jar.sha256']);
    expect([read('a.jar.md5'), read('a.jar.sha1'), read('a.jar.sha256')]).toEqual([HELLO.md5, HELLO.sha1, HELLO.sha256]);
    expect(read('a.pom.sha1')).toBe(`${HELLO.sha1.toUpperCase()}  a.pom\n`);
  });

  test('other files, and a checksum without its file, are not touched', () => {
    write('notes.txt', 'hello');
    write('gone.jar.sha1', 'stale');
    expect(refreshChecksums(dir)).toEqual([]);
    expect(read('gone.jar.sha1')).toBe('stale');
  });
});
