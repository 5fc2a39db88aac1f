package hudson.model;

import java.io.IOException;

/** Stand-in for Jenkins core's TopLevelItem: what the seed script calls (Item.delete(), jenkins-2.568.2 Item.java). */
public interface TopLevelItem {
    void delete() throws IOException, InterruptedException;
}
