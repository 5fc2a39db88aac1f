#!/usr/bin/env bash
# Synth time of the Java plugin (examples/java-plugin, through the jsii Java bindings) against the same plugin in
# TypeScript (packages/core/test/fixtures/wiki-spec.ts), both runtimes per sample, median after warm-up, one run.
# Target: ratio at most 3. Run after the packages are built: `npx projen bench:java`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
warmup=3
samples=15
cd "$root/examples/java-plugin"
mvn -q -B test-compile dependency:build-classpath -Dmdep.outputFile=target/classpath.txt -Dmdep.includeScope=test
java_ms=$(java -cp "target/classes:target/test-classes:$(cat target/classpath.txt)" com.example.wiki.SynthBench "$warmup" "$samples")
cd "$root"
ts_ms=$(npx ts-node --project tsconfig.dev.json bench/ts-wiki-synth.ts "$warmup" "$samples")
ratio=$(python3 -c "print(f'{$java_ms / $ts_ms:.2f}')")
echo "synth of the same plugin on both runtimes, median of $samples after $warmup warm-up rounds:"
echo "  Java ${java_ms} ms, TypeScript ${ts_ms} ms, ratio ${ratio} (target <= 3)"
