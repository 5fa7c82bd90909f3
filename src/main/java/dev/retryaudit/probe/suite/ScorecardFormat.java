package dev.retryaudit.probe.suite;

import dev.retryaudit.text.Wire;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * The formats of a scorecard: a text table for people, JSON (its schema is {@code scorecard}), a
 * Markdown table for a pull request or a job summary, SARIF (one result per scenario) and JUnit XML
 * (one test case per scenario), so that CI shows the suite as tests.
 */
public enum ScorecardFormat {
    TEXT,
    JSON,
    MARKDOWN,
    SARIF,
    JUNIT;

    /** The name on the command line. */
    public String id() {
        return Wire.name(this, '-');
    }

    public static ScorecardFormat parse(String id) {
        return Wire.parse(ScorecardFormat.class, id, '-');
    }

    public static List<String> ids() {
        return Wire.names(ScorecardFormat.class, '-');
    }

    /** Writes {@code card} to {@code out} in this format, UTF-8, ending in a newline; the same card gives the same bytes. */
    public void write(Scorecard card, OutputStream out) throws IOException {
        byte[] bytes = switch (this) {
            case TEXT -> ScorecardText.of(card);
            case JSON -> ScorecardJson.of(card);
            case MARKDOWN -> ScorecardMarkdown.of(card);
            case SARIF -> ScorecardSarif.of(card);
            case JUNIT -> ScorecardJunit.of(card);
        };
        out.write(bytes);
        out.flush();
    }
}
