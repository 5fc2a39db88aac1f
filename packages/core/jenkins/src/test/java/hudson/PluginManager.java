package hudson;

import java.util.ArrayList;
import java.util.List;

/** Stand-in for Jenkins core's PluginManager. */
public class PluginManager {
    public final List<PluginWrapper> plugins = new ArrayList<>();

    public List<PluginWrapper> getPlugins() {
        return plugins;
    }

    /** Core: the plugins that failed to load, PluginManager.getFailedPlugins() (line 1283); only their number is read. */
    public final List<Object> failedPlugins = new ArrayList<>();

    public List<Object> getFailedPlugins() {
        return failedPlugins;
    }
}
