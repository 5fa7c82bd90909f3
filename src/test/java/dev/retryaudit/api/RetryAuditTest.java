package dev.retryaudit.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.retryaudit.api.split.AuditPart;
import dev.retryaudit.api.split.SplitAudit;
import dev.retryaudit.model.CheckResult;
import dev.retryaudit.model.CommitState;
import dev.retryaudit.model.ErrorClass;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.GrpcStatus;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.Limit;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Outcome;
import dev.retryaudit.model.Policy;
import dev.retryaudit.model.ReportFormat;
import dev.retryaudit.model.Severity;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The facade as a library user holds it: building, reading, auditing, streaming, reports, errors. */
class RetryAuditTest {
    private static final Path SPANS = Path.of("examples/traces/retry-wrote-twice.jsonl");

    private static Operation unreconciled(String id, long index) {
        return RetryAudit.operation(id, "charge").method("POST").idempotencyKey("k-" + id)
                .at(Location.atRecord("batch", index))
                .attempt(2, a -> a.commitState(CommitState.COMMITTED).outcome(Outcome.SUCCESS).retryReason("timeout"))
                .attempt(1, a -> a.commitState(CommitState.UNKNOWN).outcome(Outcome.TIMEOUT)
                        .startedAt(Instant.parse("2026-01-01T00:00:00Z")).duration(Duration.ofMillis(1500)))
                .build();
    }

    @Test
    void buildersGiveAbsentFieldsNotSentinelsAndOrderAttempts() {
        Operation op = unreconciled("op-1", 4);
        assertThat(op.attempts()).extracting(a -> a.attemptId()).containsExactly(1, 2);
        assertThat(op.attempts().get(0).duration()).contains(java.time.Duration.ofMillis(1500));
        assertThat(op.attempts().get(1).startedAt()).isEmpty();
        assertThat(op.location().line()).isEqualTo(5);
        assertThat(op.attempts().get(0).location()).isEqualTo(op.location());
        Operation checked = RetryAudit.operation("op-2", "charge").at(Location.atByte("blob", 41))
                .attempt(1, a -> { }).check(1, CheckResult.NOT_FOUND, null, "ledger_lookup", null, null).build();
        assertThat(checked.checks()).singleElement().satisfies(c -> {
            assertThat(c.kind()).isEqualTo("ledger_lookup");
            assertThat(c.at()).isNull();
            assertThat(c.count()).isNull();
            assertThat(c.location()).isEqualTo(checked.location());
        });
        Operation counted = RetryAudit.operation("op-3", "charge").at(Location.atLine("in.jsonl", 2))
                .attempt(1, a -> { }).attempt(2, a -> { })
                .check(2, CheckResult.COMMITTED, java.time.Instant.ofEpochSecond(7), null, 2L, Location.atLine("in.jsonl", 9))
                .build();
        assertThat(counted.checks()).singleElement().satisfies(c -> {
            assertThat(c.afterAttempt()).isEqualTo(2);
            assertThat(c.result()).isEqualTo(CheckResult.COMMITTED);
            assertThat(c.at()).isEqualTo(java.time.Instant.ofEpochSecond(7));
            assertThat(c.kind()).isNull();
            assertThat(c.count()).isEqualTo(2L);
            assertThat(c.location().line()).isEqualTo(9);
        });
        assertThatThrownBy(() -> RetryAudit.operation("x", "t").check(0, CheckResult.COMMITTED, null, null, null, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("after_attempt must be >= 1: 0");
        assertThatThrownBy(() -> RetryAudit.operation("x", "t").check(1, null, null, null, null, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("a check needs its result");
        assertThat(checked.location().column()).isEqualTo(42);
        assertThatThrownBy(() -> RetryAudit.operation("x", "t").attempt(1, a -> { }).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("needs a location");
        assertThatThrownBy(() -> RetryAudit.operation("x", "t").at(Location.atRecord("b", 0)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one attempt");
    }

    @Test
    void aGrpcAttemptBuiltInCodeTakesItsOutcomeFromItsStatus() throws RetryAuditException {
        Operation op = RetryAudit.operation("g-1", "shop.v1.Cart/AddItem").at(Location.atRecord("batch", 0))
                .attempt(1, a -> a.grpcStatus(GrpcStatus.INVALID_ARGUMENT).requestHash("h")
                        .commitState(CommitState.REJECTED))
                .attempt(2, a -> a.grpcStatus(GrpcStatus.OK).outcome(Outcome.SUCCESS).requestHash("h")
                        .commitState(CommitState.COMMITTED).retryReason("again").retryPushback("5"))
                .build();
        assertThat(op.attempts().get(0).outcome()).isEqualTo(Outcome.ERROR);
        assertThat(op.attempts().get(0).errorClass()).isEqualTo(ErrorClass.VALIDATION);
        assertThat(op.attempts().get(1).retryPushback()).isEqualTo("5");
        assertThat(RetryAudit.defaults().audit(AuditInput.operations(List.of(op))).findings()).extracting(Finding::rule)
                .containsExactly("validation-repeat/identical");
    }

    @Test
    void auditsOperationsBuiltInCodeAndStreamsFindings() throws RetryAuditException {
        RetryAudit audit = RetryAudit.defaults();
        AuditResult result = audit.audit(AuditInput.operations(List.of(unreconciled("a", 0), unreconciled("b", 1))));
        assertThat(result.findings()).extracting(Finding::rule, Finding::operation)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("timeout-replay/unreconciled", "a"),
                        org.assertj.core.groups.Tuple.tuple("timeout-replay/unreconciled", "b"));
        assertThat(result.inputs()).singleElement().satisfies(s -> {
            assertThat(s.operations()).isEqualTo(2);
            assertThat(s.attempts()).isEqualTo(4);
        });
        List<Finding> streamed = new ArrayList<>();
        assertThat(audit.audit(AuditInput.operations(List.of(unreconciled("a", 0), unreconciled("b", 1))), streamed::add))
                .isEqualTo(result);
        assertThat(streamed).isEqualTo(result.findings());
    }

    @Test
    void readsAFileOrAStreamInAnyFormatAndAuditsIt() throws Exception {
        RetryAudit audit = RetryAudit.defaults();
        List<Operation> fromPath = audit.read(AuditInput.files(List.of(SPANS)));
        List<Operation> fromStream = audit.read(AuditInput.stream(Files.newInputStream(SPANS), SPANS.toString()));
        assertThat(fromPath).hasSize(1).isEqualTo(fromStream);
        AuditResult byPath = audit.audit(AuditInput.files(List.of(SPANS)));
        assertThat(byPath.findings()).isEqualTo(audit.audit(AuditInput.operations(fromPath)).findings())
                .isEqualTo(audit.audit(AuditInput.stream(Files.newInputStream(SPANS), SPANS.toString())).findings());
        assertThat(byPath.inputs()).singleElement().satisfies(s -> assertThat(s.format()).isEqualTo("spans"));
    }

    @Test
    void writesEveryReportFormatLikeTheCommandLine() throws Exception {
        RetryAudit audit = RetryAudit.defaults();
        AuditResult result = audit.audit(AuditInput.files(List.of(SPANS)));
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        RetryAudit.of(audit.settings().toBuilder().reportFormat(ReportFormat.TEXT).build()).writeReport(result, text);
        assertThat(text.toString(StandardCharsets.UTF_8)).startsWith(SPANS + ":2:1: error: attempt 2 of cart-c-1844")
                .contains("failed (--fail-on error)");
        for (ReportFormat f : ReportFormat.values()) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            RetryAudit.of(audit.settings().toBuilder().reportFormat(f).build()).writeReport(result, out);
            assertThat(out.size()).as(f.id()).isPositive();
        }
    }

    @Test
    void rulesArePickedAndConfiguredAsOnTheCommandLine(@TempDir Path dir) throws Exception {
        RetryAudit quiet = RetryAudit.of(AuditSettings.builder().disable("timeout-replay").build());
        assertThat(quiet.audit(AuditInput.files(List.of(SPANS))).findings()).isEmpty();
        Path policy = dir.resolve("policy.json");
        Files.writeString(policy, "{\"version\": 1, \"rules\": {\"timeout-replay/unreconciled\": {\"severity\": \"note\"}}}");
        RetryAudit noted = RetryAudit.of(AuditSettings.builder().policy(policy).build());
        assertThat(noted.audit(AuditInput.files(List.of(SPANS))).findings()).extracting(Finding::severity).containsExactly(Severity.NOTE);
        assertThat(noted.rules()).filteredOn(r -> r.id().equals("timeout-replay/unreconciled"))
                .singleElement().satisfies(r -> assertThat(r.severity()).isEqualTo(Severity.NOTE));
        assertThatThrownBy(() -> RetryAudit.of(AuditSettings.builder().enable("budget/no-such").build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("unknown rule or family: budget/no-such; 'retry-audit rules' lists them");
        Files.writeString(policy, "{\"version\": 1, \"max_attempts\": \"three\"}");
        assertThatThrownBy(() -> RetryAudit.of(AuditSettings.builder().policy(policy).build()))
                .isInstanceOf(RetryAuditException.class).hasMessageStartingWith(policy + ":1:");
    }

    @Test
    void filesAndAStreamAreReadAsOneInputSet() throws Exception {
        RetryAudit audit = RetryAudit.defaults();
        String gaps = "examples/traces/gaps.jsonl";
        AuditResult result = audit.audit(AuditInput.all(List.of(AuditInput.files(List.of(Path.of(gaps))),
                AuditInput.stream(Files.newInputStream(SPANS), "<stdin>"))));

        assertThat(result.inputs()).extracting(s -> s.source()).containsExactly(gaps, "<stdin>");
        assertThat(result.findings()).filteredOn(f -> f.location().source().equals("<stdin>"))
                .extracting(Finding::rule, Finding::message)
                .isEqualTo(audit.audit(AuditInput.files(List.of(SPANS))).findings().stream()
                        .map(f -> org.assertj.core.groups.Tuple.tuple(f.rule(), f.message())).toList())
                .isNotEmpty();
        AuditInput stream = AuditInput.stream(InputStream.nullInputStream(), "a");
        assertThatThrownBy(() -> AuditInput.all(List.of(stream, stream)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("an input set reads at most one stream");
        assertThatThrownBy(() -> AuditInput.all(List.of(AuditInput.operations(List.of()))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("operations cannot be read with files in one input set");
        RetryAuditException missing = org.junit.jupiter.api.Assertions.assertThrows(RetryAuditException.class,
                () -> audit.audit(AuditInput.file(Path.of("no/such.jsonl"), "named.jsonl")));
        assertThat(missing.source()).isEqualTo("named.jsonl");
        assertThat(missing.unreadable()).isTrue();
        assertThat(missing).hasMessage(missing.commandLineDiagnostic());
        assertThat(missing.line()).isZero();
        assertThat(missing.path()).isNull();
    }

    @Test
    void aBaselineLeavesOutTheFindingsItHoldsAndCountsThem(@TempDir Path dir) throws Exception {
        RetryAudit audit = RetryAudit.defaults();
        AuditResult first = audit.audit(AuditInput.files(List.of(SPANS)));
        Path baseline = dir.resolve("baseline.json");
        try (var out = Files.newOutputStream(baseline)) {
            audit.writeReport(first, out);
        }
        RetryAudit later = RetryAudit.of(AuditSettings.builder().baseline(baseline).build());

        AuditResult again = later.audit(AuditInput.files(List.of(SPANS, Path.of("examples/traces/gaps.jsonl"))));

        assertThat(first.findings()).isNotEmpty();
        assertThat(again.baseline()).isEqualTo(baseline.toString());
        assertThat(again.suppressed()).isEqualTo(first.findings().size());
        assertThat(again.findings()).extracting(f -> f.location().source()).doesNotContain(SPANS.toString());
        assertThat(later.summary(again)).contains(" suppressed by the baseline " + baseline);
        Files.writeString(baseline, "{\"findings\": 3}");
        assertThatThrownBy(() -> RetryAudit.of(AuditSettings.builder().baseline(baseline).build()))
                .isInstanceOf(RetryAuditException.class).hasMessageStartingWith(baseline + ":1:");
    }

    @Test
    void timelinesKeepTheFirstOperationsWithFindingsForTheReport() throws Exception {
        List<Operation> ops = List.of(unreconciled("a", 0), unreconciled("b", 1), unreconciled("c", 2));

        AuditResult none = RetryAudit.defaults().audit(AuditInput.operations(ops));
        RetryAudit two = RetryAudit.of(AuditSettings.builder().timelines(2).build());
        AuditResult kept = two.audit(AuditInput.operations(ops, "batch.jsonl", InputFormat.OPERATIONS));

        assertThat(none.timelines()).isEmpty();
        assertThat(kept.timelines()).extracting(Operation::id).containsExactly("a", "b");
        assertThat(kept.findings()).isEqualTo(none.findings());
        assertThat(kept.inputs()).singleElement().satisfies(s -> {
            assertThat(s.source()).isEqualTo("batch.jsonl");
            assertThat(s.format()).isEqualTo("operations");
            assertThat(s.operations()).isEqualTo(3);
        });
        assertThatThrownBy(() -> AuditSettings.builder().timelines(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aPolicyFileNamingAProbeVerdictIsRefusedAsSuch(@TempDir Path dir) throws Exception {
        Path policy = dir.resolve("policy.json");
        Files.writeString(policy, "{\"rules\": {\"probe/not-tested\": {\"enabled\": false}}}");
        assertThatThrownBy(() -> RetryAudit.of(AuditSettings.builder().policy(policy).build()))
                .isInstanceOf(RetryAuditException.class)
                .hasMessage(policy + ":1:12: error: $.rules['probe/not-tested']: probe/not-tested is a verdict of "
                        + "'retry-audit probe', not a rule over traces: a policy cannot configure it (no audit runs it, "
                        + "and a probe run always reports it)");
    }

    @Test
    void aBadInputIsOneDiagnosticLine() {
        RetryAudit audit = RetryAudit.defaults();
        assertThatThrownBy(() -> audit.read(AuditInput.stream(new ByteArrayInputStream("{\"attempt_id\": 1,".getBytes(
                StandardCharsets.UTF_8)), "in.jsonl")))
                .isInstanceOf(RetryAuditException.class).hasMessageStartingWith("in.jsonl:1:")
                .hasMessageContaining(": error: ").message().doesNotContain("\n");
    }

    @Test
    void anInputOverALimitNamesTheLimitsSettingThatRaisesIt() throws RetryAuditException {
        RetryAudit audit = RetryAudit.of(AuditSettings.builder().limits(new Limits(1L << 30, 10, 2, 65_536, 64))
                .build());
        String three = "{\"operation_id\":\"a\",\"tool\":\"t\",\"attempt_id\":1}\n"
                + "{\"operation_id\":\"a\",\"attempt_id\":2}\n{\"operation_id\":\"a\",\"attempt_id\":3}\n";
        RetryAuditException e = assertThrows(RetryAuditException.class,
                () -> audit.read(AuditInput.stream(new ByteArrayInputStream(three.getBytes(StandardCharsets.UTF_8)), "in.jsonl")));
        assertThat(e.getMessage()).isEqualTo("in.jsonl:3:1: error: $: operation has more than 2 attempts, the "
                + "attempts-per-operation limit; raise it with Limits.attemptsPerOperation (AuditSettings.Builder.limits)");
        assertThat(e.limit()).isEqualTo(Limit.ATTEMPTS);
        assertThat(e.detail()).isEqualTo("operation has more than 2 attempts, the attempts-per-operation limit");
        assertThat(e.line()).isEqualTo(3);
        assertThat(e.column()).isEqualTo(1);
        assertThat(e.path()).isEqualTo("$");
        assertThat(e.source()).isEqualTo("in.jsonl");
        assertThat(e.unreadable()).isFalse();
        assertThat(e.hint()).isEqualTo("raise it with Limits.attemptsPerOperation (AuditSettings.Builder.limits)");
        assertThat(e.commandLineDiagnostic()).isEqualTo("in.jsonl:3:1: error: $: operation has more than 2 attempts, the "
                + "attempts-per-operation limit; raise it with --limit-attempts");
        for (Limit limit : Limit.values()) {
            assertThat(RetryAuditException.hint(limit)).doesNotContain("--limit");
        }

        RetryAuditException other = assertThrows(RetryAuditException.class,
                () -> audit.read(AuditInput.stream(new ByteArrayInputStream("{\"attempt_id\": 1,".getBytes(StandardCharsets.UTF_8)),
                        "in.jsonl")));
        assertThat(other.limit()).isNull();
        assertThat(other.hint()).isNull();
    }

    @Test
    void partsAuditedApartMergeIntoOnePass() throws Exception {
        SplitAudit audit = SplitAudit.of(RetryAudit.of(AuditSettings.builder().policy(dev.retryaudit.model.Policy.DEFAULTS).build()));
        List<Operation> ops = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            ops.add(unreconciled("op-" + i, i));
        }
        AuditPart first = audit.auditPart(ops.subList(6, 12));
        AuditPart second = audit.auditPart(ops.subList(0, 6));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(first);
        }
        AuditPart shipped;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            shipped = (AuditPart) in.readObject();
        }
        AuditResult merged = audit.merge(List.of(second, shipped));
        AuditResult onePass = audit.auditor().audit(AuditInput.operations(ops));
        assertThat(merged).isEqualTo(onePass);
        assertThat(merged.findings()).extracting(Finding::rule).contains("budget/retry-ratio");
        assertThat(shipped.operations()).isEqualTo(6);
    }

    @Test
    void partsOfAnotherConfigurationDoNotMerge() throws RetryAuditException {
        SplitAudit audit = SplitAudit.of(RetryAudit.defaults());
        List<Operation> ops = List.of(RetryAudit.operation("op-1", "t").at(Location.atLine("in.jsonl", 1))
                .attempt(1, a -> a.outcome(Outcome.SUCCESS)).build());
        AuditPart tighter = SplitAudit.of(RetryAudit.of(AuditSettings.builder().limits(new Limits(1000, 10, 10, 100, 10))
                .build())).auditPart(ops);
        assertThatThrownBy(() -> audit.merge(List.of(tighter))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a part audited with other limits cannot merge: " + new Limits(1000, 10, 10, 100, 10)
                        + " is not " + Limits.DEFAULTS);
        AuditPart fewer = SplitAudit.of(RetryAudit.of(AuditSettings.builder().disable("trace").build())).auditPart(ops);
        assertThatThrownBy(() -> audit.merge(List.of(fewer))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("a part audited with other rules cannot merge: only the part has none; "
                        + "only this audit has trace/");
        AuditPart lenient = SplitAudit.of(RetryAudit.of(AuditSettings.builder().policy(Policy.DEFAULTS.toBuilder()
                .maxAttempts(9).nonRetryableStatuses(Set.of()).retryableRejections(Set.of(429)).build()).build()))
                .auditPart(ops);
        assertThatThrownBy(() -> audit.merge(List.of(lenient))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a part audited under another policy cannot merge: its maxAttempts, nonRetryableStatuses, "
                        + "retryableRejections differ");
        assertThat(audit.merge(List.of(audit.auditPart(ops)))).isEqualTo(audit.auditor().audit(AuditInput.operations(ops)));
    }

    @Test
    void operationsAndFindingsSurviveSerialization() throws Exception {
        RetryAudit audit = RetryAudit.defaults();
        Operation op = unreconciled("a", 0);
        AuditResult result = audit.audit(AuditInput.operations(List.of(op)));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(op);
            out.writeObject(result);
            out.writeObject(audit.settings());
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            assertThat(in.readObject()).isEqualTo(op);
            assertThat(in.readObject()).isEqualTo(result);
            assertThat(((AuditSettings) in.readObject()).policy()).isEqualTo(audit.settings().policy());
        }
    }
}
