package dev.retryaudit.spark;

import dev.retryaudit.api.AuditPart;
import dev.retryaudit.api.InputRejection;
import dev.retryaudit.api.LineReader;
import dev.retryaudit.api.LinkedOperation;
import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.model.Operation;
import java.io.Serializable;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import org.apache.spark.HashPartitioner;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * The distributed audit of numbered OTLP/JSON Lines. Each line is parsed where it is read and sent,
 * once, to each partition that links one of the linking contexts its attempt spans belong to
 * (siblings under one parent span; root spans of one client and thread; one operation id, tool call or
 * idempotency key; the sends of an SDK call span); there a task links its contexts in the order of their
 * first lines, each line read once for the contexts it feeds, into operations by the library's linker.
 * Which HTTP requests are SDK call spans (linked with their sends, not in their own context) is decided
 * first, from facts about each request brought together by span. An operation's parent is another
 * context's attempt: each context offers its attempts by span and asks for its operations' parent
 * spans, a join answers, and the contexts are linked again with their parents and audited, one auditor
 * per partition, as {@link AuditJob} audits spans. The notes of reading each line leave the task that
 * routed it; those of linking, the task that audits the context.
 */
final class OtlpJob {
    private static final String REJECTED = "!";

    private OtlpJob() {
    }

    /** A parent's attempt offered by one operation (its id and the attempt's), and where that operation's first span stands. */
    record Offer(String operation, int attempt, long order) implements Serializable {
    }

    /**
     * What the routing sends to a partition: a line with the keys of the contexts it feeds there, a fact
     * (span key, fact) about an HTTP request, or the notes of the lines a task read.
     */
    record Routed(SpanLine line, List<String> contexts, String[] fact, AuditPart notes)
            implements Serializable {
    }

    /** What a context is told: the answer to a parent it asked for, or an SDK call span it must leave out. */
    record Told(String parentKey, Offer offer, String call) implements Serializable {
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
            LineReader reader = LineReader.otlp(settings.limits(), kinds.value().logs());
            List<Tuple2<Integer, Routed>> out = new ArrayList<>();
            while (it.hasNext()) {
                SpanLine l = it.next();
                try {
                    LineReader.Line read = reader.read(sources.value().get(l.sourceIndex()), l.sourceIndex(), l.line(),
                            l.bytes());
                    if (read != null) {
                        Map<Integer, List<String>> byPartition = new LinkedHashMap<>();
                        for (String c : new LinkedHashSet<>(read.contexts())) {
                            String key = l.sourceIndex() + "\u0000" + c;
                            byPartition.computeIfAbsent(partitioner.getPartition(key), p -> new ArrayList<>()).add(key);
                        }
                        byPartition.forEach((p, keys) -> out.add(new Tuple2<>(p, new Routed(l, keys, null, null))));
                        for (String[] f : read.callFacts()) {
                            String key = l.sourceIndex() + "\u0000" + f[0];
                            out.add(new Tuple2<>(partitioner.getPartition(key),
                                    new Routed(null, null, new String[] {key, f[1]}, null)));
                        }
                    }
                } catch (RetryAuditException e) {
                    String key = REJECTED + l.sourceIndex() + ":" + l.line();
                    out.add(new Tuple2<>(partitioner.getPartition(key), new Routed(l, List.of(key), null, null)));
                }
            }
            AuditPart notes = settings.auditor().auditPart(List.of(), reader);
            out.add(new Tuple2<>(TaskContext.getPartitionId() % partitioner.numPartitions(),
                    new Routed(null, null, null, notes)));
            return out.iterator();
        }).partitionBy(partitioner).values().persist(StorageLevel.MEMORY_AND_DISK_SER());
        // The SDK call spans, told to the context each stands in: that context leaves it out.
        JavaPairRDD<String, Told> calls = routed.mapPartitionsToPair(it -> {
            Map<String, List<String>> facts = new HashMap<>();
            it.forEachRemaining(r -> {
                if (r.fact() != null) {
                    facts.computeIfAbsent(r.fact()[0], k -> new ArrayList<>(2)).add(r.fact()[1]);
                }
            });
            List<Tuple2<String, Told>> out = new ArrayList<>();
            facts.forEach((key, of) -> {
                String context = LineReader.callSpan(of);
                if (context != null) {
                    int cut = key.indexOf('\u0000');
                    out.add(new Tuple2<>(key.substring(0, cut + 1) + context, new Told(null, null,
                            key.substring(cut + 1))));
                }
            });
            return out.iterator();
        });
        JavaPairRDD<String, Iterable<Told>> callsByContext = calls.groupByKey(partitioner);
        // Offers by (source, trace/span) and requests (source, parent trace/span) -> context; errors wait for the audit.
        JavaPairRDD<String, Tuple2<String, Offer>> both = routed.zipPartitions(callsByContext, (it, told) -> {
            Map<String, Set<String>> left = leftOut(told);
            ReadLines read = new ReadLines(LineReader.otlp(settings.limits(), kinds.value().logs()), sources.value());
            LineReader linker = LineReader.otlp(settings.limits(), kinds.value().logs());
            List<Tuple2<String, Tuple2<String, Offer>>> out = new ArrayList<>();
            for (Tuple2<String, List<SpanLine>> group : inLineOrder(it)) {
                if (group._1().startsWith(REJECTED)) {
                    continue;
                }
                int source = source(group._1());
                try {
                    for (LinkedOperation l : link(group, read, linker, kinds.value(), left)) {
                        String id = l.operation().id();
                        l.offers().forEach((span, attempt) -> out.add(new Tuple2<>(source + "\u0000" + span,
                                new Tuple2<>(null, new Offer(id, attempt, l.firstOrder())))));
                        if (l.parentKey() != null) {
                            out.add(new Tuple2<>(source + "\u0000" + l.parentKey(), new Tuple2<>(group._1(), null)));
                        }
                    }
                } catch (RetryAuditException e) {
                    // raised again, in its place, when the context is audited
                }
            }
            return out.iterator();
        }).mapToPair(t -> t);
        JavaPairRDD<String, Told> answers = both.groupByKey().flatMapToPair(t -> {
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
            List<Tuple2<String, Told>> out = new ArrayList<>();
            if (best != null) {
                String parentKey = t._1().substring(t._1().indexOf('\u0000') + 1);
                for (String asker : askers) {
                    out.add(new Tuple2<>(asker, new Told(parentKey, best, null)));
                }
            }
            return out.iterator();
        });
        // The answers to a context's requests are in the partition of its key, as its lines are.
        JavaRDD<Item> items = routed.zipPartitions(answers.union(calls).groupByKey(partitioner),
                (it, told) -> auditPartition(it, told, sources.value(), kinds.value(), settings));
        return items.persist(StorageLevel.MEMORY_AND_DISK());
    }

    private static int source(String key) {
        return Integer.parseInt(key.substring(key.startsWith(REJECTED) ? 1 : 0,
                key.indexOf(key.startsWith(REJECTED) ? ':' : '\u0000')));
    }

    /** The SDK call spans each context of a partition leaves out, by context key. */
    private static Map<String, Set<String>> leftOut(Iterator<Tuple2<String, Iterable<Told>>> told) {
        Map<String, Set<String>> out = new HashMap<>();
        told.forEachRemaining(t -> t._2().forEach(c -> {
            if (c.call() != null) {
                out.computeIfAbsent(t._1(), k -> new HashSet<>(2)).add(c.call());
            }
        }));
        return out;
    }

    /**
     * The contexts of a partition's lines, each with its lines in line order, in the order of their
     * first lines: the contexts a line feeds are linked close together, and the line is read once for them.
     */
    private static List<Tuple2<String, List<SpanLine>>> inLineOrder(Iterator<Routed> routed) {
        Map<String, List<SpanLine>> byContext = new HashMap<>();
        routed.forEachRemaining(r -> {
            if (r.line() != null) {
                r.contexts().forEach(c -> byContext.computeIfAbsent(c, k -> new ArrayList<>(2)).add(r.line()));
            }
        });
        List<Tuple2<String, List<SpanLine>>> out = new ArrayList<>(byContext.size());
        byContext.forEach((c, lines) -> {
            lines.sort(Comparator.comparingLong(SpanLine::line));
            out.add(new Tuple2<>(c, lines));
        });
        out.sort(Comparator.comparingInt((Tuple2<String, List<SpanLine>> g) -> g._2().get(0).sourceIndex())
                .thenComparingLong(g -> g._2().get(0).line()).thenComparing(Tuple2::_1));
        return out;
    }

    /** The operations of one context, its lines read by {@code read} (once each for all contexts) and linked by {@code linker}. */
    private static List<LinkedOperation> link(Tuple2<String, List<SpanLine>> group, ReadLines read, LineReader linker,
            OtlpSources kinds, Map<String, Set<String>> leftOut) throws RetryAuditException {
        List<LineReader.Line> lines = new ArrayList<>(group._2().size());
        for (SpanLine l : group._2()) {
            LineReader.Line line = read.get(l);
            if (line != null) {
                lines.add(line);
            }
        }
        String key = group._1();
        return linker.operations(key.substring(key.indexOf('\u0000') + 1), lines,
                kinds.single().contains(group._2().get(0).sourceIndex()), leftOut.getOrDefault(key, Set.of()));
    }

    private static Iterator<Item> auditPartition(Iterator<Routed> routed, Iterator<Tuple2<String, Iterable<Told>>> told,
            List<String> sources, OtlpSources kinds, AuditSettings settings) {
        Map<String, Map<String, Offer>> parents = new HashMap<>();
        Map<String, Set<String>> leftOut = new HashMap<>();
        told.forEachRemaining(t -> t._2().forEach(c -> {
            if (c.call() != null) {
                leftOut.computeIfAbsent(t._1(), k -> new HashSet<>(2)).add(c.call());
            } else {
                parents.computeIfAbsent(t._1(), k -> new HashMap<>()).put(c.parentKey(), c.offer());
            }
        }));
        List<Item> out = new ArrayList<>();
        List<Routed> held = new ArrayList<>();
        routed.forEachRemaining(r -> {
            if (r.notes() != null) {
                r.notes().pieces().forEach(p -> out.add(Item.of(p)));
            } else {
                held.add(r);
            }
        });
        List<Tuple2<String, List<SpanLine>>> ordered = inLineOrder(held.iterator());
        ReadLines read = new ReadLines(LineReader.otlp(settings.limits(), kinds.logs()), sources);
        LineReader linker = LineReader.otlp(settings.limits(), kinds.logs());
        RetryAudit audit = settings.auditor();
        Iterator<Tuple2<String, List<SpanLine>>> contexts = ordered.iterator();
        ArrayDeque<Operation> ops = new ArrayDeque<>();
        Iterable<Operation> operations = () -> new Iterator<>() {
            @Override
            public boolean hasNext() {
                while (ops.isEmpty() && contexts.hasNext()) {
                    Tuple2<String, List<SpanLine>> c = contexts.next();
                    ops.addAll(build(c, parents.getOrDefault(c._1(), Map.of()), read, linker, kinds, leftOut, out));
                }
                return !ops.isEmpty();
            }

            @Override
            public Operation next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return ops.removeFirst();
            }
        };
        AuditPart part = audit.auditPart(operations, linker);
        part.findings().forEach(f -> out.add(Item.of(f)));
        part.pieces().forEach(p -> out.add(Item.of(p)));
        return out.iterator();
    }

    /** The operations of one context with their parents; their facts, or the context's error, go to {@code side}. */
    private static List<Operation> build(Tuple2<String, List<SpanLine>> lines, Map<String, Offer> parents,
            ReadLines read, LineReader linker, OtlpSources kinds, Map<String, Set<String>> leftOut, List<Item> side) {
        int source = source(lines._1());
        if (lines._1().startsWith(REJECTED)) {
            try {
                read.get(lines._2().get(0));
                throw new IllegalStateException("a line rejected once was accepted the second time");
            } catch (RetryAuditException e) {
                side.add(Item.of(InputRejection.reading(source, e)));
                return List.of();
            }
        }
        try {
            List<Operation> ops = new ArrayList<>();
            for (LinkedOperation l : link(lines, read, linker, kinds, leftOut)) {
                Offer parent = l.parentKey() == null ? null : parents.get(l.parentKey());
                Operation op = parent == null ? l.operation() : l.withParent(parent.operation(), parent.attempt());
                side.add(Item.of(new Item.Stat(source, op.location().line(), op.location().column(), l.firstOrder(),
                        op.id(), op.location(), op.attempts().size())));
                ops.add(op);
            }
            return ops;
        } catch (RetryAuditException e) {
            side.add(Item.of(InputRejection.atEnd(source, e.line(), e.column(), e)));
            return List.of();
        }
    }
}
