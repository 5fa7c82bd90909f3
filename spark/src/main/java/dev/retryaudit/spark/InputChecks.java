package dev.retryaudit.spark;

import dev.retryaudit.input.InputException;
import dev.retryaudit.input.Limits;
import dev.retryaudit.input.json.ParseFailures;
import dev.retryaudit.input.operations.SpanLines;
import dev.retryaudit.input.pipeline.InputSet;
import dev.retryaudit.model.Location;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import scala.Tuple2;

/**
 * The checks that need the whole input, each over small facts: errors raised by the tasks, operation
 * ids that repeat, the operations limit (per source while reading, and over the input set), sources
 * with no span line and the byte limit. Gives the first error in the command line's order, if any.
 */
final class InputChecks {
    private InputChecks() {
    }

    /** Per source: groups of lines, operations, attempts. */
    static long[][] counts(JavaRDD<Item> items, int sources) {
        Map<Integer, long[]> bySource = items.filter(i -> i.stat() != null)
                .mapToPair(i -> new Tuple2<>(i.stat().source(),
                        new long[] {1, i.stat().built() ? 1 : 0, i.stat().attempts()}))
                .reduceByKey((a, b) -> new long[] {a[0] + b[0], a[1] + b[1], a[2] + b[2]})
                .collectAsMap();
        long[][] out = new long[sources][];
        for (int s = 0; s < sources; s++) {
            out[s] = bySource.getOrDefault(s, new long[3]);
        }
        return out;
    }

    static Optional<Rejection> first(JavaRDD<Item> items, long[][] counts, Sources sources, Limits limits,
            Configuration conf) throws InputException {
        List<Rejection> found = new ArrayList<>(items.filter(i -> i.rejection() != null)
                .mapPartitions(it -> {
                    Rejection min = null;
                    while (it.hasNext()) {
                        Rejection r = it.next().rejection();
                        min = min == null ? r : Rejection.first(min, r);
                    }
                    return min == null ? List.<Rejection>of().iterator() : List.of(min).iterator();
                }).collect());
        duplicate(items).ifPresent(found::add);
        long total = 0;
        for (int s = 0; s < counts.length; s++) {
            String name = sources.names().get(s);
            if (counts[s][0] == 0) {
                found.add(Rejection.atEnd(s, 0, 0, 0, SpanLines.empty(name)));
            }
            if (counts[s][0] > limits.operations()) {
                found.add(overOperations(items, s, sources.names(), limits, true));
            }
            total += counts[s][1];
        }
        if (total > limits.operations()) {
            found.add(overOperations(items, -1, sources.names(), limits, false));
        }
        if (sources.bytes() > limits.bytes()) {
            found.add(overBytes(sources, limits, conf));
        }
        return found.stream().min(Rejection.FIRST);
    }

    /** The second operation (in input order) of an id that two have: the one the command line rejects first. */
    private static Optional<Rejection> duplicate(JavaRDD<Item> items) {
        List<Location> second = items.filter(i -> i.stat() != null && i.stat().built())
                .mapToPair(i -> new Tuple2<>(i.stat().id(), List.of(i.stat().at())))
                .reduceByKey(InputChecks::firstTwo)
                .filter(t -> t._2().size() > 1)
                .map(t -> t._2().get(1))
                .takeOrdered(1, (java.util.Comparator<Location> & java.io.Serializable) (a, b) -> Location.ORDER.compare(a, b));
        return second.stream().findFirst().map(l -> Rejection.atEnd(l.sourceIndex(), l.line(), l.column(), 1,
                InputSet.duplicateId(l)));
    }

    private static List<Location> firstTwo(List<Location> a, List<Location> b) {
        List<Location> all = new ArrayList<>(a);
        all.addAll(b);
        all.sort(Location.ORDER);
        return List.copyOf(all.subList(0, Math.min(2, all.size())));
    }

    /**
     * The operation one past the limit: in one source (its groups of lines, as the reader counts them
     * while reading), or over the input set (the operations, at the end of their source).
     */
    private static Rejection overOperations(JavaRDD<Item> items, int source, List<String> names, Limits limits,
            boolean inSource) {
        long limit = limits.operations();
        long[] at = items.filter(i -> i.stat() != null && (inSource ? i.stat().source() == source : i.stat().built()))
                .map(i -> new long[] {i.stat().source(), i.stat().line(), i.stat().column()})
                .sortBy(a -> (a[0] << 40) + a[1], true, items.getNumPartitions())
                .zipWithIndex()
                .filter(t -> t._2() == limit)
                .first()._1();
        int s = (int) at[0];
        Location l = new Location(names.get(s), s, at[1], at[2], null);
        return inSource
                ? new Rejection(s, Rejection.READING, at[1], at[2], 0, InputSet.overOperations(limits, l))
                : new Rejection(s, Rejection.AT_END, at[1], at[2], 2, InputSet.overOperations(limits, l));
    }

    /** The first byte past the byte limit, found by counting lines up to it in its source. */
    private static Rejection overBytes(Sources sources, Limits limits, Configuration conf) throws InputException {
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
            throw ParseFailures.unreadable(name, e);
        }
        long column = left - lineStart + 1;
        InputException over = ParseFailures.bytesExceeded(name, line, column, null, limits.bytes());
        return Rejection.reading(s, InputException.rejected(name, line, column, "$", over.detail()).over(over.limit()));
    }

    private static long fileLength(Sources sources, int s, Configuration conf) throws InputException {
        Path file = sources.files().get(s);
        try {
            return file.getFileSystem(conf).getFileStatus(file).getLen();
        } catch (IOException e) {
            throw ParseFailures.unreadable(sources.names().get(s), e);
        }
    }
}
