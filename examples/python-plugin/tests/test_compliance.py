"""PRODUCTION checks the whole stack: a resource added beside the factory is checked too, and acknowledged with a
reason through Compliance.acknowledge, which the PCI DSS evidence report then lists."""
import json

import pytest
from aws_cdk import App, Environment, Stack, aws_logs as logs
from fw_core import ApplicationFactory, Compliance, RuntimeType, SecurityProfile

from wiki_plugin import WikiSpec

REASON = "Kept a month here; the same events are exported nightly to the archive account, which keeps them 13 months."
PRODUCTION = dict(
    security_profile=SecurityProfile.PRODUCTION, ssl_enabled=True, domain="example.com", subdomain="wiki",
    hosted_zone_id="Z0123456789ABCDEFGHIJ",
    image_digests={"ghcr.io/example/wiki:1.4.2": "sha256:" + "3" * 64},
)


def wiki_with_audit_log(outdir, acknowledged):
    app = App(outdir=str(outdir))
    stack = Stack(app, "Wiki", env=Environment(region="eu-west-1"))
    ApplicationFactory(stack, "App", RuntimeType.FARGATE, WikiSpec(), **PRODUCTION)
    audit = logs.LogGroup(stack, "PaymentsAudit", retention=logs.RetentionDays.ONE_MONTH)
    if acknowledged:
        Compliance.acknowledge(audit, "LogGroupRetentionOneYear", REASON)
        Compliance.acknowledge(audit, "CloudWatchLogGroupEncrypted",
                               "CloudWatch Logs encrypts it with its own key; no card data is logged here.")
    return app


def test_an_unacknowledged_finding_on_the_users_resource_fails_production(tmp_path):
    with pytest.raises(RuntimeError, match=r"PCI\.DSS\.401-LogGroupRetentionOneYear .*10\.5\.1.*Wiki/PaymentsAudit/Resource"):
        wiki_with_audit_log(tmp_path, acknowledged=False).synth()


def test_acknowledged_it_passes_and_the_report_lists_the_reason_and_the_plugins_controls(tmp_path):
    wiki_with_audit_log(tmp_path, acknowledged=True).synth()
    report = json.loads((tmp_path / "Wiki.pci-dss-4.0.1.json").read_text())
    by_number = {r["requirement"]: r for r in report["requirements"]}
    [evaluation] = [e for e in by_number["10.5.1"]["evaluations"] if e["resource"] == "Wiki/PaymentsAudit/Resource"]
    assert evaluation["result"] == "acknowledged"
    assert evaluation["reason"].startswith(REASON) and evaluation["reason"].endswith("10.5.1)")
    assert [c["configuredIn"] for c in by_number["8.2.8"]["controls"]] == ["WIKI_SESSION_TIMEOUT"]
    assert (tmp_path / "Wiki.pci-dss-4.0.1.md").read_text().startswith("# PCI DSS v4.0.1 evidence: Wiki")


def test_an_acknowledgement_without_a_reason_is_refused(tmp_path):
    stack = Stack(App(outdir=str(tmp_path)), "S")
    with pytest.raises(RuntimeError, match=r"reason \"\"; allowed: why the finding is acceptable"):
        Compliance.acknowledge(logs.LogGroup(stack, "G"), "LogGroupRetentionOneYear", "")
