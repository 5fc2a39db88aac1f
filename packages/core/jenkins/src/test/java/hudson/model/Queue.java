package hudson.model;

import java.util.ArrayList;
import java.util.List;

/**
 * Stand-in for Jenkins core's Queue: the members the controller-health script reads, with core's names
 * (jenkinsci/jenkins jenkins-2.568.2 core/src/main/java/hudson/model/Queue.java).
 */
public class Queue {
    public final List<Item> items = new ArrayList<>();

    /** Core: line 794, every item in the queue. */
    public Item[] getItems() {
        return items.toArray(new Item[0]);
    }

    /** Core: line 946, the items ready to run but waiting for an executor. */
    public List<BuildableItem> getBuildableItems() {
        List<BuildableItem> buildable = new ArrayList<>();
        for (Item item : items) if (item instanceof BuildableItem b) buildable.add(b);
        return buildable;
    }

    /** Core: Queue.Item; isStuck() at line 2326 (false), overridden for buildable items at 2855-2870. */
    public static class Item {
        public boolean stuck;

        public boolean isStuck() {
            return stuck;
        }
    }

    /** Core: Queue.BuildableItem; buildableStartMilliseconds at line 2733. */
    public static class BuildableItem extends Item {
        public final long buildableStartMilliseconds;

        public BuildableItem(long buildableStartMilliseconds, boolean stuck) {
            this.buildableStartMilliseconds = buildableStartMilliseconds;
            this.stuck = stuck;
        }
    }
}
