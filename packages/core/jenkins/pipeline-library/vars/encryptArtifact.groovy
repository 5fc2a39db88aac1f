import dev.fwframework.pci.Limits

/**
 * Encrypts a file before upload with AES-256 (openssl; the key is derived with PBKDF2 from a secret-text credential)
 * and deletes the plain original. Returns the encrypted file's path (`<file>.enc`). The passphrase stays in the
 * environment of the one shell command; it is never in Groovy, the command line or the log.
 *
 * Decrypt with: openssl enc -d -aes-256-cbc -pbkdf2 -iter 600000 -in <file>.enc -out <file> -pass env:<variable>
 */
String call(Map args) {
    String file = args.file
    String credentialsId = args.keyCredentialsId
    if (!file || !credentialsId) {
        error("encryptArtifact needs file and keyCredentialsId (a secret-text credential); given file: ${file}, keyCredentialsId: ${credentialsId}")
    }
    String sealed = "${file}.enc"
    withCredentials([string(credentialsId: credentialsId, variable: 'FW_ARTIFACT_KEY')]) {
        withEnv(["FW_PLAIN=${file}", "FW_SEALED=${sealed}", "FW_CIPHER=aes-${Limits.ARTIFACT_CIPHER_BITS}-cbc"]) {
            sh '''set -eu
openssl enc -"$FW_CIPHER" -pbkdf2 -iter 600000 -salt -in "$FW_PLAIN" -out "$FW_SEALED" -pass env:FW_ARTIFACT_KEY
rm -f -- "$FW_PLAIN"'''
        }
    }
    return sealed
}
