package dev.retryaudit.spark;

import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.api.split.AuditPart;
import dev.retryaudit.api.split.InputRejection;
import dev.retryaudit.api.split.LineReader;
import dev.retryaudit.api.split.LinkedOperation;
import dev.retryaudit.model.Operation;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * idempotency key; the sends of an SDK call span); there a task links its contexts in the order of their
 * first lines, each line read once for the contexts it feeds, into operations by the library's linker.
 * Which HTTP requests are SDK call spans (linked with their sends, not in their own context) is decided
 * first, from facts about each request brought together by span. Each context is linked once and its
 * operations kept; an operation's parent is another context's attempt: each context offers its attempts
 * by span and asks for its operations' parent spans, a join answers with the offer the protocol keeps
 * ({@link LinkedOperation#replaces}), and the kept operations are given their parents and audited, one
 * auditor per partition, as {@link AuditJob} audits spans. The notes of
 * reading each line leave the task that routed it; those of linking, the task that linked the context.
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

    /** One operation of a context as linked, before its parent is known (as {@link LinkedOperation} gives it). */
    record Op(Operation operation, String parentKey, Map<String, Integer> offers, long firstOrder)
            implements Serializable {
    }

    /**
     * What the linking keeps of a partition: a context (its key) with its operations, or the error that
     * rejects it; or the notes of reading or of linking the partition's lines.
     */
    record Linked(String context, List<Op> operations, InputRejection error, AuditPart notes)
            implements Serializable {
    }

    /** What a context is told: the answer to a parent it asked for, or an SDK call span it must leave out. */
    record Told(String parentKey, Offer offer, String call) implements Serializable {
    }

    /**
     * Audits {@code lines}, read as {@code kinds} says: a partition in {@code whole} holds a whole file and
     * is audited where it is, from the file ({@link OtlpWholeFiles}); the lines of the others are routed to
     * their contexts.
     * The result's items are kept (memory, else disk) for the actions that follow; the routed lines and the
     * linked contexts they are made from are kept too, and added to {@code kept}, to be let go once the
     * items are.
     */
    static JavaRDD<Item> items(JavaRDD<SpanLine> lines, WholeFiles whole, Broadcast<List<String>> sources,
            Broadcast<OtlpSources> kinds, AuditSettings settings, List<JavaRDD<?>> kept) {
        // A partition of a whole file reads, links and audits it where it is, from the file itself.
        JavaRDD<Item> local = lines.mapPartitionsWithIndex((p, it) -> whole.holds(p)
                ? OtlpWholeFiles.audit(whole, p, sources.value(), kinds.value(), settings)
                : List.<Item>of().iterator(), true);
        Set<Integer> partitions = whole.partitions();
        if (partitions.size() == lines.getNumPartitions()) {
            return local.persist(StorageLevel.MEMORY_AND_DISK());
        }
        return local.union(routed(lines, partitions, sources, kinds, settings, kept))
                .persist(StorageLevel.MEMORY_AND_DISK());
    }

    /** The items of the partitions of {@code lines} not in {@code whole}, through the shuffles of their contexts. */
    private static JavaRDD<Item> routed(JavaRDD<SpanLine> lines, Set<Integer> whole, Broadcast<List<String>> sources,
            Broadcast<OtlpSources> kinds, AuditSettings settings, List<JavaRDD<?>> kept) {
        HashPartitioner partitioner = new HashPartitioner(
                Math.max(lines.getNumPartitions(), lines.context().defaultParallelism()));
        // A line goes once to each partition that links one of its contexts (a context's partition is its
        // key's), not once to each context: a line of an export feeds as many contexts as it has operations.
        JavaRDD<Routed> routed = lines.mapPartitionsWithIndex((index, it) -> {
            if (whole.contains(index)) {
                return List.<Tuple2<Integer, Routed>>of().iterator();
            }
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
            AuditPart notes = settings.split().auditPart(List.of(), reader);
            out.add(new Tuple2<>(index % partitioner.numPartitions(), new Routed(null, null, null, notes)));
            return out.iterator();
        }, true).mapToPair(t -> t).partitionBy(partitioner).values().persist(StorageLevel.MEMORY_AND_DISK_SER());
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
        // Each context linked once, before its parents are known; kept for the audit, which gives them their parents.
        JavaRDD<Linked> linked = routed.zipPartitions(callsByContext,
                (it, told) -> linkPartition(it, leftOut(told), sources.value(), kinds.value(), settings))
                .persist(StorageLevel.MEMORY_AND_DISK());
        kept.add(routed);
        kept.add(linked);
        // Offers by (source, trace/span) and requests (source, parent trace/span) -> context.
        JavaPairRDD<String, Tuple2<String, Offer>> both = linked.flatMapToPair(c -> {
            List<Tuple2<String, Tuple2<String, Offer>>> out = new ArrayList<>();
            if (c.operations() != null) {
                int source = source(c.context());
                for (Op l : c.operations()) {
                    String id = l.operation().id();
                    l.offers().forEach((span, attempt) -> out.add(new Tuple2<>(source + "\u0000" + span,
                            new Tuple2<>(null, new Offer(id, attempt, l.firstOrder())))));
                    if (l.parentKey() != null) {
                        out.add(new Tuple2<>(source + "\u0000" + l.parentKey(), new Tuple2<>(c.context(), null)));
                    }
                }
            }
            return out.iterator();
        });
        JavaPairRDD<String, Told> answers = both.groupByKey().flatMapToPair(t -> {
            Offer best = null;
            List<String> askers = new ArrayList<>();
            for (Tuple2<String, Offer> v : t._2()) {
                if (v._2() != null && (best == null || LinkedOperation.replaces(v._2().order(), best.order()))) {
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
        // The answers to a context's requests are in the partition of its key, as its linked operations are.
        return linked.zipPartitions(answers.groupByKey(partitioner), (it, told) -> auditPartition(it, told, settings));
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

    /**
     * The contexts of a partition's routed lines, each linked once in the order of their first lines
     * (each line read once for the contexts it feeds), or the error that rejects it; then the notes of
     * reading the lines and of linking them.
     */
    private static Iterator<Linked> linkPartition(Iterator<Routed> routed, Map<String, Set<String>> leftOut,
            List<String> sources, OtlpSources kinds, AuditSettings settings) {
        List<Linked> out = new ArrayList<>();
        List<Routed> held = new ArrayList<>();
        routed.forEachRemaining(r -> {
            if (r.notes() != null) {
                out.add(new Linked(null, null, null, r.notes()));
            } else {
                held.add(r);
            }
        });
        ReadLines read = new ReadLines(LineReader.otlp(settings.limits(), kinds.logs()), sources);
        LineReader linker = LineReader.otlp(settings.limits(), kinds.logs());
        for (Tuple2<String, List<SpanLine>> c : inLineOrder(held.iterator())) {
            out.add(linkContext(c, read, linker, kinds, leftOut));
        }
        out.add(new Linked(null, null, null, settings.split().auditPart(List.of(), linker)));
        return out.iterator();
    }

    /** The operations of one context as linked, before their parents are known, or the error that rejects the context. */
    private static Linked linkContext(Tuple2<String, List<SpanLine>> lines, ReadLines read, LineReader linker,
            OtlpSources kinds, Map<String, Set<String>> leftOut) {
        int source = source(lines._1());
        if (lines._1().startsWith(REJECTED)) {
            try {
                read.get(lines._2().get(0));
                throw new IllegalStateException("a line rejected once was accepted the second time");
            } catch (RetryAuditException e) {
                return new Linked(lines._1(), null, InputRejection.reading(source, e), null);
            }
        }
        try {
            List<Op> ops = new ArrayList<>();
            for (LinkedOperation l : link(lines, read, linker, kinds, leftOut)) {
                ops.add(new Op(l.operation(), l.parentKey(), l.offers(), l.firstOrder()));
            }
            return new Linked(lines._1(), ops, null, null);
        } catch (RetryAuditException e) {
            return new Linked(lines._1(), null, InputRejection.atEnd(source, e.line(), e.column(), e), null);
        }
    }

    /**
     * A partition's linked contexts audited, in the order they were linked, each operation given the
     * parent its context was told; with the facts of each operation, the contexts' errors and the notes.
     */
    private static Iterator<Item> auditPartition(Iterator<Linked> linked, Iterator<Tuple2<String, Iterable<Told>>> told,
            AuditSettings settings) {
        Map<String, Map<String, Offer>> parents = new HashMap<>();
        told.forEachRemaining(t -> t._2().forEach(c -> parents.computeIfAbsent(t._1(), k -> new HashMap<>())
                .put(c.parentKey(), c.offer())));
        List<Item> out = new ArrayList<>();
        OperationFacts facts = new OperationFacts();
        List<AuditPart> pieces = new ArrayList<>();
        List<Operation> ops = new ArrayList<>();
        linked.forEachRemaining(c -> {
            if (c.notes() != null) {
                pieces.add(c.notes());
            } else if (c.error() != null) {
                out.add(Item.of(c.error()));
            } else {
                int source = source(c.context());
                Map<String, Offer> asked = parents.getOrDefault(c.context(), Map.of());
                for (Op l : c.operations()) {
                    Offer parent = l.parentKey() == null ? null : asked.get(l.parentKey());
                    Operation op = parent == null ? l.operation()
                            : LineReader.withParent(l.operation(), parent.operation(), parent.attempt());
                    facts.built(source, op, l.firstOrder());
                    ops.add(op);
                }
            }
        });
        AuditPart part = settings.split().auditPart(ops);
        out.add(Item.of(facts));
        out.add(Item.of(part.findings()));
        pieces.add(part);
        // What is left to merge, as one piece: the merge sends it on by group.
        settings.split().combine(pieces).pieces(1).values().forEach(p -> out.add(Item.of(p)));
        return out.iterator();
    }
}
