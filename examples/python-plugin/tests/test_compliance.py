"""PRODUCTION checks the whole stack: a resource added beside the factory is checked too, and acknowledged with a
reason through Compliance.acknowledge, which the PCI DSS evidence report then lists."""
import json

import pytest
from aws_cdk import App, Environment, Stack, aws_logs as logs
from fw_core import ApplicationFactory, Compliance, PciDssScope, RuntimeType, SecurityProfile

from wiki_plugin import WikiSpec

REASON = "Kept a month here; the same events are exported nightly to the archive account, which keeps them 13 months."
PRODUCTION = dict(
    security_profile=SecurityProfile.PRODUCTION, ssl_enabled=True, domain="example.com", subdomain="wiki",
    hosted_zone_id="Z0123456789ABCDEFGHIJ",
    image_digests={"ghcr.io/example/wiki:1.4.2": "sha256:" + "3" * 64},
    pci_dss_scope=PciDssScope.CONNECTED,
    alarm_email="security@example.com",
)


def wiki_with_audit_log(outdir, acknowledged):
    app = App(outdir=str(outdir))
    stack = Stack(app, "Wiki", env=Environment(region="eu-west-1"))
    ApplicationFactory(stack, "App", RuntimeType.FARGATE, WikiSpec(), **PRODUCTION)
    audit = logs.LogGroup(stack, "PaymentsAudit", retention=logs.RetentionDays.ONE_MONTH)
    if acknowledged:
        Compliance.acknowledge(audit, "LogGroupRetentionOneYear", REASON)
        for rule in ("CloudWatchLogGroupEncrypted", "EncryptedWithCustomerKey"):
            Compliance.acknowledge(audit, rule, "CloudWatch Logs encrypts it with its own key; no card data is logged here.")
        Compliance.acknowledge(audit, "LogGroupCardDataMasked",
                               "The payments service logs transaction ids only; its log lines never hold a card number.")
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
    assert [(c["configuredIn"], c["grade"]) for c in by_number["8.2.8"]["controls"]] == [("WIKI_SESSION_TIMEOUT", "partial")]
    # The control's grade, declared in Python, is what the requirement's coverage rests on.
    assert by_number["8.2.8"]["coverage"] == "partial"
    assert (tmp_path / "Wiki.pci-dss-4.0.1.md").read_text().startswith("# PCI DSS v4.0.1 evidence: Wiki")


def test_an_acknowledgement_without_a_reason_is_refused(tmp_path):
    stack = Stack(App(outdir=str(tmp_path)), "S")
    with pytest.raises(RuntimeError, match=r"reason \"\"; allowed: why the finding is acceptable"):
        Compliance.acknowledge(logs.LogGroup(stack, "G"), "LogGroupRetentionOneYear", "")


def team_stack(outdir, kms_key):
    """A platform team's own stack beside the framework's: a bucket, put under PRODUCTION's packs with Compliance.check."""
    from aws_cdk import aws_kms as kms, aws_s3 as s3
    app = App(outdir=str(outdir))
    stack = Stack(app, "TeamData", env=Environment(region="eu-west-1"))
    if kms_key:
        key = kms.Key(stack, "Key", enable_key_rotation=True)
        access_logs = s3.Bucket(stack, "AccessLogs", encryption=s3.BucketEncryption.S3_MANAGED, enforce_ssl=True, versioned=True,
                                block_public_access=s3.BlockPublicAccess.BLOCK_ALL,
                                object_ownership=s3.ObjectOwnership.BUCKET_OWNER_PREFERRED)
        data = s3.Bucket(stack, "Data", encryption_key=key, encryption=s3.BucketEncryption.KMS, enforce_ssl=True, versioned=True,
                         block_public_access=s3.BlockPublicAccess.BLOCK_ALL, server_access_logs_bucket=access_logs)
        for bucket in (access_logs, data):
            Compliance.acknowledge(bucket, "S3BucketReplicationEnabled", "Kept in one region by design; AWS Backup copies it to the archive account nightly.")
            Compliance.acknowledge(bucket, "S3DefaultEncryptionKMS", "Encrypted at rest; the access-log bucket takes SSE-S3 only, as S3 server access logging requires.")
            Compliance.acknowledge(bucket, "S3BucketDefaultLockEnabled", "Objects are replaced by design; versioning keeps every earlier version restorable.")
        Compliance.acknowledge(access_logs, "EncryptedWithCustomerKey", "The access-log bucket takes SSE-S3 only, as S3 server access logging requires.")
        Compliance.acknowledge(access_logs, "S3BucketLoggingEnabled", "This is the access-log bucket itself: logging it to itself would loop.")
    else:
        s3.Bucket(stack, "Plain")
    Compliance.check(stack, SecurityProfile.PRODUCTION)
    return app


def test_compliance_check_fails_a_teams_own_bucket_without_a_kms_key(tmp_path):
    with pytest.raises(RuntimeError, match=r"NIST\.800\.53\.R5-S3DefaultEncryptionKMS .*TeamData/Plain/Resource"):
        team_stack(tmp_path, kms_key=False).synth()


def test_compliance_check_passes_a_clean_one_and_reports_it(tmp_path):
    team_stack(tmp_path, kms_key=True).synth()
    report = json.loads((tmp_path / "TeamData.pci-dss-4.0.1.json").read_text())
    results = {e["result"] for r in report["requirements"] for e in r["evaluations"] if e["resource"] == "TeamData/Data/Resource"}
    assert results and "open" not in results
