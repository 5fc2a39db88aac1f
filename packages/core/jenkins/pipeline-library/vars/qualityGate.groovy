import dev.fwframework.pci.Limits

/**
 * Waits at most 10 minutes for the SonarQube quality gate of this build's analysis and fails unless the gate is 'OK'.
 *
 * It runs the SonarQube Scanner plugin's waitForQualityGate step (plugin `sonar`, pinned 2.18.2), which:
 * <ul>
 * <li>needs a SonarQube analysis run earlier in the same build inside `withSonarQubeEnv('<installation>') { ... }`:
 *     the wrapper records the analysis' task id when its block ends, and without it the step fails with "No previous
 *     SonarQube analysis found on this pipeline execution. Please use the 'withSonarQubeEnv' wrapper to run your
 *     analysis."</li>
 * <li>returns an object whose `status` is the gate's status as SonarQube reports it ('OK' when the gate passed; any
 *     other value, 'ERROR' or 'NONE' when the project has no gate, fails here); it fails the build itself when the
 *     analysis task FAILED or was CANCELED.</li>
 * <li>learns the result from SonarQube's webhook (`<jenkins>/sonarqube-webhook/`), a URL that takes POSTs without
 *     authentication. Set a webhook secret, on the SonarQube installation in Jenkins or here with webhookSecretId (the
 *     id of a secret-text credential holding the secret configured on the SonarQube webhook): the step then rejects
 *     a payload whose HMAC does not match. Without one, anyone who can reach Jenkins could post the gate's result.</li>
 * </ul>
 *
 * The token it asks SonarQube with is the one withSonarQubeEnv used (the step overwrites any credentialsId given to it
 * with the analysis' own), so this step takes none.
 *
 * qualityGate() or qualityGate(webhookSecretId: 'sonar-webhook-secret').
 */
void call() {
    call([:])
}

void call(Map options) {
    List<String> unknown = ((options ?: [:]).keySet() as List<String>) - ['webhookSecretId']
    if (!unknown.isEmpty()) {
        error("qualityGate takes only webhookSecretId (given: ${unknown.join(', ')})")
    }
    Map step = [abortPipeline: false]
    if (options?.webhookSecretId) step.webhookSecretId = options.webhookSecretId
    timeout(time: Limits.QUALITY_GATE_MINUTES, unit: 'MINUTES') {
        def gate = waitForQualityGate(step)
        if (gate?.status != 'OK') {
            error("Quality gate failed: status ${gate?.status}; fix the findings the analysis reports")
        }
    }
}
