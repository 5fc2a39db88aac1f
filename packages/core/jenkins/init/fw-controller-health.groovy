// The controller's health, sampled every minute and printed as one JSON line on standard output, which both runtimes
// ship to the application's log group (Fargate: the container's output; EC2: Winstone's --logfile points standard
// output at jenkins.log, winstone 8.1039.v78300b_1d48a_9 Launcher.java lines 563-581). The framework's metric filters read the fields ({ $.fwControllerHealth = 1 }) and alarm on
// them (JenkinsSpec.logAlarms()). An init script (jenkins-2.568.2 GroovyInitScript.java line 42 runs
// $JENKINS_HOME/init.groovy.d/*.groovy at start, GroovyHookScript.java lines 32-35), so no plugin is added for it.
// Core API at jenkins-2.568.2: jenkins.util.Timer.get() (Timer.java line 42), Jenkins.getQueue() (Jenkins.java 2091),
// Queue.getItems() (Queue.java 794), Queue.getBuildableItems() (946), Queue.Item.isStuck() (2326; a buildable item's at
// 2855-2870), Queue.BuildableItem.buildableStartMilliseconds (2733), Jenkins.getPluginManager() (1331),
// PluginManager.getFailedPlugins() (PluginManager.java 1283), Jenkins.getNumExecutors() (Jenkins.java 3283).
import java.util.concurrent.TimeUnit
import java.util.logging.Level
import java.util.logging.Logger
import jenkins.model.Jenkins
import jenkins.util.Timer

/** One sample of the controller's health, as the JSON line the metric filters read (integers only). */
String healthLine(Jenkins jenkins, Runtime runtime, long now) {
  def queue = jenkins.getQueue()
  def buildable = queue.getBuildableItems()
  def sample = [
    fwControllerHealth: 1,
    heapUsedPercent: Math.round(100d * (runtime.totalMemory() - runtime.freeMemory()) / runtime.maxMemory()),
    stuckItems: queue.getItems().count { it.isStuck() },
    longestBuildableWaitSeconds: buildable.collect { (now - it.buildableStartMilliseconds).intdiv(1000) }.max() ?: 0,
    failedPlugins: jenkins.getPluginManager().getFailedPlugins().size(),
    builtInExecutors: jenkins.getNumExecutors(),
  ]
  '{' + sample.collect { name, value -> "\"${name}\":${value as long}" }.join(',') + '}'
}

Timer.get().scheduleAtFixedRate({
  try {
    System.out.println(healthLine(Jenkins.get(), Runtime.getRuntime(), System.currentTimeMillis()))
  } catch (Throwable e) {
    // A failed sample is a missing one: the ControllerUnhealthy alarm counts samples, and says so.
    Logger.getLogger('fw.controller-health').log(Level.WARNING, 'Controller health sample failed', e)
  }
} as Runnable, 60, 60, TimeUnit.SECONDS)
