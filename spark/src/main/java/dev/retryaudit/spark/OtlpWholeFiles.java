package dev.retryaudit.spark;

import dev.retryaudit.api.split.AuditPart;
import dev.retryaudit.api.split.LineReader;
import dev.retryaudit.model.Operation;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The OTLP audit of a partition that holds a whole file: every linking context, SDK call span and parent of
 * the file is in it, so it reads the file in one pass as the command line reads it
 * ({@link LineReader#readSource}: its lines parsed on several cores, no object kept per line), links it, gives
 * its operations their parents and audits them there; nothing of it is shuffled but its one piece to merge.
 * The lines Spark read for the partition are not used.
 */
final class OtlpWholeFiles {
    private OtlpWholeFiles() {
    }

    /** The items of the file partition {@code partition} holds whole ({@code whole}). */
    static Iterator<Item> audit(WholeFiles whole, int partition, List<String> sources, OtlpSources kinds,
            AuditSettings settings) {
        LineReader reader = LineReader.otlp(settings.limits(), kinds.logs());
        List<Item> out = new ArrayList<>();
        OperationFacts facts = new OperationFacts();
        List<Operation> ops = new ArrayList<>();
        int source = whole.source(partition);
        try (InputStream in = whole.open(partition)) {
            // An operation's place in the order the reader hands them on is its place in the source's.
            reader.readSource(sources.get(source), source, in, op -> {
                facts.built(source, op, ops.size());
                ops.add(op);
            }).ifPresent(e -> out.add(Item.of(e)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        AuditPart part = settings.split().auditPart(ops, reader);
        out.add(Item.of(facts));
        out.add(Item.of(part.findings()));
        // What is left to merge, as one piece: the merge sends it on by group.
        part.pieces(1).values().forEach(p -> out.add(Item.of(p)));
        return out.iterator();
    }
}
