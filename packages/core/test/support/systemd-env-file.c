/*
 * Reads a file as systemd 252 reads an EnvironmentFile=, with systemd's own code: the functions PID 1 calls
 * (src/core/execute.c, exec_context_load_environment, v252 lines 5611-5662: load_env_file, then
 * strv_env_clean_with_callback), from Debian 12's libsystemd-shared-252.so (package libsystemd-shared, systemd
 * 252.x as on Amazon Linux 2023; src/basic/env-file.c is the same from v252 to 252.39).
 *
 * Prints each NAME=value entry followed by a NUL byte; exits 2 when systemd refuses the file.
 * Built by test/environment-file.test.ts:
 *   gcc -o systemd-env-file systemd-env-file.c -L/usr/lib/x86_64-linux-gnu/systemd -l:libsystemd-shared-252.so \
 *       -Wl,-rpath,/usr/lib/x86_64-linux-gnu/systemd
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* systemd v252 src/basic/env-file.h line 12 and src/basic/env-util.h: internal, exported by libsystemd-shared-252. */
int load_env_file(FILE *f, const char *fname, char ***l);
char **strv_env_clean_with_callback(char **e, void (*invalid_callback)(const char *p, void *userdata), void *userdata);

int main(int argc, char **argv) {
        char **l = NULL;
        if (argc != 2) {
                fprintf(stderr, "usage: %s FILE\n", argv[0]);
                return 1;
        }
        int r = load_env_file(NULL, argv[1], &l);
        if (r < 0) {
                fprintf(stderr, "load_env_file: %s\n", strerror(-r));
                return 2;
        }
        l = strv_env_clean_with_callback(l, NULL, NULL);
        for (char **p = l; p && *p; p++)
                fwrite(*p, 1, strlen(*p) + 1, stdout);
        return fflush(stdout) == 0 ? 0 : 1;
}
