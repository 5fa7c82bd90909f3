package dev.retryaudit.spark;

import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.api.split.InputRejection;
import dev.retryaudit.api.split.LineReader;
import dev.retryaudit.api.split.LinkedOperation;
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
import scala.Tuple2;

/**
 * The OTLP audit of a partition that holds whole files: every linking context, SDK call span and parent
 * of its files is in it, so it reads each line once, links its contexts in the order of their first
 * lines with the same reader, answers its operations' parents from its own offers (the offer the
 * protocol keeps, {@link LinkedOperation#replaces}) and audits them there, as {@link OtlpJob} does after
 * its shuffles; nothing of it is shuffled but its one piece to merge.
 */
final class OtlpWholeFiles {
    private OtlpWholeFiles() {
    }

    /** The items of the whole files whose lines are {@code lines}. */
    static Iterator<Item> audit(Iterator<SpanLine> lines, List<String> sources, OtlpSources kinds,
            AuditSettings settings) {
        LineReader reader = LineReader.otlp(settings.limits(), kinds.logs());
        List<Item> out = new ArrayList<>();
        Map<String, List<LineReader.Line>> byContext = new LinkedHashMap<>();
        Map<String, List<String>> facts = new HashMap<>();
        while (lines.hasNext()) {
            SpanLine l = lines.next();
            LineReader.Line read;
            try {
                read = reader.read(sources.get(l.sourceIndex()), l.sourceIndex(), l.line(), l.bytes());
            } catch (RetryAuditException e) {
                out.add(Item.of(InputRejection.reading(l.sourceIndex(), e)));
                continue;
            }
            if (read == null) {
                continue;
            }
            for (String c : new LinkedHashSet<>(read.contexts())) {
                byContext.computeIfAbsent(l.sourceIndex() + "\u0000" + c, k -> new ArrayList<>(2)).add(read);
            }
            for (String[] f : read.callFacts()) {
                facts.computeIfAbsent(l.sourceIndex() + "\u0000" + f[0], k -> new ArrayList<>(2)).add(f[1]);
            }
        }
        Map<String, Set<String>> leftOut = new HashMap<>();
        facts.forEach((key, of) -> {
            String context = LineReader.callSpan(of);
            if (context != null) {
                int cut = key.indexOf('\u0000');
                leftOut.computeIfAbsent(key.substring(0, cut + 1) + context, k -> new HashSet<>(2))
                        .add(key.substring(cut + 1));
            }
        });
        // In the order of their first lines, as the shuffled contexts are linked.
        List<Map.Entry<String, List<LineReader.Line>>> contexts = new ArrayList<>(byContext.entrySet());
        contexts.sort(Comparator.comparingInt((Map.Entry<String, List<LineReader.Line>> e) -> source(e.getKey()))
                .thenComparingLong(e -> e.getValue().get(0).line()).thenComparing(Map.Entry::getKey));
        List<OtlpJob.Linked> linked = new ArrayList<>(contexts.size() + 1);
        contexts.forEach(e -> linked.add(link(e.getKey(), e.getValue(), reader, kinds, leftOut)));
        linked.add(new OtlpJob.Linked(null, null, null, settings.split().auditPart(List.of(), reader)));
        OtlpJob.auditPartition(linked.iterator(), parents(linked).iterator(), settings).forEachRemaining(out::add);
        return out.iterator();
    }

    /** The operations of context {@code key} (its source and context), or the error that rejects it. */
    private static OtlpJob.Linked link(String key, List<LineReader.Line> lines, LineReader reader,
            OtlpSources kinds, Map<String, Set<String>> leftOut) {
        int cut = key.indexOf('\u0000');
        int source = source(key);
        try {
            List<OtlpJob.Op> ops = new ArrayList<>();
            for (LinkedOperation l : reader.operations(key.substring(cut + 1), lines, kinds.single().contains(source),
                    leftOut.getOrDefault(key, Set.of()))) {
                ops.add(new OtlpJob.Op(l.operation(), l.parentKey(), l.offers(), l.firstOrder()));
            }
            return new OtlpJob.Linked(key, ops, null, null);
        } catch (RetryAuditException e) {
            return new OtlpJob.Linked(key, null, InputRejection.atEnd(source, e.line(), e.column(), e), null);
        }
    }

    private static int source(String key) {
        return Integer.parseInt(key.substring(0, key.indexOf('\u0000')));
    }

    /**
     * What each context of {@code linked} is told of the parents it asks for: for each parent span, the
     * offer the protocol keeps among the offers of all contexts of its source.
     */
    private static List<Tuple2<String, Iterable<OtlpJob.Told>>> parents(List<OtlpJob.Linked> linked) {
        Map<String, OtlpJob.Offer> best = new HashMap<>();
        for (OtlpJob.Linked c : linked) {
            if (c.operations() == null) {
                continue;
            }
            String source = c.context().substring(0, c.context().indexOf('\u0000') + 1);
            for (OtlpJob.Op l : c.operations()) {
                String id = l.operation().id();
                l.offers().forEach((span, attempt) -> best.merge(source + span,
                        new OtlpJob.Offer(id, attempt, l.firstOrder()),
                        (held, offer) -> LinkedOperation.replaces(offer.order(), held.order()) ? offer : held));
            }
        }
        List<Tuple2<String, Iterable<OtlpJob.Told>>> told = new ArrayList<>();
        for (OtlpJob.Linked c : linked) {
            if (c.operations() == null) {
                continue;
            }
            String source = c.context().substring(0, c.context().indexOf('\u0000') + 1);
            List<OtlpJob.Told> its = new ArrayList<>();
            for (OtlpJob.Op l : c.operations()) {
                OtlpJob.Offer offer = l.parentKey() == null ? null : best.get(source + l.parentKey());
                if (offer != null) {
                    its.add(new OtlpJob.Told(l.parentKey(), offer, null));
                }
            }
            if (!its.isEmpty()) {
                told.add(new Tuple2<>(c.context(), its));
            }
        }
        return told;
    }
}
