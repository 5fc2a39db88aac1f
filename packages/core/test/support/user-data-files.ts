import { gunzipSync } from 'zlib';

const unquote = (word: string) => word.replace(/'\\''/g, "'");

/**
 * The files a user-data script writes, by path, as the instance's shell would: `printf '%s' '<text>' > '<path>'` as
 * they are, `printf '%s' '<base64>' | base64 -d | gunzip > '<path>'` unpacked, and each `writeFiles` archive
 * (`fw_write_files '<paths>' "$fw_archive"`), whose base64 is in the script or, on EC2, in parameters the script reads
 * (`fw_part_N=$(aws ssm get-parameter ... --name '{"Ref":"<id>"}' ...)`): then `template` is the synthesised template
 * that holds them.
 */
export function filesWritten(script: string, template?: any): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [, content, packed, path] of script.matchAll(/printf '%s' '((?:[^']|'\\'')*)'( \| base64 -d \| gunzip)? > '([^']+)'/g)) {
    files[path] = packed ? gunzipSync(Buffer.from(content, 'base64')).toString('utf-8') : unquote(content);
  }
  const variables: Record<string, string> = {};
  for (const line of script.split('\n')) {
    const inline = /^(fw_archive)='([A-Za-z0-9+/=]+)'$/.exec(line);
    const part = /^(fw_part_\d+)=\$\(aws ssm get-parameter .* --name '\{"Ref":"(\w+)"\}' /.exec(line);
    const joined = /^fw_archive="((?:\$fw_part_\d+)+)"$/.exec(line);
    const write = /^fw_write_files '([^']+)' "\$fw_archive"$/.exec(line);
    if (inline) variables.fw_archive = inline[2];
    if (part) variables[part[1]] = template.Resources[part[2]].Properties.Value;
    if (joined) variables.fw_archive = joined[1].split('$').filter(Boolean).map((v) => variables[v]).join('');
    if (write) {
      const contents = gunzipSync(Buffer.from(variables.fw_archive, 'base64')).toString('utf-8').split('\0');
      write[1].split(' ').forEach((path, i) => { files[path] = contents[i]; });
    }
  }
  return files;
}
