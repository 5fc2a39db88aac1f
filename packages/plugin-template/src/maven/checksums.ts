import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The checksum files a Maven repository keeps beside an artifact, by extension (the extension is the hash's name). */
const ALGORITHMS = ['md5', 'sha1', 'sha256', 'sha512'];

/**
 * Rewrites each checksum file in `dir` (`<file>.md5`, `.sha1`, `.sha256`, `.sha512`) that no longer matches its
 * file's content, and returns the names of those it rewrote. Maven checks them when it downloads the file and, with
 * strict checksums (`mvn -C`), refuses a file whose checksum is stale.
 */
export function refreshChecksums(dir: string): string[] {
  const rewritten: string[] = [];
  for (const name of fs.readdirSync(dir).sort()) {
    const algorithm = path.extname(name).slice(1);
    const file = path.join(dir, path.basename(name, `.${algorithm}`));
    if (!ALGORITHMS.includes(algorithm) || !fs.existsSync(file)) continue;
    const digest = crypto.createHash(algorithm).update(fs.readFileSync(file)).digest('hex');
    // A checksum file may name the file after the digest ("<digest>  <name>"); jsii-pacmak writes the digest alone.
    const recorded = fs.readFileSync(path.join(dir, name), 'utf-8').trim().split(/\s+/)[0].toLowerCase();
    if (recorded === digest) continue;
    fs.writeFileSync(path.join(dir, name), digest);
    rewritten.push(name);
  }
  return rewritten;
}
