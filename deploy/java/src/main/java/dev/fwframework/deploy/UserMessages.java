package dev.fwframework.deploy;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The message of a mistake the user can fix (the framework's UserError: a context key, a plugin; a PRODUCTION
 * compliance finding), as the jsii runtime delivers it to Java, in one of two shapes: the JavaScript error's name and
 * message, then "@jsii/kernel.RuntimeError: " and the same again; or, when the error ends a call that called back into
 * Java (a plugin member), the message, then the error's name and message again and its JavaScript stack ("    at ").
 * Anything else is a fault, shown with its stack trace.
 */
final class UserMessages {
    private static final Pattern USER_ERROR = Pattern.compile(
        "^(?:.*?\\n)??(?:UserError: |(?:\\w*Error: )?(?=Validation failed))(.*?)(?:\\n@jsii/kernel\\.RuntimeError: .*|\\n {4}at .*)?$", Pattern.DOTALL);

    private UserMessages() {}

    /** The message to print without a stack trace, or null when {@code e} is not the user's mistake. */
    static String of(RuntimeException e) {
        String message = e.getMessage();
        if (message == null) return null;
        Matcher matcher = USER_ERROR.matcher(message);
        return matcher.matches() ? matcher.group(1).strip() : null;
    }
}
