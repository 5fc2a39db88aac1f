package hudson;

import java.util.HashMap;
import java.util.Map;

/** Stand-in for Jenkins core's ExtensionList: lookupSingleton returns what a test registered. */
public class ExtensionList {
    public static final Map<Class<?>, Object> SINGLETONS = new HashMap<>();

    public static <U> U lookupSingleton(Class<U> type) {
        Object found = SINGLETONS.get(type);
        if (found == null) throw new IllegalStateException("no " + type.getName());
        return type.cast(found);
    }
}
