package org.pac4j.oidc.exceptions;

import org.pac4j.core.exception.TechnicalException;

/**
 * Stand-in for pac4j's OidcException (pac4j-parent-6.4.3,
 * pac4j-oidc/src/main/java/org/pac4j/oidc/exceptions/OidcException.java), with its constructors.
 */
public class OidcException extends TechnicalException {
    public OidcException(String message) {
        super(message);
    }

    public OidcException(Throwable t) {
        super(t);
    }

    public OidcException(String message, Throwable t) {
        super(message, t);
    }
}
