package hudson.model;

/** Stand-in for Jenkins core's UpdateSite: the data the update check reads, with core's field names. */
public class UpdateSite {
    private final Data data;

    public UpdateSite(Data data) {
        this.data = data;
    }

    public Data getData() {
        return data;
    }

    public static final class Data {
        public final Entry core;

        public Data(Entry core) {
            this.core = core;
        }
    }

    public static class Entry {
        public final String version;

        public Entry(String version) {
            this.version = version;
        }
    }

    public static final class Plugin extends Entry {
        public Plugin(String version) {
            super(version);
        }
    }

    public static final class Warning {
        public final String message;
        public final String url;

        public Warning(String message, String url) {
            this.message = message;
            this.url = url;
        }
    }
}
