/**
 * Binds a username-and-password credential by its identifier for the body only: USERNAME and PASSWORD in the
 * environment, masked in the log by the credentials-binding plugin. Nothing is written in plain text.
 */
def call(String credentialsId, Closure body) {
    withCredentials([usernamePassword(credentialsId: credentialsId, usernameVariable: 'USERNAME', passwordVariable: 'PASSWORD')]) {
        return body()
    }
}
