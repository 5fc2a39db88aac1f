import { gunzipSync } from 'zlib';

const unquote = (word: string) => word.replace(/'\\''/g, "'");

/**
 * The files a user-data script writes, by path: `printf '%s' '<text>' > '<path>'` as they are,
 * `printf '%s' '<base64>' | base64 -d | gunzip > '<path>'` unpacked, and the NUL-separated archive that awk writes to
 * its listed paths, as the instance's shell would.
 */
export function filesWritten(script: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [, content, packed, path] of script.matchAll(/printf '%s' '((?:[^']|'\\'')*)'( \| base64 -d \| gunzip)? > '([^']+)'/g)) {
    files[path] = packed ? gunzipSync(Buffer.from(content, 'base64')).toString('utf-8') : unquote(content);
  }
  // The controller's archive: NUL-separated contents, written by awk to the listed paths in order.
  for (const [, packed, paths] of script.matchAll(/printf '%s' '([A-Za-z0-9+\/=]+)' \| base64 -d \| gunzip \| awk -v RS='\\0' -v paths='([^']+)' /g)) {
    const contents = gunzipSync(Buffer.from(packed, 'base64')).toString('utf-8').split('\0');
    paths.split(' ').forEach((path, i) => { files[path] = contents[i]; });
  }
  return files;
}
