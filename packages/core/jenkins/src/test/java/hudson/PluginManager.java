package hudson;

import java.util.ArrayList;
import java.util.List;

/** Stand-in for Jenkins core's PluginManager. */
public class PluginManager {
    public final List<PluginWrapper> plugins = new ArrayList<>();

    public List<PluginWrapper> getPlugins() {
        return plugins;
    }
}
