package dev.retryaudit.spark;

import dev.retryaudit.api.AuditPart;
import dev.retryaudit.api.AuditPieces;
import dev.retryaudit.api.LinkedOperation;
import dev.retryaudit.api.OrderedRejection;
import dev.retryaudit.api.OtlpLineReader;
import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.api.SourceLine;
import dev.retryaudit.model.InputException;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.ParentRef;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.HashPartitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * The distributed audit of numbered OTLP/JSON Lines. Each line is parsed where it is read and sent,
 * once, to each partition that links one of the linking contexts its attempt spans belong to
 * (siblings under one parent span; root spans of one client and thread; one operation id, tool call or
 * idempotency key); there a task links its contexts in the order of their first lines, each line read
 * once for the contexts it feeds, into operations by the library's linker. An
 * operation's parent is another context's attempt: each context offers its attempts by span and asks
 * for its operations' parent spans, a join answers, and the contexts are linked again with their
 * parents and audited, one auditor per partition, as {@link AuditJob} audits spans.
 */
final class OtlpJob {
    private static final String REJECTED = "!";

    private OtlpJob() {
    }

    /** A parent's attempt offered by one operation, and where that operation's first span stands. */
    private record Offer(ParentRef ref, long order) implements java.io.Serializable {
    }

    /** A line sent to the partition that links some of its contexts, with the keys of those contexts. */
    private record Routed(SpanLine line, List<String> contexts) implements java.io.Serializable {
    }

    /**
     * Audits {@code lines}, read as {@code kinds} says. The result's items are kept (memory, else disk)
     * for the actions that follow.
     */
    static JavaRDD<Item> items(JavaRDD<SpanLine> lines, Broadcast<List<String>> sources, Broadcast<OtlpSources> kinds,
            AuditSettings settings) {
        HashPartitioner partitioner = new HashPartitioner(
                Math.max(lines.getNumPartitions(), lines.context().defaultParallelism()));
        // A line goes once to each partition that links one of its contexts (a context's partition is its
        // key's), not once to each context: a line of an export feeds as many contexts as it has operations.
        JavaRDD<Routed> routed = lines.mapPartitionsToPair(it -> {
            OtlpLineReader reader = new OtlpLineReader(settings.limits(), kinds.value().logs());
            List<Tuple2<Integer, Routed>> out = new ArrayList<>();
            while (it.hasNext()) {
                SpanLine l = it.next();
                try {
                    List<String> contexts = reader.contexts(l.text(sources.value()));
                    if (contexts != null) {
                        Map<Integer, List<String>> byPartition = new LinkedHashMap<>();
                        for (String c : new LinkedHashSet<>(contexts)) {
                            String key = l.sourceIndex() + "\u0000" + c;
                            byPartition.computeIfAbsent(partitioner.getPartition(key), p -> new ArrayList<>()).add(key);
                        }
                        byPartition.forEach((p, keys) -> out.add(new Tuple2<>(p, new Routed(l, keys))));
                    }
                } catch (InputException e) {
                    String key = REJECTED + l.sourceIndex() + ":" + l.line();
                    out.add(new Tuple2<>(partitioner.getPartition(key), new Routed(l, List.of(key))));
                }
            }
            return out.iterator();
        }).partitionBy(partitioner).values().persist(StorageLevel.MEMORY_AND_DISK_SER());
        // Offers by (source, trace/span) and requests (source, parent trace/span) -> context; errors wait for the audit.
        JavaPairRDD<String, Tuple2<String, Offer>> both = routed.mapPartitionsToPair(it -> {
            ReadLines read = new ReadLines(new OtlpLineReader(settings.limits(), kinds.value().logs()), sources.value());
            List<Tuple2<String, Tuple2<String, Offer>>> out = new ArrayList<>();
            for (Tuple2<String, List<SpanLine>> group : inLineOrder(it)) {
                if (group._1().startsWith(REJECTED)) {
                    continue;
                }
                int source = source(group._1());
                try {
                    for (LinkedOperation l : link(group, read, kinds.value())) {
                        l.offers().forEach((span, ref) -> out.add(new Tuple2<>(source + "\u0000" + span,
                                new Tuple2<>(null, new Offer(ref, l.firstOrder())))));
                        if (l.parentKey() != null) {
                            out.add(new Tuple2<>(source + "\u0000" + l.parentKey(), new Tuple2<>(group._1(), null)));
                        }
                    }
                } catch (InputException e) {
                    // raised again, in its place, when the context is audited
                }
            }
            return out.iterator();
        });
        JavaPairRDD<String, Tuple2<String, Offer>> answers = both.groupByKey().flatMapToPair(t -> {
            Offer best = null;
            List<String> askers = new ArrayList<>();
            for (Tuple2<String, Offer> v : t._2()) {
                if (v._2() != null && (best == null || v._2().order() >= best.order())) {
                    best = v._2();
                }
                if (v._1() != null) {
                    askers.add(v._1());
                }
            }
            List<Tuple2<String, Tuple2<String, Offer>>> out = new ArrayList<>();
            if (best != null) {
                String parentKey = t._1().substring(t._1().indexOf('\u0000') + 1);
                for (String asker : askers) {
                    out.add(new Tuple2<>(asker, new Tuple2<>(parentKey, best)));
                }
            }
            return out.iterator();
        });
        // The answers to a context's requests are in the partition of its key, as its lines are.
        JavaRDD<Item> items = routed.zipPartitions(answers.groupByKey(partitioner),
                (it, answered) -> auditPartition(it, answered, sources.value(), kinds.value(), settings));
        return items.persist(StorageLevel.MEMORY_AND_DISK());
    }

    private static int source(String key) {
        return Integer.parseInt(key.substring(key.startsWith(REJECTED) ? 1 : 0,
                key.indexOf(key.startsWith(REJECTED) ? ':' : '\u0000')));
    }

    /**
     * The contexts of a partition's lines, each with its lines in line order, in the order of their
     * first lines: the contexts a line feeds are linked close together, and the line is read once for them.
     */
    private static List<Tuple2<String, List<SpanLine>>> inLineOrder(Iterator<Routed> routed) {
        Map<String, List<SpanLine>> byContext = new HashMap<>();
        routed.forEachRemaining(r -> r.contexts().forEach(c -> byContext.computeIfAbsent(c, k -> new ArrayList<>(2))
                .add(r.line())));
        List<Tuple2<String, List<SpanLine>>> out = new ArrayList<>(byContext.size());
        byContext.forEach((c, lines) -> {
            lines.sort(Comparator.comparingLong(SpanLine::line));
            out.add(new Tuple2<>(c, lines));
        });
        out.sort(Comparator.comparingInt((Tuple2<String, List<SpanLine>> g) -> g._2().get(0).sourceIndex())
                .thenComparingLong(g -> g._2().get(0).line()).thenComparing(Tuple2::_1));
        return out;
    }

    private static List<LinkedOperation> link(Tuple2<String, List<SpanLine>> group, ReadLines read, OtlpSources kinds)
            throws InputException {
        List<OtlpLineReader.Line> lines = new ArrayList<>(group._2().size());
        for (SpanLine l : group._2()) {
            OtlpLineReader.Line line = read.get(l);
            if (line != null) {
                lines.add(line);
            }
        }
        String key = group._1();
        return read.reader().operations(key.substring(key.indexOf('\u0000') + 1), lines,
                kinds.single().contains(group._2().get(0).sourceIndex()));
    }

    private static Iterator<Item> auditPartition(Iterator<Routed> routed,
            Iterator<Tuple2<String, Iterable<Tuple2<String, Offer>>>> answered, List<String> sources, OtlpSources kinds,
            AuditSettings settings) {
        Map<String, Map<String, ParentRef>> parents = new HashMap<>();
        answered.forEachRemaining(a -> {
            Map<String, ParentRef> byKey = new HashMap<>();
            a._2().forEach(p -> byKey.put(p._1(), p._2().ref()));
            parents.put(a._1(), byKey);
        });
        List<Tuple2<String, List<SpanLine>>> ordered = inLineOrder(routed);
        ReadLines read = new ReadLines(new OtlpLineReader(settings.limits(), kinds.logs()), sources);
        RetryAudit audit = settings.auditor();
        List<Item> out = new ArrayList<>();
        Iterator<Tuple2<String, List<SpanLine>>> contexts = ordered.iterator();
        ArrayDeque<Operation> ops = new ArrayDeque<>();
        Iterable<Operation> operations = () -> new Iterator<>() {
            @Override
            public boolean hasNext() {
                while (ops.isEmpty() && contexts.hasNext()) {
                    Tuple2<String, List<SpanLine>> c = contexts.next();
                    ops.addAll(build(c, parents.getOrDefault(c._1(), Map.of()), read, kinds, out));
                }
                return !ops.isEmpty();
            }

            @Override
            public Operation next() {
                if (!hasNext()) {
                    throw new java.util.NoSuchElementException();
                }
                return ops.removeFirst();
            }
        };
        AuditPart part = audit.auditPart(operations);
        AuditPieces.findings(part).forEach(f -> out.add(Item.of(f)));
        AuditPieces.pieces(part).forEach(p -> out.add(Item.of(p)));
        return out.iterator();
    }

    /** The operations of one context with their parents; their facts, or the context's error, go to {@code side}. */
    private static List<Operation> build(Tuple2<String, List<SpanLine>> lines, Map<String, ParentRef> parents,
            ReadLines read, OtlpSources kinds, List<Item> side) {
        int source = source(lines._1());
        if (lines._1().startsWith(REJECTED)) {
            try {
                read.get(lines._2().get(0));
                throw new IllegalStateException("a line rejected once was accepted the second time");
            } catch (InputException e) {
                side.add(Item.of(OrderedRejection.reading(source, e)));
                return List.of();
            }
        }
        try {
            List<Operation> ops = new ArrayList<>();
            for (LinkedOperation l : link(lines, read, kinds)) {
                Operation op = l.withParent(l.parentKey() == null ? null : parents.get(l.parentKey()));
                side.add(Item.of(new Item.Stat(source, op.location().line(), op.location().column(), l.firstOrder(),
                        op.id(), op.location(), op.attempts().size())));
                ops.add(op);
            }
            return ops;
        } catch (InputException e) {
            side.add(Item.of(OrderedRejection.atEnd(source, e.line(), e.column(), e)));
            return List.of();
        }
    }
}
