package org.pac4j.oidc.exceptions;

/**
 * Stand-in for pac4j's OidcStateMismatchException (pac4j-parent-6.4.3,
 * pac4j-oidc/src/main/java/org/pac4j/oidc/exceptions/OidcStateMismatchException.java), with its constructors: what
 * OidcCredentialsExtractor.java:151-154 throws when the callback's state is not the one Jenkins sent.
 */
public class OidcStateMismatchException extends OidcException {
    public OidcStateMismatchException(String message) {
        super(message);
    }

    public OidcStateMismatchException(Throwable t) {
        super(t);
    }

    public OidcStateMismatchException(String message, Throwable t) {
        super(message, t);
    }
}
