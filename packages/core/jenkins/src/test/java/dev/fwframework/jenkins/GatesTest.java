package dev.fwframework.jenkins;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** productionDeploymentGate, qualityGate and vulnerabilityGate. */
class GatesTest {
    @TempDir Path workspace;

    private static final String MERGED = "Merge pull request #42 from team/feature\n\nAdd refunds\n\nChange-Ticket: CHG-1001\n";

    private Pipeline pipeline(String commitMessage) {
        Pipeline pipeline = new Pipeline(workspace);
        pipeline.shAnswers = script -> script.startsWith("git log -1") ? commitMessage : null;
        return pipeline;
    }

    private Map<String, Object> gate(Pipeline pipeline, String decision, String status) {
        Map<String, Object> args = new HashMap<>();
        args.put("reviewDecision", pipeline.closure("{ pr -> '" + decision + "\\n' }"));
        args.put("changeTicketStatus", pipeline.closure("{ ticket -> ticket == 'CHG-1001' ? '" + status + "' : 'unknown' }"));
        return args;
    }

    private String refusal(Pipeline pipeline, Map<String, Object> args) {
        return assertThrows(Pipeline.BuildFailure.class, () -> pipeline.call("productionDeploymentGate", args)).getMessage();
    }

    @Test
    void anApprovedPullRequestWithAnApprovedTicketDeploys() {
        Pipeline pipeline = pipeline(MERGED);
        pipeline.call("productionDeploymentGate", gate(pipeline, "APPROVED", "approved"));
        assertEquals("echo Production deployment allowed: pull request #42 APPROVED, change ticket CHG-1001 approved",
            pipeline.log.get(pipeline.log.size() - 1));
    }

    @Test
    void aSquashMergeNamesItsPullRequestInParentheses() {
        Pipeline pipeline = pipeline("Add refunds (#7)\n\nChange-Ticket: CHG-1001");
        Map<String, Object> args = gate(pipeline, "APPROVED", "approved");
        args.put("reviewDecision", pipeline.closure("{ pr -> pr == 7 ? 'APPROVED' : 'REVIEW_REQUIRED' }"));
        pipeline.call("productionDeploymentGate", args);
    }

    @Test
    void noPullRequestNumberFails() {
        Pipeline pipeline = pipeline("Hotfix pushed straight to main\n\nChange-Ticket: CHG-1001");
        assertEquals("Production deployment refused:\n  - no pull-request number in the latest commit message "
            + "(expected \"Merge pull request #<n>\" or \"(#<n>)\"): production takes only changes merged through a reviewed pull request",
            refusal(pipeline, gate(pipeline, "APPROVED", "approved")));
    }

    @Test
    void aReviewDecisionOtherThanApprovedFails() {
        for (String decision : List.of("CHANGES_REQUESTED", "REVIEW_REQUIRED", "approved", "")) {
            Pipeline pipeline = pipeline(MERGED);
            assertEquals("Production deployment refused:\n  - pull request #42 has review decision '" + decision + "', not APPROVED",
                refusal(pipeline, gate(pipeline, decision, "approved")));
        }
    }

    @Test
    void aChangeTicketNotApprovedFails() {
        for (String status : List.of("pending", "rejected", "Approved")) {
            Pipeline pipeline = pipeline(MERGED);
            assertEquals("Production deployment refused:\n  - change ticket CHG-1001 has status '" + status + "', not approved",
                refusal(pipeline, gate(pipeline, "APPROVED", status)));
        }
    }

    @Test
    void everyFailedRequirementIsNamedAtOnce() {
        Pipeline pipeline = pipeline("wip");
        String message = refusal(pipeline, gate(pipeline, "APPROVED", "approved"));
        assertTrue(message.contains("no pull-request number"), message);
        assertTrue(message.contains("no change ticket: pass changeTicket, or add a \"Change-Ticket: <id>\" line to the commit message"), message);
    }

    @Test
    void theTicketCanBeGivenAndTheReviewDecisionDefaultsToTheGitHubCli() {
        Pipeline pipeline = new Pipeline(workspace);
        pipeline.shAnswers = script -> script.startsWith("git log -1") ? "Merge pull request #9 from x/y"
            : script.startsWith("gh pr view 9 --json reviewDecision") ? "APPROVED\n" : null;
        Map<String, Object> args = new HashMap<>();
        args.put("changeTicket", "OPS-5");
        args.put("changeTicketStatus", pipeline.closure("{ ticket -> ticket == 'OPS-5' ? 'approved' : 'unknown' }"));
        pipeline.call("productionDeploymentGate", args);
        assertTrue(pipeline.log.contains("sh gh pr view 9 --json reviewDecision --jq .reviewDecision"));
    }

    @Test
    void withoutATicketLookupTheGateSaysWhatItNeeds() {
        assertTrue(refusal(pipeline(MERGED), new HashMap<>()).startsWith("productionDeploymentGate needs changeTicketStatus"));
    }

    /**
     * qualityGate runs the SonarQube Scanner plugin's waitForQualityGate (jenkinsci/sonarqube-plugin sonar-2.18.2,
     * src/main/java/org/sonarsource/scanner/jenkins/pipeline/WaitForQualityGateStep.java): the step is named so
     * (getFunctionName, lines 450-453), returns QGStatus whose getStatus() is the gate's status (lines 83-97, 265), and,
     * with abortPipeline false, leaves a status other than "OK" to the caller (lines 261-266). The status comes from
     * SonarQube: projectStatus.status of api/qualitygates/project_status (hudson/plugins/sonar/client/WsClient.java
     * lines 67-73), or the webhook's qualityGate.status, "NONE" when the payload has no gate (SonarQubeWebHook.java
     * lines 148-152).
     */
    @Test
    void theQualityGateWaitsAtMostTenMinutesAndFailsUnlessOk() {
        Pipeline pipeline = new Pipeline(workspace);
        pipeline.call("qualityGate");
        assertEquals(List.of("timeout 10 MINUTES", "waitForQualityGate {abortPipeline=false}"), pipeline.log);
        for (String status : List.of("ERROR", "NONE")) {
            pipeline.qualityGateStatus = status;
            assertEquals("Quality gate failed: status " + status + "; fix the findings the analysis reports",
                assertThrows(Pipeline.BuildFailure.class, () -> pipeline.call("qualityGate")).getMessage());
        }
    }

    /**
     * The webhook endpoint is an UnprotectedRootAction taking any POST (SonarQubeWebHook.java lines 46-91); the step
     * checks the payload's HMAC only when it has a webhook secret id, its own or the installation's (lines 229-231,
     * 343-363). qualityGate passes the one it is given; credentialsId is not offered, as the step overwrites it with the
     * analysis' own (line 228).
     */
    @Test
    void theQualityGatePassesAWebhookSecretAndNothingElse() {
        Pipeline pipeline = new Pipeline(workspace);
        pipeline.call("qualityGate", Map.of("webhookSecretId", "sonar-webhook-secret"));
        assertEquals("waitForQualityGate {abortPipeline=false, webhookSecretId=sonar-webhook-secret}", pipeline.log.get(1));
        assertEquals("qualityGate takes only webhookSecretId (given: credentialsId)",
            assertThrows(Pipeline.BuildFailure.class, () -> pipeline.call("qualityGate", Map.of("credentialsId", "x"))).getMessage());
    }

    /** Without a withSonarQubeEnv analysis earlier in the build the step fails (lines 196-202); qualityGate lets it. */
    @Test
    void withoutAnAnalysisInWithSonarQubeEnvTheStepsOwnErrorFailsTheBuild() {
        Pipeline pipeline = new Pipeline(workspace);
        pipeline.sonarAnalysisRan = false;
        assertTrue(assertThrows(IllegalStateException.class, () -> pipeline.call("qualityGate")).getMessage()
            .startsWith("No previous SonarQube analysis found on this pipeline execution."));
    }

    @Test
    void theVulnerabilityGateAllowsZeroHighAndZeroCritical() {
        Pipeline pipeline = new Pipeline(workspace);
        pipeline.call("vulnerabilityGate", Map.of("critical", 0, "high", 0));
        assertEquals("Vulnerability gate failed:\n  - 1 high finding(s); at most 0 allowed",
            assertThrows(Pipeline.BuildFailure.class, () -> pipeline.call("vulnerabilityGate", Map.of("critical", 0, "high", 1))).getMessage());
        assertEquals("Vulnerability gate failed:\n  - 2 critical finding(s); at most 0 allowed",
            assertThrows(Pipeline.BuildFailure.class, () -> pipeline.call("vulnerabilityGate", Map.of("critical", 2, "high", 0))).getMessage());
        assertEquals("Vulnerability gate failed:\n  - the number of high findings is missing or not a whole number (given: null); the scanner's report must give it",
            assertThrows(Pipeline.BuildFailure.class, () -> pipeline.call("vulnerabilityGate", Map.of("critical", 0))).getMessage());
    }
}
