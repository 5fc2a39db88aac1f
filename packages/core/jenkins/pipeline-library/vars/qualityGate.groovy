import dev.fwframework.pci.Limits

/**
 * Waits at most 10 minutes for the code-analysis quality gate (SonarQube's waitForQualityGate step, from the SonarQube
 * Scanner plugin) and fails unless it is OK.
 */
void call() {
    timeout(time: Limits.QUALITY_GATE_MINUTES, unit: 'MINUTES') {
        def gate = waitForQualityGate()
        if (gate?.status != 'OK') {
            error("Quality gate failed: status ${gate?.status}; fix the findings the analysis reports")
        }
    }
}
