package dev.retryaudit.serve;

import dev.retryaudit.model.Finding;
import dev.retryaudit.model.Severity;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The findings of the per-operation rules that {@code serve} handed on as it audited, as much of them as the
 * end of the run needs again. For the report at the end, every one: the findings of each audited part are
 * written together into blocks of bytes as they are handed on ({@link FindingBytes}: a few hundred bytes a
 * finding, against about a kilobyte as objects), kept in a temporary file ({@link FindingSpill}), so that the
 * heap holds none of them during the run, and read back once, at the end. For the verdict alone, of the findings
 * the baseline does not hold, the first of each severity, as the exit code depends on no more; the others are
 * not kept. Not thread-safe.
 */
final class HandedFindings {
    /**
     * The most findings a block: blocks of tens of kilobytes, each an ordinary object for the collector while it is
     * written and when it is read back, where one of megabytes would take whole regions of G1's heap.
     */
    private static final int BLOCK = 256;

    private final RunningAudit audit;
    /** Where every finding is kept, or null when only a verdict's are. */
    private final FindingSpill spill;
    private final FindingBytes.Writer writer = new FindingBytes.Writer();
    private final Map<Severity, Finding> firstOfSeverity = new EnumMap<>(Severity.class);

    /**
     * The findings {@code audit} hands back: every one, kept in a file of {@code spillDirectory}, or when it is
     * null those a verdict needs.
     */
    HandedFindings(RunningAudit audit, Path spillDirectory) {
        this.audit = audit;
        this.spill = spillDirectory == null ? null : new FindingSpill(spillDirectory);
    }

    /** Takes the findings of one audited part, as they were handed on. */
    void add(List<Finding> findings) {
        if (findings.isEmpty()) {
            return;
        }
        if (spill == null) {
            for (Finding f : audit.unsuppressed(findings)) {
                firstOfSeverity.putIfAbsent(f.severity(), f);
            }
            return;
        }
        for (int from = 0; from < findings.size(); from += BLOCK) {
            spill.add(writer.block(findings.subList(from, Math.min(findings.size(), from + BLOCK))));
        }
    }

    /**
     * The findings kept, in the order they were handed on; once only, when every one is kept.
     *
     * @throws IOException when they could not all be kept, or cannot be read back
     */
    List<Finding> kept() throws IOException {
        if (spill == null) {
            return List.copyOf(firstOfSeverity.values());
        }
        List<Finding> all = new ArrayList<>();
        spill.read(block -> all.addAll(FindingBytes.read(block)));
        return all;
    }

    /** The file every finding is kept in, or null when only a verdict's are. */
    FindingSpill spill() {
        return spill;
    }

    /** The bytes the kept findings take in their file (the findings kept for a verdict as objects count none). */
    long bytes() {
        return spill == null ? 0 : spill.bytes();
    }

    /** How many findings are held as objects (those kept for a verdict). */
    int objects() {
        return firstOfSeverity.size();
    }
}
