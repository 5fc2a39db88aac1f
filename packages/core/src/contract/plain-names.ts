// What the EC2 user data takes as it is, unquoted: checked where a plugin declares it and where the builder gets it.

/** A path the builder's operations take: absolute, of letters, digits and `_ . / -` (no quoting needed anywhere). */
export const PLAIN_PATH = /^\/[\w./-]*$/;

/** A user name shadow-utils' useradd takes (its default limit is 32 characters). */
export const SERVICE_USER = /^[a-z][a-z0-9-]{0,31}$/;
