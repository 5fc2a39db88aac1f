package hudson.model;

import java.io.File;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** Stand-in for Jenkins core's User: the members the compliance jobs read, with core's signatures. */
public class User {
    /** The users a test sets up. */
    public static final List<User> USERS = new ArrayList<>();

    private final String id;
    private final String fullName;
    private final File folder;

    public User(String id, String fullName, File folder) {
        this.id = id;
        this.fullName = fullName;
        this.folder = folder;
    }

    /** Core: the display name, which the OIDC realm sets from the `name` claim (fullNameFieldName). */
    public String getFullName() {
        return fullName;
    }

    public static Collection<User> getAll() {
        return new ArrayList<>(USERS);
    }

    public String getId() {
        return id;
    }

    public File getUserFolder() {
        return folder;
    }
}
