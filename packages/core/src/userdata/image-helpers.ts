/**
 * The boot's shell functions that run a plugin's image on EC2 without a container engine left running: docker pulls
 * the image (checking its digest) and exports its file system once, then stops; systemd runs the image's command from
 * that file system (`RootDirectory=`) as the application's account, in the runtime's sandbox (`IUserDataBuilder.runImage`).
 */

/**
 * Reads the image's configuration (`docker image inspect`'s `.Config`, kept as `/.fw-config.json` in its root) and
 * writes the unit's drop-in: `WorkingDirectory=`; `HOME` as the image's `/etc/passwd` gives it for the container's
 * uid (`/` without one, as Docker does; the image's own `ENV HOME`, in the environment file, wins); each `VOLUME` it
 * declares writable (`ReadWritePaths=+`), in the unpacked root on the instance's disk, as Docker keeps an anonymous
 * volume on the host's, kept until the instance is replaced; and `ExecStart=` with the image's entrypoint and command
 * (or the plugin's `containerCommand()`, given as JSON in the fourth argument, merged as Docker's engine merges them:
 * moby `daemon/commit.go`, `merge`: an entry point given drops the image's command), each
 * argument quoted as systemd.syntax(7) reads it back (`\\`, `\"`, `%%` for a specifier's `%`, `\xNN` for a control
 * character) and the `:` prefix, so that a `$` stays as it is (systemd.service(5), "Command lines"). A command named
 * without a path is looked up in the image's `PATH`, as Docker does. Prints the image's environment as NUL-separated
 * names and values. Single quotes never appear in it: it is passed to `python3 -c '...'`.
 */
const IMAGE_SERVICE_PY = String.raw`import json, os, re, sys
root, dropin, uid = sys.argv[1], sys.argv[2], sys.argv[3]
over = json.loads(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[4] else {}
with open(root + "/.fw-config.json", encoding="utf-8") as f:
    config = json.load(f) or {}
entrypoint = over.get("entryPoint") or config.get("Entrypoint") or []
cmd = over.get("command") or ([] if over.get("entryPoint") else config.get("Cmd") or [])
argv = entrypoint + cmd
env = [e.split("=", 1) for e in config.get("Env") or [] if "=" in e]
if not argv:
    sys.exit("the image names no Entrypoint and no Cmd to run")
command = argv[0]
if "/" not in command:
    path = dict(env).get("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")
    found = [d.rstrip("/") + "/" + command for d in path.split(":") if d.startswith("/") and os.path.lexists(root + d + "/" + command)]
    if not found:
        sys.exit("the image runs " + command + ", which is in no directory of its PATH " + path)
    command = found[0]
workdir = config.get("WorkingDir") or "/"
plain = re.compile(r"^/[A-Za-z0-9._+@/-]*$")
for what, value in (("its command", command), ("its WorkingDir", workdir)):
    if not plain.match(value):
        sys.exit("the image names " + what + " " + json.dumps(value) + ", not an absolute path of letters, digits and . _ + @ / -")
def quoted(a):
    return "\"" + "".join("\\\\" if c == "\\" else "\\\"" if c == "\"" else "%%" if c == "%" else "\\x%02x" % ord(c) if ord(c) < 32 or ord(c) == 127 else c for c in a) + "\""
def within(path):
    # No component of path under root is a link or "..": nothing created here lands outside the image.
    here = root
    for part in path.strip("/").split("/"):
        here = here + "/" + part
        if part in ("", ".", "..") or os.path.islink(here):
            return False
    return True
volumes = sorted((config.get("Volumes") or {}).keys())
for volume in volumes:
    if not plain.match(volume) or not within(volume):
        sys.exit("the image declares the volume " + json.dumps(volume) + ", not a plain absolute path inside the image (letters, digits and . _ + @ / -, no link, no ..)")
    os.makedirs(root + volume, exist_ok=True)
home = "/"
try:
    with open(root + "/etc/passwd", encoding="utf-8") as f:
        for entry in f:
            fields = entry.rstrip("\n").split(":")
            if len(fields) > 5 and fields[2] == uid and plain.match(fields[5]):
                home = fields[5]
                break
except OSError:
    pass
with open(dropin, "w", encoding="utf-8") as f:
    f.write("[Service]\nWorkingDirectory=" + workdir + "\nEnvironment=HOME=" + home + "\n"
            + "".join("ReadWritePaths=+" + v + "\n" for v in volumes)
            + "ExecStart=:" + " ".join([command] + [quoted(a) for a in argv[1:]]) + "\n")
for name, value in env:
    sys.stdout.write(name + "\0" + value + "\0")
`;

/**
 * `fw_image_root REF ROOT LOGIN_REGION`: the image `REF`'s file system unpacked as `ROOT` (owners kept by number), with
 * its configuration; nothing to do when `ROOT` already holds `REF`. Docker is installed, started for the pull and
 * stopped again; with a `LOGIN_REGION` it signs in to the ECR registry `REF` names (the pull-through cache) with the
 * instance's role first, and out afterwards. A `REF` pinned by digest (`name:tag@sha256:...`) is pulled by its tag,
 * which a pull-through cache imports on a first pull (one by digest alone it may not: aws/containers-roadmap#2837), and
 * the boot stops, naming the image and both digests, unless Docker recorded the pin among the pulled image's
 * `RepoDigests`. The pulled image is removed: only its unpacked file system stays.
 */
const IMAGE_ROOT = `fw_image_root() {
  local ref=$1 root=$2 login_region=$3 id pull=$1 digest="" pulled
  if [ -f "$root/.fw-image" ] && [ "$(cat "$root/.fw-image")" = "$ref" ]; then
    fw_log "image $ref is already unpacked in $root"
    return 0
  fi
  command -v docker >/dev/null 2>&1 || fw_pkg install -y docker
  systemctl start docker
  if [ -n "$login_region" ]; then
    aws ecr get-login-password --region "$login_region" | docker login --username AWS --password-stdin "\${ref%%/*}" >> "$FW_LOG" 2>&1
  fi
  case "$ref" in *@sha256:*) digest=\${ref##*@}; pull=\${ref%@*} ;; esac
  docker pull --quiet "$pull" >> "$FW_LOG"
  [ -z "$login_region" ] || docker logout "\${ref%%/*}" >> "$FW_LOG" 2>&1
  if [ -n "$digest" ]; then
    pulled=$(docker image inspect --format '{{range .RepoDigests}}{{println .}}{{end}}' "$pull")
    if ! grep -qxF "\${pull%:*}@$digest" <<< "$pulled"; then
      pulled=$(printf '%s' "$pulled" | tr '\\n' ' ')
      fw_log "image $pull was pulled as $pulled, but the pin is $digest"
      printf 'the image %s was pulled as %s, but the pin (imageDigests) is %s: update the pin, or find why the tag moved\\n' "$pull" "$pulled" "$digest" >&2
      return 1
    fi
  fi
  id=$(docker create "$pull")
  rm -rf "$root.new"
  install -d -m 0755 "$root.new"
  docker export "$id" | tar -x --numeric-owner -C "$root.new"
  docker image inspect --format '{{json .Config}}' "$pull" > "$root.new/.fw-config.json"
  docker rm "$id" >/dev/null
  docker image rm "$pull" >/dev/null
  systemctl stop docker.socket docker.service
  printf '%s\\n' "$ref" > "$root.new/.fw-image"
  rm -rf "$root"
  mv "$root.new" "$root"
  fw_log "image $ref unpacked in $root; docker stopped"
}
`;

/**
 * \`fw_image_service ROOT DROPIN ENV_FILE UID [COMMAND_JSON]\`: the unit's drop-in from the image's configuration (for
 * the container's \`UID\`, with the plugin's command as JSON), and the image's environment as the root-only
 * \`ENV_FILE\` (each entry quoted by \`fw_env_line\`); more entries are appended after it.
 */
const IMAGE_SERVICE = `fw_image_service() {
  local root=$1 dropin=$2 env_file=$3 uid=$4 command=\${5:-} name value
  install -d -m 0755 "$(dirname "$dropin")"
  install -d -m 0700 "$(dirname "$env_file")"
  install -m 0600 /dev/null "$env_file"
  python3 -c '${IMAGE_SERVICE_PY}' "$root" "$dropin" "$uid" "$command" > "$env_file.pairs"
  while IFS= read -r -d '' name && IFS= read -r -d '' value; do
    fw_env_line "$env_file" "$name" "$value"
  done < "$env_file.pairs"
  rm -f "$env_file.pairs"
  chmod 0644 "$dropin"
  fw_log "$dropin: $(grep '^ExecStart=' "$dropin")"
}
`;

/** The helpers by name, added to the script only when `runImage` is called. */
export const IMAGE_HELPERS = {
  fw_image_root: { needs: [], body: IMAGE_ROOT },
  fw_image_service: { needs: ['fw_env_line'], body: IMAGE_SERVICE },
};
