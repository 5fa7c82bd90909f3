package dev.retryaudit.spark;

import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.api.split.InputRejection;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Location;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.HashSet;
import java.util.Set;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.HashPartitioner;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import scala.Tuple2;

/**
 * The checks that need the whole input, each over small facts: errors raised by the tasks, operation
 * ids that repeat, the operations limit (per source while reading, and over the input set), sources
 * with no span line and the byte limit. Gives the first error in the command line's order, if any.
 */
final class InputChecks {
    private InputChecks() {
    }

    /** Per source: groups of lines, operations, attempts; each part's facts summed where they are. */
    static long[][] counts(JavaRDD<Item> items, int sources) {
        return items.filter(i -> i.facts() != null)
                .treeAggregate(new long[sources][3], (sum, i) -> i.facts().add(sum), InputChecks::sum);
    }

    private static long[][] sum(long[][] a, long[][] b) {
        for (int s = 0; s < a.length; s++) {
            for (int k = 0; k < 3; k++) {
                a[s][k] += b[s][k];
            }
        }
        return a;
    }

    /**
     * The first error, of those found here and {@code empty} (sources with nothing to read, found by the
     * caller); {@code operationsAtEnd}: a source hands its operations on at its end (linked), not as it is read.
     */
    static Optional<InputRejection> first(JavaRDD<Item> items, long[][] counts, Sources sources,
            Limits limits,
            Configuration conf, List<InputRejection> empty, boolean operationsAtEnd) throws RetryAuditException {
        List<InputRejection> found = new ArrayList<>(items.filter(i -> i.rejection() != null)
                .mapPartitions(it -> {
                    InputRejection min = null;
                    while (it.hasNext()) {
                        InputRejection r = it.next().rejection();
                        min = min == null ? r : InputRejection.first(min, r);
                    }
                    return min == null ? List.<InputRejection>of().iterator() : List.of(min).iterator();
                }).collect());
        found.addAll(empty);
        duplicate(items, sources.names()).ifPresent(found::add);
        long total = 0;
        for (int s = 0; s < counts.length; s++) {
            if (counts[s][0] > limits.operations()) {
                found.add(overOperations(items, s, sources.names(), limits, true, operationsAtEnd));
            }
            total += counts[s][1];
        }
        if (total > limits.operations()) {
            found.add(overOperations(items, -1, sources.names(), limits, false, true));
        }
        if (sources.bytes() > limits.bytes()) {
            found.add(overBytes(sources, limits, conf));
        }
        return InputRejection.first(found);
    }

    /** A group's place in the order the reader hands operations on, as a sort key. */
    record Place(int source, long order) implements Comparable<Place>, Serializable {
        @Override
        public int compareTo(Place o) {
            int bySource = Integer.compare(source, o.source);
            return bySource != 0 ? bySource : Long.compare(order, o.order);
        }
    }

    /**
     * The second operation (in input order) of an id that two have: the one the command line rejects
     * first. The ids' hashes (8 bytes an operation, one sorted array per part and bucket) are brought
     * together by bucket to find the hashes that repeat; only when there are any are the operations of those
     * hashes looked at by id: an aggregation by id, combined on the map side, keeps the places of the first
     * two of each id ({source, order, source, order}, the second -1 while there is one); a fold, per
     * partition and then on the driver, gives the first of the second places, whose facts give its location.
     */
    private static Optional<InputRejection> duplicate(JavaRDD<Item> items, List<String> names) {
        int buckets = items.getNumPartitions();
        List<Long> repeated = items.filter(i -> i.facts() != null)
                .flatMapToPair(i -> i.facts().hashesByBucket(buckets))
                .partitionBy(new HashPartitioner(buckets))
                .mapPartitions(it -> {
                    List<long[]> sorted = new ArrayList<>();
                    it.forEachRemaining(t -> sorted.add(t._2()));
                    return OperationFacts.repeated(sorted).iterator();
                })
                .collect();
        if (repeated.isEmpty()) {
            return Optional.empty();
        }
        Broadcast<Set<Long>> hashes = JavaSparkContext.fromSparkContext(items.context())
                .broadcast(new HashSet<>(repeated));
        long[] second = items.filter(i -> i.facts() != null)
                .flatMap(i -> i.facts().rows(k -> i.facts().hashedIn(k, hashes.value())))
                .mapToPair(r -> new Tuple2<>(r.id(), new long[] {r.source(), r.order(), -1, -1}))
                .reduceByKey(InputChecks::firstTwo)
                .values()
                .filter(two -> two[2] >= 0)
                .map(two -> new long[] {two[2], two[3]})
                .fold(NO_PLACE, (a, b) -> before(b[0], b[1], a[0], a[1]) ? b : a);
        if (second[0] == NO_PLACE[0]) {
            return Optional.empty();
        }
        int source = (int) second[0];
        long order = second[1];
        OperationFacts.Row at = items.filter(i -> i.facts() != null)
                .flatMap(i -> i.facts().rows(k -> i.facts().built(k) && i.facts().of(k, source)
                        && i.facts().row(k).order() == order))
                .first();
        return Optional.of(InputRejection.duplicateId(at.at(names)));
    }

    /** A place after every other (source, order): the first of none. */
    private static final long[] NO_PLACE = {Long.MAX_VALUE, Long.MAX_VALUE};

    /** The first two places of two pairs of places, each sorted; a new pair. */
    private static long[] firstTwo(long[] a, long[] b) {
        long[] out = {-1, -1, -1, -1};
        int i = 0;
        int j = 0;
        for (int k = 0; k < 4; k += 2) {
            boolean fromA = i < 4 && a[i] >= 0 && (j >= 4 || b[j] < 0 || !before(b[j], b[j + 1], a[i], a[i + 1]));
            boolean fromB = !fromA && j < 4 && b[j] >= 0;
            if (fromA) {
                out[k] = a[i];
                out[k + 1] = a[i + 1];
                i += 2;
            } else if (fromB) {
                out[k] = b[j];
                out[k + 1] = b[j + 1];
                j += 2;
            }
        }
        return out;
    }

    /** Whether place (source, order) {@code a} comes before {@code b} in the order the reader hands operations on. */
    private static boolean before(long aSource, long aOrder, long bSource, long bOrder) {
        return aSource != bSource ? aSource < bSource : aOrder < bOrder;
    }

    /**
     * The operation one past the limit: in one source (its groups of lines, as the reader counts them
     * while reading, or, {@code atEnd}, its operations as they are handed on at its end), or over the
     * input set (the operations, at the end of their source).
     */
    private static InputRejection overOperations(JavaRDD<Item> items, int source, List<String> names, Limits limits,
            boolean inSource, boolean atEnd) {
        long limit = limits.operations();
        OperationFacts.Row at = items.filter(i -> i.facts() != null)
                .flatMap(i -> i.facts().rows(k -> inSource ? i.facts().of(k, source) : i.facts().built(k)))
                .sortBy(OperationFacts.Row::place, true, items.getNumPartitions())
                .zipWithIndex()
                .filter(t -> t._2() == limit)
                .first()._1();
        Location l = new Location(names.get(at.source()), at.source(), at.line(), at.column(), null);
        return InputRejection.overOperations(limits, l, inSource, atEnd);
    }

    /** The first byte past the byte limit, found by counting lines up to it in its source. */
    private static InputRejection overBytes(Sources sources, Limits limits, Configuration conf) throws RetryAuditException {
        long left = limits.bytes();
        int s = 0;
        while (s < sources.files().size() - 1 && left >= fileLength(sources, s, conf)) {
            left -= fileLength(sources, s, conf);
            s++;
        }
        String name = sources.names().get(s);
        Path file = sources.files().get(s);
        long line = 1;
        long lineStart = 0;
        try (InputStream in = file.getFileSystem(conf).open(file)) {
            byte[] buf = new byte[1 << 16];
            long pos = 0;
            while (pos < left) {
                int n = in.read(buf, 0, (int) Math.min(buf.length, left - pos));
                if (n <= 0) {
                    break;
                }
                for (int i = 0; i < n; i++) {
                    if (buf[i] == '\n') {
                        line++;
                        lineStart = pos + i + 1;
                    }
                }
                pos += n;
            }
        } catch (IOException e) {
            throw InputRejection.unreadable(name, e);
        }
        long column = left - lineStart + 1;
        return InputRejection.overBytes(s, name, line, column, limits);
    }

    private static long fileLength(Sources sources, int s, Configuration conf) throws RetryAuditException {
        Path file = sources.files().get(s);
        try {
            return file.getFileSystem(conf).getFileStatus(file).getLen();
        } catch (IOException e) {
            throw InputRejection.unreadable(sources.names().get(s), e);
        }
    }
}
