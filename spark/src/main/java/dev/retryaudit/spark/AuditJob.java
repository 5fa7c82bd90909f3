package dev.retryaudit.spark;

import dev.retryaudit.api.AuditPart;
import dev.retryaudit.api.AuditPieces;
import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.input.operations.SpanLines;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.InputException;
import dev.retryaudit.model.Operation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * The distributed audit of numbered span lines. Each line is parsed where it is read and keyed by its
 * operation (source and operation_id, else idempotency key); {@code groupByKey} brings an operation's
 * lines together, where they are built into the operation and audited by the per-operation rules, one
 * auditor per partition. What the cross-operation rules aggregated leaves as one piece per rule and
 * key; a second {@code groupByKey} merges the pieces of each key and judges them. Input errors travel
 * as items beside the findings; the input-wide checks (unique ids, the operations limit, empty
 * sources) run over one small fact per operation.
 */
final class AuditJob {
    /** The key of a line the reader rejects: its own group, where the error is raised again. */
    private static final String REJECTED = "!";

    private AuditJob() {
    }

    /** Audits {@code lines}; the result's items are kept (memory, else disk) for the actions that follow. */
    static JavaRDD<Item> items(JavaRDD<SpanLine> lines, Broadcast<List<String>> sources, AuditSettings settings) {
        JavaPairRDD<String, SpanLine> keyed = lines.mapPartitionsToPair(it -> {
            SpanLines reader = new SpanLines(settings.limits());
            List<Tuple2<String, SpanLine>> out = new ArrayList<>();
            while (it.hasNext()) {
                SpanLine l = it.next();
                try {
                    SpanLines.Keyed k = reader.key(l.text(sources.value()));
                    if (k != null) {
                        out.add(new Tuple2<>(l.sourceIndex() + "\u0000" + k.key(), l));
                    }
                } catch (InputException e) {
                    out.add(new Tuple2<>(REJECTED + l.sourceIndex() + ":" + l.line(), l));
                }
            }
            return out.iterator();
        });
        JavaRDD<Item> items = keyed.groupByKey(Math.max(1, lines.getNumPartitions()))
                .mapPartitions(groups -> auditPartition(groups, sources.value(), settings));
        return items.persist(StorageLevel.MEMORY_AND_DISK_SER());
    }

    /** The findings of the cross-operation rules: the pieces of each rule and key merged and judged. */
    static JavaRDD<Finding> crossFindings(JavaRDD<Item> items, AuditSettings settings) {
        return items.filter(i -> i.piece() != null)
                .mapToPair(i -> new Tuple2<>(i.piece().group(), i.piece().part()))
                .groupByKey()
                .mapPartitions(groups -> {
                    RetryAudit audit = settings.auditor();
                    List<Finding> out = new ArrayList<>();
                    while (groups.hasNext()) {
                        List<AuditPart> parts = new ArrayList<>();
                        groups.next()._2().forEach(parts::add);
                        out.addAll(audit.merge(parts).findings());
                    }
                    return out.iterator();
                });
    }

    private static Iterator<Item> auditPartition(Iterator<Tuple2<String, Iterable<SpanLine>>> groups,
            List<String> sources, AuditSettings settings) {
        RetryAudit audit = settings.auditor();
        SpanLines reader = new SpanLines(settings.limits());
        List<Item> out = new ArrayList<>();
        Iterable<Operation> operations = () -> new Built(groups, sources, reader, out);
        AuditPart part = audit.auditPart(operations);
        AuditPieces.findings(part).forEach(f -> out.add(Item.of(f)));
        AuditPieces.pieces(part).forEach(p -> out.add(Item.of(p)));
        return out.iterator();
    }

    /** The operations of a partition's groups, built as they are asked for; errors and facts go to {@code side}. */
    private static final class Built implements Iterator<Operation> {
        private final Iterator<Tuple2<String, Iterable<SpanLine>>> groups;
        private final List<String> sources;
        private final SpanLines reader;
        private final List<Item> side;
        private Operation next;

        Built(Iterator<Tuple2<String, Iterable<SpanLine>>> groups, List<String> sources, SpanLines reader,
                List<Item> side) {
            this.groups = groups;
            this.sources = sources;
            this.reader = reader;
            this.side = side;
        }

        @Override
        public boolean hasNext() {
            while (next == null && groups.hasNext()) {
                next = build(groups.next());
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

        private Operation build(Tuple2<String, Iterable<SpanLine>> group) {
            List<SpanLine> lines = new ArrayList<>();
            group._2().forEach(lines::add);
            lines.sort(Comparator.comparingLong(SpanLine::line));
            SpanLine first = lines.get(0);
            List<SpanLines.Text> texts = new ArrayList<>(lines.size());
            lines.forEach(l -> texts.add(l.text(sources)));
            if (group._1().startsWith(REJECTED)) {
                try {
                    reader.key(texts.get(0));
                    throw new IllegalStateException("a line rejected once was accepted the second time");
                } catch (InputException e) {
                    side.add(Item.of(Rejection.reading(first.sourceIndex(), e)));
                    return null;
                }
            }
            try {
                Operation op = reader.operation(texts);
                side.add(Item.of(new Item.Stat(first.sourceIndex(), op.location().line(), op.location().column(),
                        first.line(), op.id(), op.location(), op.attempts().size())));
                return op;
            } catch (InputException e) {
                side.add(Item.of(rejection(first, e)));
                side.add(Item.of(new Item.Stat(first.sourceIndex(), first.line(), 1, first.line(), null, null, 0)));
                return null;
            }
        }

        /**
         * An error on a later line of the operation is met while reading; one at its first line (no
         * attempt, no tool) at the end of the source.
         */
        private static Rejection rejection(SpanLine first, InputException e) {
            if (e.line() == first.line()) {
                return Rejection.atEnd(first.sourceIndex(), e.line(), e.column(), 0, e);
            }
            return Rejection.reading(first.sourceIndex(), e);
        }
    }
}
