package dev.retryaudit.serve;

import dev.retryaudit.model.Finding;
import dev.retryaudit.model.Severity;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The findings of the per-operation rules that {@code serve} handed on as it audited, as much of them as the
 * end of the run needs again. For the report at the end, every one: the findings of each audited part are
 * written together into blocks of bytes as they are handed on ({@link FindingBytes}: a few hundred bytes a
 * finding, against about a kilobyte as objects, and nothing for the collector to trace), and read back once, at
 * the end. For
 * the verdict alone, of the findings the baseline does not hold, the first of each severity, as the exit
 * code depends on no more; the others are not kept. Not thread-safe.
 */
final class HandedFindings {
    /**
     * The most findings a block: blocks of tens of kilobytes, each an ordinary object for the collector, where one
     * of megabytes would take whole regions of G1's heap and start its concurrent cycles.
     */
    private static final int BLOCK = 256;

    private final RunningAudit audit;
    private final boolean whole;
    private final FindingBytes.Writer writer = new FindingBytes.Writer();
    private final List<byte[]> blocks = new ArrayList<>();
    private final Map<Severity, Finding> firstOfSeverity = new EnumMap<>(Severity.class);
    private long bytes;

    /** The findings {@code audit} hands back: every one when {@code whole}, else those a verdict needs. */
    HandedFindings(RunningAudit audit, boolean whole) {
        this.audit = audit;
        this.whole = whole;
    }

    /** Takes the findings of one audited part, as they were handed on. */
    void add(List<Finding> findings) {
        if (findings.isEmpty()) {
            return;
        }
        if (!whole) {
            for (Finding f : audit.unsuppressed(findings)) {
                firstOfSeverity.putIfAbsent(f.severity(), f);
            }
            return;
        }
        for (int from = 0; from < findings.size(); from += BLOCK) {
            byte[] block = writer.block(findings.subList(from, Math.min(findings.size(), from + BLOCK)));
            blocks.add(block);
            bytes += block.length;
        }
    }

    /** The findings kept, in the order they were handed on. */
    List<Finding> kept() {
        if (!whole) {
            return List.copyOf(firstOfSeverity.values());
        }
        List<Finding> all = new ArrayList<>();
        for (byte[] block : blocks) {
            all.addAll(FindingBytes.read(block));
        }
        return all;
    }

    /** The bytes the kept findings take as held (the findings kept for a verdict as objects count none). */
    long bytes() {
        return bytes;
    }

    /** How many findings are held as objects (those kept for a verdict). */
    int objects() {
        return firstOfSeverity.size();
    }
}
