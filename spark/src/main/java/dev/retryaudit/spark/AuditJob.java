package dev.retryaudit.spark;

import dev.retryaudit.api.AuditResult;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.api.split.AuditPart;
import dev.retryaudit.api.split.InputRejection;
import dev.retryaudit.api.split.LineReader;
import dev.retryaudit.api.split.SplitAudit;
import dev.retryaudit.model.Operation;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.HashPartitioner;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * The distributed audit of numbered span lines. Each line is keyed where it is read by its operation
 * (source and operation_id, else idempotency key), from its top-level fields; a repartition on the
 * key, sorted within partitions, brings an operation's lines together, where each is read (checked and
 * parsed, once) and they are built into the operation and
 * audited by the per-operation rules, one auditor per partition. What the cross-operation rules aggregated and
 * the input notes leave each partition as one piece per reducing partition (by rule and key, by source),
 * where the pieces are merged and judged. Input errors travel
 * as items beside the findings; the input-wide checks (unique ids, the operations limit, empty
 * sources) run over one small fact per operation.
 */
final class AuditJob {
    /** The key of a line that shows no key (the reader rejects it): its own group, where it is read. */
    private static final String REJECTED = "!";

    private AuditJob() {
    }

    /** The columns of a keyed line: its operation's key, its source, its number there and its bytes. */
    private static final StructType KEYED = DataTypes.createStructType(new StructField[] {
        DataTypes.createStructField("key", DataTypes.StringType, false),
        DataTypes.createStructField("source", DataTypes.IntegerType, false),
        DataTypes.createStructField("line", DataTypes.LongType, false),
        DataTypes.createStructField("bytes", DataTypes.BinaryType, false)});

    /**
     * Audits {@code lines}; the result's items are kept (memory, else disk) for the actions that follow.
     * Each line is keyed where it is read; a repartition on the key, sorted by key and line within each
     * partition, hands every task its operations' lines one operation after another, in line order, so
     * an operation is built as soon as its last line is read and no group of lines is held per key.
     */
    static JavaRDD<Item> items(SparkSession spark, JavaRDD<SpanLine> lines, Broadcast<List<String>> sources,
            AuditSettings settings) {
        // Keyed from its top-level fields without checking it: each line is read once, where its key's lines meet.
        JavaRDD<Row> keyed = lines.mapPartitions(it -> {
            LineReader reader = LineReader.spans(settings.limits());
            List<Row> out = new ArrayList<>();
            while (it.hasNext()) {
                SpanLine l = it.next();
                String key = reader.key(sources.value().get(l.sourceIndex()), l.sourceIndex(), l.line(), l.bytes());
                if (key != null) {
                    out.add(RowFactory.create(key.isEmpty() ? REJECTED + l.sourceIndex() + ":" + l.line()
                            : l.sourceIndex() + "\u0000" + key, l.sourceIndex(), l.line(), l.bytes()));
                }
            }
            return out.iterator();
        });
        int partitions = Math.max(lines.getNumPartitions(), lines.context().defaultParallelism());
        JavaRDD<Row> sorted = spark.createDataFrame(keyed, KEYED)
                .repartition(partitions, functions.col("key"))
                .sortWithinPartitions("key", "line")
                .javaRDD();
        JavaRDD<Item> items = sorted.mapPartitions(rows -> auditPartition(rows, sources.value(), settings));
        return items.persist(StorageLevel.MEMORY_AND_DISK());
    }

    /**
     * The pieces of each group merged: the findings of the cross-operation rules (each rule and key judged)
     * and the notes of each source; kept (memory, else disk) for the actions that follow. A Spark
     * aggregation with its combine on the map side: each partition's pieces are merged into one part and
     * sent on as one piece per reducing partition (its keys and sources), and each reducing partition
     * merges the pieces it is sent, one from each partition, once; not one piece per key nor one merge per
     * key.
     */
    static JavaRDD<AuditResult> merged(JavaRDD<Item> items, AuditSettings settings) {
        int groups = items.getNumPartitions();
        return items.mapPartitionsToPair(it -> {
                    List<AuditPart> pieces = new ArrayList<>();
                    it.forEachRemaining(i -> {
                        if (i.piece() != null) {
                            pieces.add(i.piece());
                        }
                    });
                    List<Tuple2<Integer, AuditPart>> out = new ArrayList<>();
                    if (!pieces.isEmpty()) {
                        AuditPart all = pieces.size() == 1 ? pieces.get(0) : settings.split().combine(pieces);
                        all.pieces(groups).forEach((g, p) -> out.add(new Tuple2<>(g, p)));
                    }
                    return out.iterator();
                })
                .partitionBy(new HashPartitioner(groups))
                .mapPartitions(pieces -> {
                    List<AuditPart> parts = new ArrayList<>();
                    pieces.forEachRemaining(p -> parts.add(p._2()));
                    return parts.isEmpty() ? List.<AuditResult>of().iterator()
                            : List.of(settings.split().merge(parts)).iterator();
                })
                .persist(StorageLevel.MEMORY_AND_DISK());
    }

    private static Iterator<Item> auditPartition(Iterator<Row> rows, List<String> sources, AuditSettings settings) {
        SplitAudit audit = settings.split();
        LineReader reader = LineReader.spans(settings.limits());
        List<Item> out = new ArrayList<>();
        Iterable<Operation> operations = () -> new Built(rows, sources, reader, out);
        AuditPart part = audit.auditPart(operations, reader);
        part.findings().forEach(f -> out.add(Item.of(f)));
        // What is left to merge, as one piece: the merge sends it on by group.
        part.pieces(1).values().forEach(p -> out.add(Item.of(p)));
        return out.iterator();
    }

    /**
     * The operations of a partition's rows, sorted by key and line: each built from the rows of one key
     * as soon as the next key begins; errors and facts go to {@code side}.
     */
    private static final class Built implements Iterator<Operation> {
        private final Iterator<Row> rows;
        private final List<String> sources;
        private final LineReader reader;
        private final List<Item> side;
        private final List<SpanLine> lines = new ArrayList<>();
        private Row ahead;
        private Operation next;

        Built(Iterator<Row> rows, List<String> sources, LineReader reader, List<Item> side) {
            this.rows = rows;
            this.sources = sources;
            this.reader = reader;
            this.side = side;
        }

        @Override
        public boolean hasNext() {
            while (next == null && (ahead != null || rows.hasNext())) {
                Row first = ahead != null ? ahead : rows.next();
                ahead = null;
                String key = first.getString(0);
                lines.clear();
                lines.add(line(first));
                while (rows.hasNext()) {
                    Row r = rows.next();
                    if (!r.getString(0).equals(key)) {
                        ahead = r;
                        break;
                    }
                    lines.add(line(r));
                }
                next = build(key);
            }
            return next != null;
        }

        @Override
        public Operation next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            Operation op = next;
            next = null;
            return op;
        }

        private static SpanLine line(Row r) {
            return new SpanLine(r.getInt(1), r.getLong(2), (byte[]) r.get(3));
        }

        private Operation build(String key) {
            String source = sources.get(lines.get(0).sourceIndex());
            List<LineReader.Line> read = new ArrayList<>(lines.size());
            SpanLine first = null;
            for (SpanLine l : lines) {
                try {
                    read.add(reader.read(source, l.sourceIndex(), l.line(), l.bytes()));
                    first = first == null ? l : first;
                } catch (RetryAuditException e) {
                    // A line the reader rejects is no line of the operation: the rest are, as when read alone.
                    side.add(Item.of(InputRejection.reading(l.sourceIndex(), e)));
                }
            }
            if (key.startsWith(REJECTED) && !read.isEmpty()) {
                throw new IllegalStateException("a line that shows no key was read");
            }
            if (first == null) {
                return null;
            }
            try {
                Operation op = reader.operation(read);
                side.add(Item.of(new Item.Stat(first.sourceIndex(), op.location().line(), op.location().column(),
                        first.line(), op.id(), op.location(), op.attempts().size())));
                return op;
            } catch (RetryAuditException e) {
                side.add(Item.of(rejection(first, e)));
                side.add(Item.of(new Item.Stat(first.sourceIndex(), first.line(), 1, first.line(), null, null, 0)));
                return null;
            }
        }

        /**
         * An error on a later line of the operation is met while reading; one at its first line (no
         * attempt, no tool) at the end of the source.
         */
        private static InputRejection rejection(SpanLine first, RetryAuditException e) {
            if (e.line() == first.line()) {
                return InputRejection.atEnd(first.sourceIndex(), e.line(), e.column(), e);
            }
            return InputRejection.reading(first.sourceIndex(), e);
        }
    }
}
