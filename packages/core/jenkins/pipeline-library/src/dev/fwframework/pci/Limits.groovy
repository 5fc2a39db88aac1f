package dev.fwframework.pci

/** The pipeline gates' constants of the hardening guidance's Limits table, set here and only here. */
class Limits implements Serializable {
    /** The quality gate waits at most this long for the analysis result. */
    static final int QUALITY_GATE_MINUTES = 10
    /** The vulnerability gate allows this many critical and high findings. */
    static final int MAX_CRITICAL_FINDINGS = 0
    static final int MAX_HIGH_FINDINGS = 0
    /** Artifacts with sensitive data are encrypted with a cipher of this key length before upload. */
    static final int ARTIFACT_CIPHER_BITS = 256
}
