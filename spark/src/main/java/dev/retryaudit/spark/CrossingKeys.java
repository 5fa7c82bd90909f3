package dev.retryaudit.spark;

import dev.retryaudit.api.split.LineReader;
import dev.retryaudit.model.Limits;
import java.io.Serializable;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.util.LongAccumulator;
import scala.Tuple2;

/**
 * The first, small pass of the spans audit: the operations whose lines are in more than one partition
 * (split). Each partition hashes the key of each of its lines, told from the line's top-level fields
 * ({@link LineReader#key}), keeps the count of lines of each hash beside it ({@link Counts}) and sends on
 * each distinct hash once; the hashes sent by more than one partition come to the driver. An operation whose hash is not among them has all its lines in one
 * partition and is audited there; the others' lines go through one shuffle. Two keys of one hash only
 * make a local operation travel: the audit is the same.
 */
final class CrossingKeys {
    private CrossingKeys() {
    }

    /** The keys that cross, by hash, and how many distinct keys (by hash) there are in all. */
    record Found(Set<Long> hashes, long keys) implements Serializable {
        /** The share of the keys that cross, from 0 to 1. */
        double share() {
            return keys == 0 ? 0 : (double) hashes.size() / keys;
        }
    }

    /**
     * The lines of each key (by hash) in one partition: the hashes in ascending order and the count of each,
     * so that the partition, reading its lines, builds an operation as soon as its last line is read.
     */
    record Counts(long[] hashes, int[] lines) implements Serializable {
        /** How many lines of the partition have a key of hash {@code hash}; 0 for none. */
        int of(long hash) {
            int i = Arrays.binarySearch(hashes, hash);
            return i < 0 ? 0 : lines[i];
        }
    }

    /**
     * The lines of each key in each partition of {@code lines}, one {@link Counts} a partition, kept (in memory)
     * beside the partitions for the pass that reads them; the caller lets them go. A partition in
     * {@code whole} holds whole files: its counts are empty, and its lines are not read.
     */
    static JavaRDD<Counts> counts(JavaRDD<SpanLine> lines, Broadcast<List<String>> sources, Limits limits,
            Set<Integer> whole) {
        return lines.mapPartitionsWithIndex((partition, it) -> {
            if (whole.contains(partition)) {
                // A whole file: none of its keys can be in another partition, and its lines are not read here.
                return List.of(new Counts(new long[0], new int[0])).iterator();
            }
            LineReader reader = LineReader.spans(limits);
            long[] hashes = new long[1024];
            int n = 0;
            while (it.hasNext()) {
                SpanLine l = it.next();
                String key = reader.key(sources.value().get(l.sourceIndex()), l.sourceIndex(), l.line(), l.bytes());
                if (key == null || key.isEmpty()) {
                    continue;
                }
                if (n == hashes.length) {
                    hashes = Arrays.copyOf(hashes, n * 2);
                }
                hashes[n++] = hash(l.sourceIndex(), key);
            }
            long[] sorted = Arrays.copyOf(hashes, n);
            Arrays.sort(sorted);
            int distinct = 0;
            int[] counts = new int[n];
            for (int i = 0; i < n; i++) {
                if (distinct > 0 && sorted[i] == sorted[distinct - 1]) {
                    counts[distinct - 1]++;
                } else {
                    sorted[distinct] = sorted[i];
                    counts[distinct++] = 1;
                }
            }
            return List.of(new Counts(Arrays.copyOf(sorted, distinct), Arrays.copyOf(counts, distinct))).iterator();
        }, true).persist(StorageLevel.MEMORY_AND_DISK());
    }

    /** The keys of the partitions whose {@code counts} these are that occur in more than one of them. */
    static Found of(JavaRDD<Counts> counts) {
        // Counted as the one action's reducing tasks see them: a figure for the job's log, not for the audit.
        LongAccumulator keys = counts.context().longAccumulator("distinct keys");
        List<Long> counted = counts.flatMap(c -> Arrays.stream(c.hashes()).iterator())
                .mapToPair(h -> new Tuple2<>(h, 1))
                .reduceByKey(Integer::sum)
                .filter(t -> {
                    keys.add(1);
                    return t._2() > 1;
                })
                .keys()
                .collect();
        return new Found(new HashSet<>(counted), keys.value());
    }

    /** The hash of the key {@code key} of a line of source {@code source}. */
    static long hash(int source, String key) {
        long h = 0x9E3779B97F4A7C15L ^ source;
        for (int i = 0; i < key.length(); i++) {
            h = (h ^ key.charAt(i)) * 0x100000001B3L;
        }
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB93FE1A85EC5L;
        return h ^ h >>> 33;
    }
}
