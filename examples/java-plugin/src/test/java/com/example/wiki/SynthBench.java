package com.example.wiki;

import dev.fwframework.core.ApplicationFactory;
import dev.fwframework.core.RuntimeType;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.Stack;

/** bench/java-plugin.sh: median time to synthesise the plugin on both runtimes, after warm-up rounds. */
public final class SynthBench {
    public static void main(String[] args) throws Exception {
        int warmup = Integer.parseInt(args[0]);
        int samples = Integer.parseInt(args[1]);
        List<Double> times = new ArrayList<>();
        for (int i = 0; i < warmup + samples; i++) {
            long start = System.nanoTime();
            for (RuntimeType runtime : RuntimeType.values()) {
                App app = new App(AppProps.builder().outdir(Files.createTempDirectory("bench-").toString()).build());
                new ApplicationFactory(new Stack(app, "Wiki"), "App", runtime, new WikiSpec());
                app.synth();
            }
            if (i >= warmup) times.add((System.nanoTime() - start) / 1e6);
        }
        Collections.sort(times);
        System.out.printf("%.1f%n", times.get(times.size() / 2));
    }
}
