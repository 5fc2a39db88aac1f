/**
 * Reads a payment-gateway key from AWS Secrets Manager through a role, for the body only. The agent assumes
 * `roleArn` (with its own AWS credentials), reads `secretId` into a file only the build user can read, and exposes the
 * file's path as `PAYMENT_GATEWAY_KEY_FILE`; the file is deleted afterwards, also when the body fails. The key never
 * passes through Groovy, an environment variable or the log.
 */
def call(Map args, Closure body) {
    if (!args.roleArn || !args.secretId) {
        error("withPaymentGatewayKey needs roleArn (the role allowed to read the key) and secretId; given roleArn: ${args.roleArn}, secretId: ${args.secretId}")
    }
    String keyFile = "${pwd(tmp: true)}/payment-gateway-key"
    try {
        withEnv(["FW_ROLE_ARN=${args.roleArn}", "FW_SECRET_ID=${args.secretId}", "FW_KEY_FILE=${keyFile}"]) {
            sh '''set -eu
umask 077
# shellcheck disable=SC2046 # the three words of the role's temporary credentials
set -- $(aws sts assume-role --role-arn "$FW_ROLE_ARN" --role-session-name jenkins-payment-gateway \\
  --query 'Credentials.[AccessKeyId,SecretAccessKey,SessionToken]' --output text)
AWS_ACCESS_KEY_ID="$1" AWS_SECRET_ACCESS_KEY="$2" AWS_SESSION_TOKEN="$3" \\
  aws secretsmanager get-secret-value --secret-id "$FW_SECRET_ID" --query SecretString --output text > "$FW_KEY_FILE"'''
        }
        withEnv(["PAYMENT_GATEWAY_KEY_FILE=${keyFile}"]) {
            return body()
        }
    } finally {
        withEnv(["FW_KEY_FILE=${keyFile}"]) {
            sh 'rm -f -- "$FW_KEY_FILE"'
        }
    }
}
