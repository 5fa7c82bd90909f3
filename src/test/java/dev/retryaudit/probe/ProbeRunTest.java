package dev.retryaudit.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.input.InputSet;
import dev.retryaudit.model.CommitState;
import dev.retryaudit.model.FailOn;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Policy;
import dev.retryaudit.report.Report;
import dev.retryaudit.rules.engine.Engine;
import dev.retryaudit.rules.engine.RuleSelection;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A probe run's operations are built from its trace, with no JSON in between, yet equal what reading the written trace gives. */
class ProbeRunTest {
    private static final String HASH = "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    private static final long START = 1_788_775_800_000L;

    static Stream<RecordedTrace> traces() {
        return IntStream.range(0, 60).mapToObj(ProbeRunTest::randomTrace);
    }

    @ParameterizedTest
    @MethodSource("traces")
    void theOperationsAreThoseReadFromTheWrittenTrace(RecordedTrace trace) throws Exception {
        for (String source : List.of("<probe>", "out/trace.json")) {
            List<Operation> built = new ProbeRun("http://127.0.0.1:1/", trace, List.of(), null, 60).operations(source);

            assertThat(built).isEqualTo(read(trace, source));
        }
    }

    @Test
    void aRunThatNoRequestReachedHasNoOperation() throws Exception {
        RecordedTrace empty = new RecordedTrace("run-0", START, scenario(new Random(1)), null, List.of(),
                List.of(new RecordedRequest(0, START, 1,
                        new RecordedRequest.Sent("POST", "/p", null, HASH, 0),
                                new RecordedRequest.Answer(405, null, null, 0, 0))), 0);

        assertThat(new ProbeRun("http://127.0.0.1:1/", empty, List.of(), null, 60).operations("<probe>")).isEmpty();
        assertThat(read(empty, "<probe>")).isEmpty();
    }

    @Test
    void theVerdictJudgesTheAuditOfTheOperationsAndNamesTheClientAsRun() throws Exception {
        Scenario get = new Scenario("GET", 429, 1, List.of(2L), HeaderFormat.SECONDS, 10, 0, true, "Idempotency-Key");
        RecordedTrace early = new RecordedTrace("run-e", START, get, "curl {url}", List.of(
                new RecordedRequest(1, START, 1,
                        new RecordedRequest.Sent("GET", "/p", null, HASH, 0),
                                new RecordedRequest.Answer(429, HeaderFormat.SECONDS.ask(START, 2), null, 0, 0)),
                new RecordedRequest(2, START + 100, 1,
                        new RecordedRequest.Sent("GET", "/p", null, HASH, 0),
                                new RecordedRequest.Answer(200, null, null, 0, 0))), List.of(), 0);
        ProbeRun run = new ProbeRun("http://127.0.0.1:1/p", early, List.of("curl", "http://127.0.0.1:1/p"),
                new ClientRun.Result(0, false), 60);
        Policy policy = run.policy(Policy.DEFAULTS);

        Report judged = run.judge(audit(run, policy, List.of()), "<probe>", policy.retryAfterToleranceMs(), null);
        Report withoutEarly = run.judge(audit(run, policy, List.of("retry-after/early")), "<probe>",
                policy.retryAfterToleranceMs(), null);

        assertThat(policy.tools()).contains("curl {url}");
        assertThat(judged.probe().verdict()).isEqualTo("violated");
        assertThat(judged.probe().client().command()).containsExactly("curl", "http://127.0.0.1:1/p");
        assertThat(judged.probe().client().exitCode()).isZero();
        assertThat(judged.findings()).extracting(f -> f.rule()).containsExactly("retry-after/early");
        assertThat(judged.findings().get(0).location().pointer()).isEqualTo("/attempts/1");
        assertThat(judged.passed()).isFalse();
        // the audit's rules say whether the wait was judged at all
        assertThat(withoutEarly.findings()).extracting(f -> f.rule()).containsExactly("probe/not-tested");
        assertThat(withoutEarly.probe().reason()).isEqualTo("retry-after/early is disabled, so no wait was judged");
    }

    private static Report audit(ProbeRun run, Policy policy, List<String> disable) {
        RuleSelection rules = RuleSelection.of(policy, List.of(), disable);
        Engine engine = new Engine(policy, rules);
        run.operations("<probe>").forEach(engine::accept);
        return new Report("retry-audit", "test", List.of(), engine.finish(), FailOn.ERROR, rules.configured(), null, 0);
    }

    private static List<Operation> read(RecordedTrace trace, String source) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TraceWriter.write(trace, bytes);
        List<Operation> ops = new ArrayList<>();
        new InputSet(InputFormat.RETRY_TRACE, Limits.DEFAULTS).readAll(List.of(new InputSet.Source(source, null)),
                new ByteArrayInputStream(bytes.toByteArray()), ops::add);
        return ops;
    }

    /** A trace as a server could record it: any header format, stalls the client gave up on or not, keys, replays. */
    private static RecordedTrace randomTrace(int seed) {
        Random r = new Random(seed);
        Scenario s = scenario(r);
        List<RecordedRequest> attempts = new ArrayList<>();
        long at = START + r.nextInt(1000);
        int n = 1 + r.nextInt(12);
        for (int i = 1; i <= n; i++) {
            boolean failing = i <= s.failures();
            boolean write = !s.method().equals("GET");
            long stalled = failing && s.stalls() ? 1000L * s.stallSeconds() : 0;
            HeaderFormat.Ask ask = failing && !s.stalls() && !s.rejects()
                    ? s.headerFormat().ask(at, s.delays().get((i - 1) % s.delays().size())) : null;
            CommitState commit = !write ? null : i > 1 && r.nextBoolean() ? CommitState.REJECTED : CommitState.COMMITTED;
            String key = write && r.nextInt(4) > 0 ? "k-\u00e9\t" + r.nextInt(3) : null;
            attempts.add(new RecordedRequest(i, at, 1 + r.nextInt(3),
                    new RecordedRequest.Sent(s.method(), ProbeServer.PATH, key, HASH, r.nextInt(100)), new RecordedRequest.Answer(failing ? (s.stalls() ? 200 : s.status()) : 200, ask, commit, stalled, commit == CommitState.REJECTED ? 1 : 0)));
            at += r.nextInt(r.nextBoolean() ? 500 : 9000);
        }
        List<RecordedRequest> others = r.nextBoolean() ? List.of()
                : List.of(new RecordedRequest(0, at, 1,
                        new RecordedRequest.Sent("HEAD", ProbeServer.PATH, null, HASH, 0),
                                new RecordedRequest.Answer(405, null, null, 0, 0)));
        String client = r.nextBoolean() ? null : "client \"quoted\" \u2603 {url} " + seed;
        return new RecordedTrace("run-" + seed, START, s, client, attempts, others, r.nextInt(3));
    }

    private static Scenario scenario(Random r) {
        String method = List.of("GET", "POST", "PUT").get(r.nextInt(3));
        int status = List.of(429, 503, 422).get(r.nextInt(3));
        List<Long> delays = new ArrayList<>();
        for (int i = 0, k = 1 + r.nextInt(10); i < k; i++) {
            delays.add((long) r.nextInt(601));
        }
        HeaderFormat format = HeaderFormat.values()[r.nextInt(HeaderFormat.values().length)];
        int failures = 1 + r.nextInt(10);
        long stall = r.nextInt(3) == 0 ? 1 + r.nextInt(5) : 0;
        return new Scenario(method, status, failures, delays, format, failures + 1 + r.nextInt(20), stall, r.nextBoolean(),
                r.nextBoolean() ? "Idempotency-Key" : "X-Request-Key");
    }
}
