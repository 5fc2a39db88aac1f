package org.pac4j.core.exception;

/**
 * Stand-in for pac4j's TechnicalException (pac4j/pac4j tag pac4j-parent-6.4.3, the version oic-auth 4.715.vf202e4229f61
 * bundles, its pom.xml:59; pac4j-core/src/main/java/org/pac4j/core/exception/TechnicalException.java), with its
 * constructors. pac4j 6.4.3 is not on Maven Central; the class only carries a message and a cause.
 */
public class TechnicalException extends RuntimeException {
    private static final long serialVersionUID = 536639932593211210L;

    public TechnicalException(final String message) {
        super(message);
    }

    public TechnicalException(final Throwable t) {
        super(t);
    }

    public TechnicalException(final String message, final Throwable t) {
        super(message, t);
    }
}
