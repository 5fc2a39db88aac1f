package org.sonarsource.scanner.jenkins.pipeline;

import java.io.Serializable;

/**
 * Stand-in for the SonarQube Scanner plugin's waitForQualityGate step (jenkinsci/sonarqube-plugin tag sonar-2.18.2,
 * src/main/java/org/sonarsource/scanner/jenkins/pipeline/WaitForQualityGateStep.java): the parameters a pipeline can
 * pass and the object the step returns, with the plugin's signatures. Its execution is not modelled here; the tests
 * that use it say which lines of the plugin they rely on.
 */
public class WaitForQualityGateStep implements Serializable {
    private static final long serialVersionUID = 1L;

    /** What the step returns on success (lines 83-97): the gate's status, readable as `status` from a pipeline. */
    public static class QGStatus implements Serializable {
        private static final long serialVersionUID = 1L;

        private final String status;

        public QGStatus(String status) {
            this.status = status;
        }

        public String getStatus() {
            return status;
        }
    }

    private boolean abortPipeline;
    private String credentialsId;
    private String webhookSecretId;

    /** The step's @DataBoundConstructor (lines 106-110). */
    public WaitForQualityGateStep(boolean abortPipeline) {
        this.abortPipeline = abortPipeline;
    }

    /** @DataBoundSetter (lines 112-115). */
    public void setWebhookSecretId(String webhookSecretId) {
        this.webhookSecretId = webhookSecretId;
    }

    public boolean isAbortPipeline() {
        return abortPipeline;
    }

    public String getCredentialsId() {
        return credentialsId;
    }

    public String getWebhookSecretId() {
        return webhookSecretId;
    }

    /** @DataBoundSetter (lines 153-156). */
    public void setCredentialsId(String credentialsId) {
        this.credentialsId = credentialsId;
    }
}
