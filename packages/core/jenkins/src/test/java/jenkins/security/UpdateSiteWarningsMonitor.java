package jenkins.security;

import hudson.PluginWrapper;
import hudson.model.UpdateSite;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Stand-in for Jenkins core's UpdateSiteWarningsMonitor. */
public class UpdateSiteWarningsMonitor {
    public final List<UpdateSite.Warning> core = new ArrayList<>();
    public final Map<PluginWrapper, List<UpdateSite.Warning>> plugins = new LinkedHashMap<>();

    public List<UpdateSite.Warning> getActiveCoreWarnings() {
        return core;
    }

    public Map<PluginWrapper, List<UpdateSite.Warning>> getActivePluginWarningsByPlugin() {
        return plugins;
    }
}
