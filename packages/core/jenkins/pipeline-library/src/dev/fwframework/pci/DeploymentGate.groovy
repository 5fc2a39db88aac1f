package dev.fwframework.pci

import java.util.regex.Matcher
import java.util.regex.Pattern

/**
 * Production deployments need a reviewed pull request and an approved change ticket. Each failed requirement is
 * reported in words that say what is missing.
 */
class DeploymentGate implements Serializable {
    /** GitHub's merge commit ("Merge pull request #12 from ...") and squash commit ("Title (#12)"). */
    private static final Pattern PULL_REQUEST = Pattern.compile('(?:Merge pull request #|\\(#)(\\d+)\\b')
    /** A "Change-Ticket: CHG-1234" line (a commit-message trailer). */
    private static final Pattern CHANGE_TICKET = Pattern.compile('(?im)^Change-Ticket:[ \\t]*(\\S+)[ \\t]*$')

    static final String APPROVED_REVIEW = 'APPROVED'
    static final String APPROVED_TICKET = 'approved'

    /** The pull-request number of a commit message, or null. */
    static Integer pullRequestNumber(String commitMessage) {
        Matcher m = PULL_REQUEST.matcher(commitMessage ?: '')
        return m.find() ? Integer.valueOf(m.group(1)) : null
    }

    /** The change ticket a commit message names in a "Change-Ticket:" line, or null. */
    static String changeTicket(String commitMessage) {
        Matcher m = CHANGE_TICKET.matcher(commitMessage ?: '')
        return m.find() ? m.group(1) : null
    }

    /** Every requirement that failed; empty when the deployment may go ahead. */
    static List<String> failures(Integer pullRequest, String reviewDecision, String ticket, String ticketStatus) {
        List<String> failures = []
        if (pullRequest == null) {
            failures.add('no pull-request number in the latest commit message (expected "Merge pull request #<n>" ' +
                'or "(#<n>)"): production takes only changes merged through a reviewed pull request')
        } else if (reviewDecision != APPROVED_REVIEW) {
            failures.add("pull request #${pullRequest} has review decision '${reviewDecision ?: ''}', not ${APPROVED_REVIEW}" as String)
        }
        if (!ticket) {
            failures.add('no change ticket: pass changeTicket, or add a "Change-Ticket: <id>" line to the commit message')
        } else if (ticketStatus != APPROVED_TICKET) {
            failures.add("change ticket ${ticket} has status '${ticketStatus ?: ''}', not ${APPROVED_TICKET}" as String)
        }
        return failures
    }
}
