package jenkins.util;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Stand-in for Jenkins core's Timer (jenkins-2.568.2 core/src/main/java/jenkins/util/Timer.java line 42: get() returns
 * the shared ScheduledExecutorService). This one records what is scheduled and runs nothing by itself.
 */
public class Timer {
    /** What was scheduled at a fixed rate: the task, its first delay and its period, in seconds. */
    public record Scheduled(Runnable task, long initialDelay, long period, TimeUnit unit) {}

    public static final List<Scheduled> SCHEDULED = new ArrayList<>();

    private static final ScheduledExecutorService RECORDER = new ScheduledThreadPoolExecutor(1) {
        @Override
        public ScheduledFuture<?> scheduleAtFixedRate(Runnable task, long initialDelay, long period, TimeUnit unit) {
            SCHEDULED.add(new Scheduled(task, initialDelay, period, unit));
            return null;
        }
    };

    public static synchronized ScheduledExecutorService get() {
        return RECORDER;
    }
}
