package dev.retryaudit.serve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.Limits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When the receiver audits a linking context: once idle for the idle time plus the longest Retry-After seen in it. */
class ReceiverTest {
    private static final long SECOND = 1_000_000_000L;

    /** Where a run with a report keeps its findings. */
    @TempDir
    Path spill;

    @Test
    void aContextWaitsForItsLongestRetryAfterBeyondTheIdleTime() throws Exception {
        AtomicLong now = new AtomicLong();
        List<Finding> findings = new ArrayList<>();
        Metrics metrics = new Metrics(1_000_000);
        Receiver r = new Receiver(RetryAudit.defaults(), Limits.DEFAULTS, SECOND, 1_000_000, now::get, findings::addAll,
                metrics, spill);
        byte[] export = Files.readAllBytes(Path.of("src/test/resources/input/otlp/agent-checkout.json"));
        assertThat(r.otlp(export, null, 11).rejected()).isZero();
        long held = r.heldSpans();
        assertThat(held).isEqualTo(9);

        now.set(SECOND / 2);
        r.sweep();
        assertThat(r.heldSpans()).isEqualTo(held);
        assertThat(findings).isEmpty();

        // Past the idle time: what shares no trace with the context whose 503 asked for Retry-After: 2 is audited.
        now.set(SECOND + SECOND / 2);
        r.sweep();
        assertThat(r.heldSpans()).isBetween(1L, held - 1);
        assertThat(findings).extracting(Finding::rule).doesNotContain("retry-after/early");

        now.set(3 * SECOND + SECOND / 2);
        r.sweep();
        assertThat(r.heldSpans()).isZero();
        assertThat(findings).extracting(Finding::rule)
                .containsExactlyInAnyOrder("timeout-replay/unreconciled", "retry-after/early");
        assertThat(r.finish().findings()).hasSize(2);
        assertThat(metrics.text()).contains("retry_audit_operations_audited_total 5",
                "retry_audit_findings_total{rule=\"retry-after/early\",severity=\"error\"} 1");
    }

    @Test
    void zipkinBodiesAreHeldByContextAndEachAuditedWhenItCloses() throws Exception {
        AtomicLong now = new AtomicLong();
        List<Finding> findings = new ArrayList<>();
        Receiver r = new Receiver(RetryAudit.defaults(), Limits.DEFAULTS, SECOND, 1_000_000, now::get, findings::addAll,
                new Metrics(1_000_000), spill);
        byte[] early = Files.readAllBytes(Path.of("src/test/resources/input/zipkin/retry-429-early.json"));
        // The same calls honouring the Retry-After: 2, in a trace of their own.
        byte[] honoured = Files.readString(Path.of("src/test/resources/input/zipkin/retry-429-honoured.json"))
                .replace("7d1c4e9a2b3f4a5c", "00000000000000aa").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertThat(r.zipkin(early).accepted()).isEqualTo(4);
        now.set(SECOND + SECOND / 2);
        assertThat(r.zipkin(honoured).accepted()).isEqualTo(4);
        long both = r.heldSpans();

        // The first body's contexts closed (idle plus their Retry-After: 2) while the second's are still open.
        now.set(3 * SECOND + SECOND / 5);
        r.sweep();
        assertThat(findings).extracting(Finding::rule).containsExactly("retry-after/early");
        assertThat(r.heldSpans()).isBetween(1L, both - 1);

        now.set(5 * SECOND);
        r.sweep();
        assertThat(r.heldSpans()).isZero();
        dev.retryaudit.api.AuditResult got = r.finish();
        assertThat(got.findings()).extracting(Finding::rule).containsExactly("retry-after/early");
        assertThat(got.inputs()).extracting(dev.retryaudit.model.InputSummary::source)
                .containsExactly(Receiver.OTLP_SOURCE, Receiver.ZIPKIN_SOURCE);
    }

    @Test
    void aZipkinBodyThatIsNoArrayOfSpansIsRefusedWhole() throws Exception {
        Receiver r = new Receiver(RetryAudit.defaults(), Limits.DEFAULTS, SECOND, 1_000_000, () -> 0L, f -> { },
                new Metrics(1_000_000), spill);
        for (String body : List.of("{}", "[{\"traceId\":5}]", "[] []", "[")) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> r.zipkin(body.getBytes(
                    java.nio.charset.StandardCharsets.UTF_8))).isInstanceOf(Receiver.BadExportException.class)
                    .hasMessageStartingWith(Receiver.ZIPKIN_SOURCE + ":1:1: error:");
        }
        assertThat(r.heldSpans()).isZero();
    }

    /**
     * One second of one client: an export of {@code ops} operations spread evenly over the second, each a 503
     * asking for 1 s and a resend 200 ms later, from {@code first}. The operations overlap one another without a
     * break, as a busy client's do.
     */
    static byte[] busyExport(long epochNanos, int first, int ops) {
        StringBuilder spans = new StringBuilder();
        for (int i = 0; i < ops; i++) {
            int op = first + i;
            long start = epochNanos + i * (SECOND / ops);
            String trace = String.format("%032x", op + 1);
            String url = "{\"key\":\"url.full\",\"value\":{\"stringValue\":\"https://api.example/items/" + op + "\"}}";
            String get = "{\"key\":\"http.request.method\",\"value\":{\"stringValue\":\"GET\"}}";
            if (i > 0) {
                spans.append(',');
            }
            spans.append("{\"traceId\":\"").append(trace).append("\",\"spanId\":\"").append(String.format("%016x", 2L * op + 1))
                    .append("\",\"name\":\"GET\",\"kind\":3,\"startTimeUnixNano\":\"").append(start)
                    .append("\",\"endTimeUnixNano\":\"").append(start + 10_000_000L).append("\",\"attributes\":[").append(get)
                    .append(',').append(url).append(",{\"key\":\"http.response.status_code\",\"value\":{\"intValue\":503}},"
                            + "{\"key\":\"http.response.header.retry-after\",\"value\":{\"arrayValue\":{\"values\":"
                            + "[{\"stringValue\":\"1\"}]}}}]},");
            spans.append("{\"traceId\":\"").append(trace).append("\",\"spanId\":\"").append(String.format("%016x", 2L * op + 2))
                    .append("\",\"name\":\"GET\",\"kind\":3,\"startTimeUnixNano\":\"").append(start + 200_000_000L)
                    .append("\",\"endTimeUnixNano\":\"").append(start + 210_000_000L).append("\",\"attributes\":[").append(get)
                    .append(',').append(url).append(",{\"key\":\"http.request.resend_count\",\"value\":{\"intValue\":1}},"
                            + "{\"key\":\"http.response.status_code\",\"value\":{\"intValue\":200}}]}");
        }
        return ("{\"resourceSpans\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":"
                + "{\"stringValue\":\"busy\"}}]},\"scopeSpans\":[{\"spans\":[" + spans + "]}]}]}")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void aBusyClientsContextIsAuditedInWindowsWhileItsTrafficGoesOn() throws Exception {
        AtomicLong now = new AtomicLong();
        List<Finding> findings = new ArrayList<>();
        Metrics metrics = new Metrics(1_000_000);
        Receiver r = new Receiver(RetryAudit.defaults(), Limits.DEFAULTS, 5 * SECOND, 1_000_000, now::get, findings::addAll,
                metrics, spill);
        long epoch = 1_788_789_720L * SECOND;
        int perSecond = 10;
        long maxHeld = 0;
        int findingsAtTwoMinutes = -1;
        // Ten minutes of one client at ten operations a second, never quiet for the idle time.
        for (int second = 0; second < 600; second++) {
            now.set(second * SECOND);
            assertThat(r.otlp(busyExport(epoch + second * SECOND, second * perSecond, perSecond), null, 2L * perSecond)
                    .rejected()).isZero();
            r.sweep();
            maxHeld = Math.max(maxHeld, r.heldSpans());
            if (second == 120) {
                findingsAtTwoMinutes = findings.size();
            }
        }
        assertThat(findingsAtTwoMinutes).as("findings while the traffic goes on").isGreaterThan(500);
        // Windows of about twice the idle time and the Retry-After: 12 s of 20 spans a second, not 12,000 spans.
        assertThat(maxHeld).isLessThan(1_000);
        r.finish();
        // Every operation audited once and whole: one retry-after/early each, none cut in two.
        assertThat(findings).hasSize(600 * perSecond).extracting(Finding::rule).containsOnly("retry-after/early");
    }

    @Test
    void aRunWithoutAReportKeepsNoFindingItHandedOnBeyondWhatItsVerdictNeeds() throws Exception {
        AtomicLong now = new AtomicLong();
        List<Finding> findings = new ArrayList<>();
        // The parent offers are kept for as many spans as may be held, and 1,024 at least.
        Receiver r = new Receiver(RetryAudit.defaults(), Limits.DEFAULTS, 5 * SECOND, 1_000, now::get,
                findings::addAll, new Metrics(1_000), null);
        Receiver.Retained[] atOneMinute = new Receiver.Retained[1];
        busyClient(r, now, 300, second -> {
            if (second == 60) {
                atOneMinute[0] = r.retained();
            }
        });
        assertThat(findings).hasSizeGreaterThan(2_500);
        // No byte serialized and one finding held, the first error, and the offers of the latest 1,024 spans,
        // after one minute as after five.
        assertThat(atOneMinute[0]).isEqualTo(new Receiver.Retained(0, 1, 1_024));
        assertThat(r.retained()).isEqualTo(new Receiver.Retained(0, 1, 1_024));
        dev.retryaudit.api.AuditResult result = r.finish();
        assertThat(findings).hasSize(3_000);
        assertThat(result.findings()).singleElement().isSameAs(findings.get(0));
        assertThat(RetryAudit.defaults().passed(result)).isFalse();
    }

    @Test
    void aRunWithAReportKeepsTheFindingsItHandedOnAsBytesAndGivesThemAllBackInOrder() throws Exception {
        AtomicLong now = new AtomicLong();
        List<Finding> findings = new ArrayList<>();
        Receiver r = new Receiver(RetryAudit.defaults(), Limits.DEFAULTS, 5 * SECOND, 1_000_000, now::get,
                findings::addAll, new Metrics(1_000_000), spill);
        busyClient(r, now, 60, second -> { });
        Receiver.Retained held = r.retained();
        assertThat(held.findingObjects()).isZero();
        assertThat(held.findingBytes()).isPositive();
        // On disk, in one file (all but a buffer of 64 KiB written through), while the run lasts; gone once read back.
        try (java.util.stream.Stream<Path> files = Files.list(spill)) {
            assertThat(files.toList()).singleElement().satisfies(f -> assertThat(Files.size(f))
                    .isBetween(held.findingBytes() - (1 << 16), held.findingBytes()));
        }
        List<Finding> all = r.finish().findings();
        try (java.util.stream.Stream<Path> files = Files.list(spill)) {
            assertThat(files.toList()).isEmpty();
        }
        List<Finding> sorted = new ArrayList<>(findings);
        sorted.sort(dev.retryaudit.rules.engine.FindingOrder.ORDER);
        // Equal findings, read back from their bytes: the same lines in the same order.
        assertThat(all).hasSize(600).isEqualTo(sorted);
        assertThat(all).extracting(dev.retryaudit.report.JsonParts::line)
                .containsExactlyElementsOf(sorted.stream().map(dev.retryaudit.report.JsonParts::line).toList());
    }

    /**
     * Posts {@code seconds} of one client at ten operations a second into {@code r}, whose clock is {@code now},
     * sweeping after each second, then calls {@code after} with the second.
     */
    private static void busyClient(Receiver r, AtomicLong now, int seconds, java.util.function.IntConsumer after)
            throws Exception {
        long epoch = 1_788_789_720L * SECOND;
        for (int second = 0; second < seconds; second++) {
            now.set(second * SECOND);
            r.otlp(busyExport(epoch + second * SECOND, second * 10, 10), null, 20);
            r.sweep();
            after.accept(second);
        }
    }

    @Test
    void theNotesOfTheSpansABusyContextsWindowsLetGoAreMadeOnceEach() throws Exception {
        AtomicLong now = new AtomicLong();
        Receiver r = new Receiver(RetryAudit.defaults(), Limits.DEFAULTS, 5 * SECOND, 1_000_000, now::get, f -> { },
                new Metrics(1_000_000), spill);
        long epoch = 1_788_789_720L * SECOND;
        int perSecond = 10;
        int seconds = 120;
        for (int second = 0; second < seconds; second++) {
            now.set(second * SECOND);
            // The exporter captured no response header: each 503 sent again is counted in a note.
            byte[] export = new String(busyExport(epoch + second * SECOND, second * perSecond, perSecond),
                    java.nio.charset.StandardCharsets.UTF_8).replace("http.response.header.retry-after", "retry.hint")
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8);
            r.otlp(export, null, 2L * perSecond);
            r.sweep();
        }
        long counted = 0;
        int notes = 0;
        for (dev.retryaudit.model.InputNote n : r.finish().inputs().get(0).notes()) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("^(\\d+) HTTP spans? answered 429 or 503 and sent again")
                    .matcher(n.message());
            if (m.find()) {
                counted += Long.parseLong(m.group(1));
                notes++;
            }
        }
        // One note a window and one at the end, which together count every operation's 503 once.
        assertThat(notes).isGreaterThan(1);
        assertThat(counted).isEqualTo((long) seconds * perSecond);
    }

    @Test
    void aHugeRetryAfterHoldsItsContextNoLongerThanTheCap() throws Exception {
        AtomicLong now = new AtomicLong();
        List<Finding> findings = new ArrayList<>();
        Receiver r = new Receiver(RetryAudit.defaults(), Limits.DEFAULTS, SECOND, 1_000_000, now::get, findings::addAll,
                new Metrics(1_000_000), spill);
        String export = new String(busyExport(1_788_789_720L * SECOND, 0, 1), java.nio.charset.StandardCharsets.UTF_8)
                .replace("[{\"stringValue\":\"1\"}]", "[{\"stringValue\":\"99999999\"}]");
        r.otlp(export.getBytes(java.nio.charset.StandardCharsets.UTF_8), null, 2);
        now.set((Receiver.RETRY_AFTER_CAP_SECONDS - 1) * SECOND);
        r.sweep();
        assertThat(r.heldSpans()).isEqualTo(2);
        now.set((Receiver.RETRY_AFTER_CAP_SECONDS + 2) * SECOND);
        r.sweep();
        assertThat(r.heldSpans()).isZero();
    }

    /** An exporter that sends a batch again: its copies are read once, with a note, as {@code audit} reads a file of both. */
    @Test
    void anExportSentAgainIsAuditedOnceWithANote() throws Exception {
        AtomicLong now = new AtomicLong();
        List<Finding> findings = new ArrayList<>();
        Receiver r = new Receiver(RetryAudit.defaults(), Limits.DEFAULTS, SECOND, 1_000_000, now::get, findings::addAll,
                new Metrics(1_000_000), spill);
        byte[] export = Files.readAllBytes(Path.of("src/test/resources/input/otlp/agent-checkout.json"));
        r.otlp(export, null, 11);
        r.otlp(export, null, 11);
        assertThat(r.heldSpans()).isEqualTo(18);
        dev.retryaudit.api.AuditResult result = r.finish();
        assertThat(result.findings()).extracting(Finding::rule)
                .containsExactlyInAnyOrder("timeout-replay/unreconciled", "retry-after/early");
        assertThat(result.inputs().get(0).operations()).isEqualTo(5);
        assertThat(result.inputs().get(0).notes()).extracting(dev.retryaudit.model.InputNote::message)
                .anyMatch(m -> m.startsWith("9 attempt spans stand again with the same trace id, span id and content"));
    }

    /**
     * Root per-attempt call spans of one client request id, each attempt a trace of its own, sent in two
     * exports: held together by their client's context while either is open, they are joined into one
     * operation as {@code audit} joins them in one file.
     */
    @Test
    void rootCallSpansOfOneRequestInTwoTracesAreJoinedAsAuditJoinsThem() throws Exception {
        Path file = Path.of("src/test/resources/real/recorded/azure-core-js/post-reset-keyless-root.json");
        List<Finding> expected = RetryAudit.defaults().audit(dev.retryaudit.api.AuditInput.stream(
                Files.newInputStream(file), Receiver.OTLP_SOURCE)).findings();
        assertThat(expected).extracting(Finding::rule).containsExactly("timeout-replay/keyless");
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        com.fasterxml.jackson.databind.JsonNode doc = json.readTree(file.toFile());
        java.util.Map<String, List<com.fasterxml.jackson.databind.JsonNode>> byTrace = new java.util.LinkedHashMap<>();
        doc.path("resourceSpans").forEach(rs -> rs.path("scopeSpans").forEach(ss -> ss.path("spans").forEach(span ->
                byTrace.computeIfAbsent(span.get("traceId").asText(), t -> new ArrayList<>()).add(span))));
        assertThat(byTrace).hasSize(2);

        AtomicLong now = new AtomicLong();
        List<Finding> findings = new ArrayList<>();
        Receiver r = new Receiver(RetryAudit.defaults(), Limits.DEFAULTS, SECOND, 1_000_000, now::get, findings::addAll,
                new Metrics(1_000_000), spill);
        for (List<com.fasterxml.jackson.databind.JsonNode> spans : byTrace.values()) {
            com.fasterxml.jackson.databind.node.ObjectNode export = json.createObjectNode();
            com.fasterxml.jackson.databind.node.ObjectNode rs = export.putArray("resourceSpans").addObject();
            rs.set("resource", doc.path("resourceSpans").get(0).get("resource"));
            com.fasterxml.jackson.databind.node.ArrayNode scopes = rs.putArray("scopeSpans");
            scopes.addObject().putArray("spans").addAll(spans);
            assertThat(r.otlp(json.writeValueAsBytes(export), null, spans.size()).rejected()).isZero();
            now.addAndGet(SECOND * 8 / 10);
            r.sweep();
        }
        now.addAndGet(5 * SECOND);
        r.sweep();
        assertThat(r.heldSpans()).isZero();
        assertThat(findings).extracting(Finding::fingerprint)
                .containsExactlyElementsOf(expected.stream().map(Finding::fingerprint).toList());
    }
}
