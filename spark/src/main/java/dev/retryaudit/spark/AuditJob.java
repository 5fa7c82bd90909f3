package dev.retryaudit.spark;

import dev.retryaudit.api.AuditResult;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.api.split.AuditPart;
import dev.retryaudit.api.split.InputRejection;
import dev.retryaudit.api.split.LineReader;
import dev.retryaudit.model.Operation;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.spark.HashPartitioner;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * The distributed audit of numbered span lines, each read once where it is. A first, small pass finds the
 * operations whose lines are in more than one partition ({@link CrossingKeys}); then each partition reads
 * its lines (checked and parsed once), builds the operations all of whose lines it holds and audits them
 * there with one auditor, and sends only the lines of the others, as they were read from the file, through
 * one shuffle by key, where they are read, built and audited. What the cross-operation rules aggregated and
 * the input notes leave each partition as one piece per reducing partition (by rule and key, by source),
 * where the pieces are merged and judged. Input errors travel as items beside the findings; the input-wide
 * checks (unique ids, the operations limit, empty sources) run over one small fact per operation.
 */
final class AuditJob {
    private AuditJob() {
    }

    /**
     * Audits {@code lines}; the result's items are kept (serialized, in memory, else on disk) for the actions
     * that follow, and what they were made from is added to {@code kept}, to be let go once the items are. {@code found}
     * gets the keys that cross partitions. A partition in {@code whole} holds whole files: the first pass
     * does not read it, and it builds its operations at its end; when every partition does, there is no first pass.
     */
    static JavaRDD<Item> items(JavaRDD<SpanLine> lines, WholeFiles whole, Broadcast<List<String>> sources,
            AuditSettings settings, List<JavaRDD<?>> kept, List<CrossingKeys.Found> found) {
        if (whole.partitions().size() == lines.getNumPartitions()) {
            // Every partition holds a whole file: no key can cross, and no line is read twice; no first pass.
            found.add(new CrossingKeys.Found(Set.of(), 0));
            return lines.mapPartitionsWithIndex((p, it) -> auditWhole(whole, p, sources.value(), settings), true)
                    .persist(StorageLevel.MEMORY_AND_DISK_SER());
        }
        JavaRDD<CrossingKeys.Counts> counts = CrossingKeys.counts(lines, sources, settings.limits(), whole.partitions());
        kept.add(counts);
        CrossingKeys.Found crossing = CrossingKeys.of(counts);
        found.add(crossing);
        Broadcast<Set<Long>> hashes = JavaSparkContext.fromSparkContext(lines.context()).broadcast(crossing.hashes());
        // The counts of a partition and its lines, partition by partition: the same splits of the same files.
        JavaRDD<Item> read = counts.zipPartitions(lines, (c, it) -> whole.holds(TaskContext.getPartitionId())
                ? auditWhole(whole, TaskContext.getPartitionId(), sources.value(), settings)
                : auditLocal(it, c.next(), sources.value(), settings, hashes.value()))
                .persist(StorageLevel.MEMORY_AND_DISK_SER());
        if (crossing.hashes().isEmpty()) {
            // No line crosses: what each partition read is the result.
            return read;
        }
        kept.add(read);
        int partitions = Math.max(lines.getNumPartitions(), lines.context().defaultParallelism());
        JavaRDD<Item> crossed = read.filter(i -> i.crossing() != null)
                .mapToPair(i -> new Tuple2<>(i.crossing().key(), i.crossing().line()))
                .partitionBy(new HashPartitioner(partitions))
                .mapPartitions(it -> auditCrossing(it, sources.value(), settings));
        return read.filter(i -> i.crossing() == null).union(crossed).persist(StorageLevel.MEMORY_AND_DISK_SER());
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
                            pieces.add(i.piece().value());
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

    /**
     * The lines of one partition, each read once: an operation all of whose lines are here is built and
     * audited as soon as its last line ({@code counts}) is read, the lines of the others ({@code crossing}, by
     * hash) are handed on as they are. What is still open at the end (a key whose lines the reader rejected
     * in part) is built then.
     */
    private static Iterator<Item> auditLocal(Iterator<SpanLine> lines, CrossingKeys.Counts counts,
            List<String> sources, AuditSettings settings, Set<Long> crossing) {
        LineReader reader = LineReader.spans(settings.limits());
        List<Item> out = new ArrayList<>();
        OperationFacts facts = new OperationFacts();
        Map<String, SpanOperation> open = new LinkedHashMap<>();
        Iterator<Operation> built = new Iterator<>() {
            private Operation next;
            private Iterator<SpanOperation> rest;

            @Override
            public boolean hasNext() {
                while (next == null && lines.hasNext()) {
                    SpanLine l = lines.next();
                    LineReader.Line read = read(reader, sources, l, out);
                    if (read == null) {
                        continue;
                    }
                    long hash = CrossingKeys.hash(l.sourceIndex(), read.key());
                    if (!crossing.isEmpty() && crossing.contains(hash)) {
                        out.add(Item.of(new Item.Crossing(l.sourceIndex() + "\u0000" + read.key(), l)));
                        continue;
                    }
                    String key = l.sourceIndex() + "\u0000" + read.key();
                    SpanOperation op = open.computeIfAbsent(key, k -> new SpanOperation(l.sourceIndex(), l.line()));
                    if (op.add(read) == counts.of(hash)) {
                        open.remove(key);
                        next = op.build(reader, out, facts);
                    }
                }
                if (next == null && !lines.hasNext()) {
                    rest = rest != null ? rest : List.copyOf(open.values()).iterator();
                    while (next == null && rest.hasNext()) {
                        next = rest.next().build(reader, out, facts);
                    }
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
        };
        return audit(() -> built, reader, settings, out, facts);
    }

    /**
     * The file partition {@code partition} holds whole ({@code whole}), read in one pass as the command line
     * reads it ({@link LineReader#holdSource}: its chunks parsed on several cores, no object kept per line),
     * its operations built at the end, in the order of their first lines, and audited here. The lines Spark
     * read for the partition are not used.
     */
    private static Iterator<Item> auditWhole(WholeFiles whole, int partition, List<String> sources,
            AuditSettings settings) {
        LineReader reader = LineReader.spans(settings.limits());
        List<Item> out = new ArrayList<>();
        OperationFacts facts = new OperationFacts();
        int source = whole.source(partition);
        try (InputStream in = whole.open(partition)) {
            reader.holdSource(sources.get(source), source, in);
        } catch (RetryAuditException e) {
            out.add(Item.of(InputRejection.reading(source, e)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // Built as the audit takes them, so that no more than one is held at a time.
        int held = reader.held(source);
        return audit(() -> IntStream.range(0, held).mapToObj(g -> SpanOperation.build(reader, source, g, out, facts))
                .filter(Objects::nonNull).iterator(), reader, settings, out, facts);
    }

    /** The lines of the operations that cross partitions, by key: each read, built and audited here. */
    private static Iterator<Item> auditCrossing(Iterator<Tuple2<String, SpanLine>> lines, List<String> sources,
            AuditSettings settings) {
        Map<String, List<SpanLine>> byKey = new HashMap<>();
        lines.forEachRemaining(t -> byKey.computeIfAbsent(t._1(), k -> new ArrayList<>()).add(t._2()));
        LineReader reader = LineReader.spans(settings.limits());
        List<Item> out = new ArrayList<>();
        OperationFacts facts = new OperationFacts();
        List<SpanOperation> ops = new ArrayList<>();
        for (List<SpanLine> its : byKey.values()) {
            its.sort(Comparator.comparingLong(SpanLine::line));
            SpanOperation op = null;
            for (SpanLine l : its) {
                LineReader.Line read = read(reader, sources, l, out);
                if (read != null) {
                    op = op != null ? op : new SpanOperation(l.sourceIndex(), l.line());
                    op.add(read);
                }
            }
            if (op != null) {
                ops.add(op);
            }
        }
        return audit(() -> ops.stream().map(op -> op.build(reader, out, facts)).filter(Objects::nonNull).iterator(),
                reader, settings, out, facts);
    }

    /** Line {@code l} read, or null when it is blank or rejected (its error goes to {@code out}). */
    private static LineReader.Line read(LineReader reader, List<String> sources, SpanLine l, List<Item> out) {
        try {
            return reader.read(sources.get(l.sourceIndex()), l.sourceIndex(), l.line(), l.bytes());
        } catch (RetryAuditException e) {
            // A line the reader rejects is no line of the operation: the rest are, as when read alone.
            out.add(Item.of(InputRejection.reading(l.sourceIndex(), e)));
            return null;
        }
    }

    /**
     * {@code operations} audited as one part: its findings, the facts of its operations and its one piece to
     * merge go to {@code out}, after the errors of the operations, which building them puts there.
     */
    private static Iterator<Item> audit(Iterable<Operation> operations, LineReader reader, AuditSettings settings,
            List<Item> out, OperationFacts facts) {
        AuditPart part = settings.split().auditPart(operations, reader);
        out.add(Item.of(facts));
        out.add(Item.of(part.findings()));
        // What is left to merge, as one piece: the merge sends it on by group.
        part.pieces(1).values().forEach(p -> out.add(Item.of(p)));
        return out.iterator();
    }
}
