package hudson;

import hudson.model.UpdateSite;

/** Stand-in for Jenkins core's PluginWrapper. */
public class PluginWrapper {
    private final String shortName;
    private final String version;
    private final UpdateSite.Plugin update;

    public PluginWrapper(String shortName, String version, String updateVersion) {
        this.shortName = shortName;
        this.version = version;
        this.update = updateVersion == null ? null : new UpdateSite.Plugin(updateVersion);
    }

    public String getShortName() {
        return shortName;
    }

    public String getVersion() {
        return version;
    }

    public boolean hasUpdate() {
        return update != null;
    }

    public UpdateSite.Plugin getUpdateInfo() {
        return update;
    }
}
