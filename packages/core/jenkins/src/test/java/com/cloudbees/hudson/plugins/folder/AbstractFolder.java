package com.cloudbees.hudson.plugins.folder;

import hudson.model.TopLevelItem;

/** Stand-in for the folders plugin's AbstractFolder, a top-level item the seed script never deletes. */
public abstract class AbstractFolder implements TopLevelItem {
}
