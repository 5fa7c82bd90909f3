package dev.retryaudit.spark;

import dev.retryaudit.api.AuditPart;
import dev.retryaudit.api.AuditPieces;
import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.input.foreign.RetryLinker;
import dev.retryaudit.input.foreign.otlp.OtlpLines;
import dev.retryaudit.input.operations.SpanLines;
import dev.retryaudit.model.InputException;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.ParentRef;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.apache.spark.HashPartitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * The distributed audit of numbered OTLP/JSON Lines. Each line is parsed where it is read and sent to
 * every linking context its attempt spans belong to (siblings under one parent span; root spans of one
 * client and thread; one operation id, tool call or idempotency key); {@code groupByKey} brings a
 * context's lines together, where its spans are linked into operations by the library's linker. An
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

    /**
     * Audits {@code lines}, read as {@code kinds} says. The result's items are kept (memory, else disk)
     * for the actions that follow.
     */
    static JavaRDD<Item> items(JavaRDD<SpanLine> lines, Broadcast<List<String>> sources, Broadcast<OtlpSources> kinds,
            AuditSettings settings) {
        JavaPairRDD<String, SpanLine> keyed = lines.mapPartitionsToPair(it -> {
            OtlpLines reader = new OtlpLines(settings.limits(), kinds.value().logs());
            List<Tuple2<String, SpanLine>> out = new ArrayList<>();
            while (it.hasNext()) {
                SpanLine l = it.next();
                try {
                    List<String> contexts = reader.contexts(l.text(sources.value()));
                    if (contexts != null) {
                        for (String c : new LinkedHashSet<>(contexts)) {
                            out.add(new Tuple2<>(l.sourceIndex() + "\u0000" + c, l));
                        }
                    }
                } catch (InputException e) {
                    out.add(new Tuple2<>(REJECTED + l.sourceIndex() + ":" + l.line(), l));
                }
            }
            return out.iterator();
        });
        HashPartitioner partitioner = new HashPartitioner(Math.max(1, lines.getNumPartitions()));
        JavaPairRDD<String, Iterable<SpanLine>> contexts = keyed.groupByKey(partitioner)
                .persist(StorageLevel.MEMORY_AND_DISK_SER());
        // Offers by (source, trace/span) and requests (source, parent trace/span) -> context; errors wait for the audit.
        JavaPairRDD<String, Tuple2<String, Offer>> both = contexts.flatMapToPair(group -> {
            List<Tuple2<String, Tuple2<String, Offer>>> out = new ArrayList<>();
            if (group._1().startsWith(REJECTED)) {
                return out.iterator();
            }
            int source = source(group._1());
            try {
                for (RetryLinker.Linked l : link(group, sources.value(), kinds.value(), settings)) {
                    l.offers().forEach((span, ref) -> out.add(
                            new Tuple2<>(source + "\u0000" + span, new Tuple2<>(null, new Offer(ref, l.firstOrder())))));
                    if (l.parentKey() != null) {
                        out.add(new Tuple2<>(source + "\u0000" + l.parentKey(), new Tuple2<>(group._1(), null)));
                    }
                }
            } catch (InputException e) {
                // raised again, in its place, when the context is audited
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
        JavaRDD<Item> items = contexts.leftOuterJoin(answers.groupByKey(partitioner), partitioner)
                .mapPartitions(groups -> auditPartition(groups, sources.value(), kinds.value(), settings));
        return items.persist(StorageLevel.MEMORY_AND_DISK_SER());
    }

    private static int source(String key) {
        return Integer.parseInt(key.substring(key.startsWith(REJECTED) ? 1 : 0,
                key.indexOf(key.startsWith(REJECTED) ? ':' : '\u0000')));
    }

    private static List<RetryLinker.Linked> link(Tuple2<String, Iterable<SpanLine>> group, List<String> sources,
            OtlpSources kinds, AuditSettings settings) throws InputException {
        List<SpanLine> lines = new ArrayList<>();
        group._2().forEach(lines::add);
        lines.sort(Comparator.comparingLong(SpanLine::line));
        List<SpanLines.Text> texts = new ArrayList<>(lines.size());
        lines.forEach(l -> texts.add(l.text(sources)));
        String key = group._1();
        return new OtlpLines(settings.limits(), kinds.logs()).operations(key.substring(key.indexOf('\u0000') + 1),
                texts, kinds.single().contains(lines.get(0).sourceIndex()));
    }

    private static Iterator<Item> auditPartition(
            Iterator<Tuple2<String, Tuple2<Iterable<SpanLine>, org.apache.spark.api.java.Optional<Iterable<Tuple2<String, Offer>>>>>> groups,
            List<String> sources, OtlpSources kinds, AuditSettings settings) {
        RetryAudit audit = settings.auditor();
        List<Item> out = new ArrayList<>();
        List<Operation> ops = new ArrayList<>();
        Iterable<Operation> operations = () -> new Iterator<>() {
            @Override
            public boolean hasNext() {
                while (ops.isEmpty() && groups.hasNext()) {
                    ops.addAll(build(groups.next(), sources, kinds, settings, out));
                }
                return !ops.isEmpty();
            }

            @Override
            public Operation next() {
                if (!hasNext()) {
                    throw new java.util.NoSuchElementException();
                }
                return ops.remove(0);
            }
        };
        AuditPart part = audit.auditPart(operations);
        AuditPieces.findings(part).forEach(f -> out.add(Item.of(f)));
        AuditPieces.pieces(part).forEach(p -> out.add(Item.of(p)));
        return out.iterator();
    }

    /** The operations of one context with their parents; their facts, or the context's error, go to {@code side}. */
    private static List<Operation> build(
            Tuple2<String, Tuple2<Iterable<SpanLine>, org.apache.spark.api.java.Optional<Iterable<Tuple2<String, Offer>>>>> group,
            List<String> sources, OtlpSources kinds, AuditSettings settings, List<Item> side) {
        Tuple2<String, Iterable<SpanLine>> lines = new Tuple2<>(group._1(), group._2()._1());
        int source = source(group._1());
        if (group._1().startsWith(REJECTED)) {
            SpanLine l = lines._2().iterator().next();
            try {
                new OtlpLines(settings.limits(), kinds.logs()).contexts(l.text(sources));
                throw new IllegalStateException("a line rejected once was accepted the second time");
            } catch (InputException e) {
                side.add(Item.of(Rejection.reading(source, e)));
                return List.of();
            }
        }
        Map<String, ParentRef> parents = new HashMap<>();
        if (group._2()._2().isPresent()) {
            group._2()._2().get().forEach(a -> parents.put(a._1(), a._2().ref()));
        }
        try {
            List<Operation> ops = new ArrayList<>();
            for (RetryLinker.Linked l : link(lines, sources, kinds, settings)) {
                Operation op = l.withParent(l.parentKey() == null ? null : parents.get(l.parentKey()));
                side.add(Item.of(new Item.Stat(source, op.location().line(), op.location().column(), l.firstOrder(),
                        op.id(), op.location(), op.attempts().size())));
                ops.add(op);
            }
            return ops;
        } catch (InputException e) {
            side.add(Item.of(Rejection.atEnd(source, e.line(), e.column(), 0, e)));
            return List.of();
        }
    }
}
