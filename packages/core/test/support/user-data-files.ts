import { gunzipSync } from 'zlib';

const unquote = (word: string) => word.replace(/'\\''/g, "'");

/**
 * The files a user-data script writes, by path: `printf '%s' '<text>' > '<path>'` as they are, and
 * `printf '%s' '<base64>' | base64 -d | gunzip > '<path>'` unpacked, as the instance's shell would.
 */
export function filesWritten(script: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [, content, packed, path] of script.matchAll(/printf '%s' '((?:[^']|'\\'')*)'( \| base64 -d \| gunzip)? > '([^']+)'/g)) {
    files[path] = packed ? gunzipSync(Buffer.from(content, 'base64')).toString('utf-8') : unquote(content);
  }
  return files;
}
