package dev.retryaudit.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.internal.InputError;
import dev.retryaudit.model.InputNote;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Severity;
import dev.retryaudit.json.Json;
import dev.retryaudit.report.sarif.Sarif;
import dev.retryaudit.rules.RuleInfo;
import dev.retryaudit.rules.engine.RuleDocs;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A SARIF 2.1.0 log for code scanning: one run, every enabled rule with its documentation, one result
 * per finding with its file, line, column and fingerprint. Built as the typed model of {@link Sarif}
 * and serialised by databind (loaded only for this format), never from text templates.
 */
final class SarifReportWriter implements ReportWriter {
    /** GitHub code scanning accepts at most this many results per run. */
    static final int MAX_RESULTS = 25_000;
    static final String INFORMATION_URI = "https://github.com/retry-audit/retry-audit";
    /** The key of our fingerprint in {@code partialFingerprints}; the version changes if the fingerprint's recipe does. */
    static final String FINGERPRINT_KEY = "retryAuditFingerprint/v1";

    private static final Pattern SEMVER = Pattern.compile(
            "(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(-[0-9A-Za-z.-]+)?(\\+[0-9A-Za-z.-]+)?");
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final int maxResults;

    SarifReportWriter() {
        this(MAX_RESULTS);
    }

    /** A writer that cuts the results at {@code maxResults}, so the cut can be tested on a small report. */
    SarifReportWriter(int maxResults) {
        this.maxResults = maxResults;
    }

    @Override
    public void write(Report r, OutputStream out) throws IOException {
        List<Sarif.ReportingDescriptor> rules = r.rules().stream().map(SarifReportWriter::descriptor).toList();
        List<Sarif.Result> results = new ArrayList<>(Math.min(r.findings().size(), maxResults));
        for (Finding f : r.findings()) {
            if (results.size() == maxResults) {
                break;
            }
            results.add(result(r, f));
        }
        List<Sarif.Notification> notes = new ArrayList<>();
        if (r.findings().size() > maxResults) {
            notes.add(new Sarif.Notification("warning", new Sarif.Message("only the first " + maxResults
                    + " of " + r.findings().size() + " results are listed: code scanning accepts at most "
                    + maxResults + " results per run; the JSON report lists them all"), null));
        }
        for (InputNote n : Summaries.notes(r)) {
            notes.add(new Sarif.Notification("note", new Sarif.Message(n.message()),
                    InputSummary.STDIN.equals(n.source()) ? null : List.of(location(n.source(), n.line(), n.column()))));
        }
        if (r.probe() != null) {
            notes.add(new Sarif.Notification("note", new Sarif.Message(Summaries.probeLine(r)), null));
        }
        Sarif.Invocation invocation = new Sarif.Invocation(true, null, notes.isEmpty() ? null : notes);
        serialise(new Sarif.Run(tool(r.toolName(), r.toolVersion(), rules), List.of(invocation), results), out);
    }

    /** A run that did not succeed: no results, the error as a tool execution notification at the input's place. */
    @Override
    public void writeError(InputFailure failure, OutputStream out) throws IOException {
        InputError e = failure.error();
        List<Sarif.Location> where = InputSummary.STDIN.equals(e.source()) ? null
                : List.of(location(e.source(), e.line(), e.column()));
        Sarif.Notification note = new Sarif.Notification("error", new Sarif.Message(e.message()), where);
        Sarif.Invocation invocation = new Sarif.Invocation(false, failure.exitCode(), List.of(note));
        serialise(new Sarif.Run(tool(failure.toolName(), failure.toolVersion(), null), List.of(invocation), List.of()),
                out);
    }

    /** The SARIF level of each severity. */
    static String level(Severity s) {
        return switch (s) {
            case ERROR -> "error";
            case WARNING -> "warning";
            case NOTE -> "note";
        };
    }

    private static void serialise(Sarif.Run run, OutputStream out) throws IOException {
        try (JsonGenerator g = Json.generator(out)) {
            MAPPER.writeValue(g, new Sarif.Log(Sarif.SCHEMA, Sarif.VERSION, List.of(run)));
            g.writeRaw('\n');
        }
    }

    private static Sarif.Tool tool(String name, String version, List<Sarif.ReportingDescriptor> rules) {
        String semantic = SEMVER.matcher(version).matches() ? version : null;
        return new Sarif.Tool(new Sarif.ToolComponent(name, version, semantic, INFORMATION_URI, rules));
    }

    private static Sarif.Result result(Report r, Finding f) {
        int index = r.ruleIndex(f.rule());
        return new Sarif.Result(f.rule(), index, level(f.severity()), new Sarif.Message(f.message()),
                Summaries.inFile(r) ? List.of(location(f.location().source(), f.location().line(), f.location().column()))
                        : List.of(),
                Map.of(FINGERPRINT_KEY, f.fingerprint()));
    }

    private static Sarif.Location location(String source, long line, long column) {
        Sarif.Region region = line > 0 ? new Sarif.Region(line, Math.max(1, column)) : null;
        return new Sarif.Location(new Sarif.PhysicalLocation(new Sarif.ArtifactLocation(uri(source)), region));
    }

    private static Sarif.ReportingDescriptor descriptor(RuleInfo info) {
        String markdown = RuleDocs.markdown(info);
        boolean documented = markdown != null && !markdown.isBlank();
        String full = documented ? firstParagraph(markdown) : info.summary();
        return new Sarif.ReportingDescriptor(info.id(), pascalCase(info.id()),
                new Sarif.MultiformatMessage(info.summary(), null),
                new Sarif.MultiformatMessage(full.isEmpty() ? info.summary() : full, null),
                documented ? new Sarif.MultiformatMessage(markdown, markdown)
                        : new Sarif.MultiformatMessage(info.summary(), null),
                new Sarif.Configuration(level(info.severity())));
    }

    /** The first paragraph of a rule's documentation that is not a heading, joined into one line. */
    static String firstParagraph(String markdown) {
        List<String> lines = new ArrayList<>();
        for (String line : markdown.lines().toList()) {
            String t = line.strip();
            if (t.isEmpty() || t.startsWith("#")) {
                if (!lines.isEmpty()) {
                    break;
                }
                continue;
            }
            lines.add(t);
        }
        return String.join(" ", lines);
    }

    /** {@code timeout-replay/unreconciled} becomes {@code TimeoutReplayUnreconciled}. */
    static String pascalCase(String id) {
        StringBuilder b = new StringBuilder();
        for (String word : id.split("[/-]")) {
            b.append(word.substring(0, 1).toUpperCase(Locale.ROOT)).append(word.substring(1));
        }
        return b.toString();
    }

    /** The source as the user named it, as a relative URI reference: every byte outside the path characters percent-encoded. */
    static String uri(String source) {
        StringBuilder b = new StringBuilder();
        for (byte x : source.getBytes(StandardCharsets.UTF_8)) {
            int c = x & 0xff;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "-._~!$&'()*+,;=@/".indexOf(c) >= 0) {
                b.append((char) c);
            } else {
                b.append('%').append(String.format("%02X", c));
            }
        }
        return b.toString();
    }
}
