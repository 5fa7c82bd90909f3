package dev.retryaudit.config;

import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.input.InputSet;
import dev.retryaudit.json.JsonCursor;
import dev.retryaudit.input.reader.Drafts;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Severity;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads a previous JSON report for {@code --baseline}, strictly like our other formats,
 * and keeps only its findings' fingerprints. A missing file is unreadable (exit 66); anything that
 * is not a report this tool wrote is rejected (exit 65) with its place and JSON path.
 */
public final class BaselineReader {
    private static final List<String> TOP_FIELDS = List.of("version", "tool", "inputs", "summary", "findings",
            "baseline");
    private static final List<String> FINDING_FIELDS = List.of("rule", "severity", "operation", "attempt", "tool",
            "run", "message", "evidence", "location", "fingerprint");
    private static final Pattern FINGERPRINT = Pattern.compile("sha256:[0-9a-f]{64}");

    private BaselineReader() {
    }

    /** Reads the report at {@code file} (a path as the user gave it) under the limits. */
    public static Baseline read(String file, Limits limits) throws InputException {
        return StrictDocument.read(InputSet.Source.of(file), limits, doc -> new Baseline(file, fingerprints(doc)));
    }

    private static Set<String> fingerprints(StrictDocument doc) throws IOException, InputException {
        JsonCursor c = doc.cursor();
        Top top = new Top();
        doc.object("empty file: expected a JSON report of retry-audit (--format json)",
                "a JSON report of retry-audit (--format json)", name -> {
                    switch (name) {
                        case "version" -> {
                            doc.version(false, "report version");
                            top.version = true;
                        }
                        case "tool", "summary", "baseline" -> skipObject(c, name);
                        case "inputs" -> {
                            c.expectArray("the inputs");
                            c.skip();
                        }
                        case "findings" -> top.fingerprints = findings(c);
                        case "error" -> throw c.error("this is the error report of an audit that did not run: "
                                + "it holds no findings to accept");
                        default -> throw c.unknownField(name, TOP_FIELDS);
                    }
                });
        if (!top.version || top.fingerprints == null) {
            throw Drafts.missing(doc.start(), top.version ? "findings" : "version");
        }
        return top.fingerprints;
    }

    /** What the report's top level gave: whether its version, and its findings' fingerprints. */
    private static final class Top {
        boolean version;
        Set<String> fingerprints;
    }

    private static Set<String> findings(JsonCursor c) throws IOException, InputException {
        c.expectArray("the findings");
        Set<String> fingerprints = new HashSet<>();
        while (c.next() != JsonToken.END_ARRAY) {
            c.expectObject("a finding");
            Location at = new Location(c.source(), 0, c.line(), c.column(), "/findings/" + (c.parser().getParsingContext().getParent().getCurrentIndex()));
            String fingerprint = null;
            boolean rule = false;
            while (c.next() == JsonToken.FIELD_NAME) {
                String name = c.parser().currentName();
                c.value();
                switch (name) {
                    case "fingerprint" -> {
                        fingerprint = c.string();
                        if (!FINGERPRINT.matcher(fingerprint).matches()) {
                            throw c.error("expected a fingerprint of the form sha256:<64 lower-case hex digits>");
                        }
                    }
                    case "rule" -> {
                        c.string();
                        rule = true;
                    }
                    case "severity" -> {
                        if (c.optEnum(Severity.class) == null) {
                            throw c.error("must not be null");
                        }
                    }
                    case "attempt" -> c.optInt(1, Integer.MAX_VALUE);
                    case "operation", "tool", "run", "message" -> c.optString();
                    case "evidence", "location" -> skipObject(c, name);
                    default -> throw c.unknownField(name, FINDING_FIELDS);
                }
            }
            if (fingerprint == null || !rule) {
                throw Drafts.missing(at, fingerprint == null ? "fingerprint" : "rule");
            }
            fingerprints.add(fingerprint);
        }
        return fingerprints;
    }

    private static void skipObject(JsonCursor c, String what) throws IOException, InputException {
        c.expectObject("the " + what);
        c.skip();
    }

}
