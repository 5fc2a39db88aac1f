package hudson.util;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;

/**
 * Stand-in for Jenkins core's RingBufferLogHandler (jenkinsci/jenkins jenkins-2.568.2,
 * core/src/main/java/hudson/util/RingBufferLogHandler.java), with core's public signatures and its behaviour written
 * here: a handler that keeps the newest records up to its size, 256 unless the system property
 * hudson.util.RingBufferLogHandler.defaultSize says otherwise (line 39; the no-argument constructor, 50-53, uses it;
 * getDefaultRingBufferSize, 64-66, tells it), ignores a null record (69-72), forgets the oldest record when full
 * (73-81), and lists its records newest first (getView, 89-117). Core's view is a live list over the buffer; this one
 * is a copy taken when getView is called.
 */
public class RingBufferLogHandler extends Handler {
    private static final int DEFAULT_SIZE = Integer.getInteger("hudson.util.RingBufferLogHandler.defaultSize", 256);

    private final int size;
    private final Deque<LogRecord> newestFirst = new ArrayDeque<>();

    @Deprecated
    public RingBufferLogHandler() {
        this(DEFAULT_SIZE);
    }

    public RingBufferLogHandler(int ringSize) {
        size = ringSize;
    }

    public static int getDefaultRingBufferSize() {
        return DEFAULT_SIZE;
    }

    @Override
    public synchronized void publish(LogRecord record) {
        if (record == null) return;
        newestFirst.addFirst(record);
        if (newestFirst.size() > size) newestFirst.removeLast();
    }

    public synchronized void clear() {
        newestFirst.clear();
    }

    public synchronized List<LogRecord> getView() {
        return new ArrayList<>(newestFirst);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
}
