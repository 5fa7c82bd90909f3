package dev.retryaudit.config;

import dev.retryaudit.model.Finding;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/** The findings a team has accepted ({@code --baseline}): the fingerprints of a previous report, by that report's name. */
public record Baseline(String source, Set<String> fingerprints) implements Serializable {
    public Baseline {
        Objects.requireNonNull(source, "source");
        fingerprints = Set.copyOf(fingerprints);
    }

    /** The findings that the baseline does not hold, in their order. */
    public List<Finding> unsuppressed(List<Finding> findings) {
        List<Finding> kept = new ArrayList<>(findings.size());
        for (Finding f : findings) {
            if (!fingerprints.contains(f.fingerprint())) {
                kept.add(f);
            }
        }
        return kept;
    }
}
