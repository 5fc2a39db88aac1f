import dev.fwframework.pci.DeploymentGate

/**
 * Fails the build unless a production deployment comes from a pull request whose review decision is APPROVED and has
 * a change ticket whose status is approved. Every failed requirement is named.
 *
 * changeTicketStatus (required): { String ticket -> status } from your ticket system.
 * changeTicket: the ticket id; default: the "Change-Ticket:" line of the latest commit message.
 * reviewDecision: { int pullRequest -> decision }; default: the GitHub CLI (`gh pr view`, needs GH_TOKEN).
 */
void call(Map args = [:]) {
    if (!(args.changeTicketStatus instanceof Closure)) {
        error('productionDeploymentGate needs changeTicketStatus: a closure that returns the status of a change ticket ' +
            'from your ticket system, for example changeTicketStatus: { id -> lookUpTicket(id) }')
    }
    String message = sh(script: 'git log -1 --format=%B', returnStdout: true)
    Integer pullRequest = DeploymentGate.pullRequestNumber(message)
    String decision = null
    if (pullRequest != null) {
        decision = args.reviewDecision instanceof Closure
            ? args.reviewDecision.call(pullRequest)
            : sh(script: "gh pr view ${pullRequest} --json reviewDecision --jq .reviewDecision", returnStdout: true)
    }
    String ticket = args.changeTicket ?: DeploymentGate.changeTicket(message)
    String status = ticket ? args.changeTicketStatus.call(ticket) : null
    List<String> failures = DeploymentGate.failures(pullRequest, decision?.trim(), ticket, status?.trim())
    if (!failures.isEmpty()) {
        error('Production deployment refused:\n  - ' + failures.join('\n  - '))
    }
    echo "Production deployment allowed: pull request #${pullRequest} ${DeploymentGate.APPROVED_REVIEW}, change ticket ${ticket} ${DeploymentGate.APPROVED_TICKET}"
}
