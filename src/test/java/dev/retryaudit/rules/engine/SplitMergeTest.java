package dev.retryaudit.rules.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.api.AuditInput;
import dev.retryaudit.api.AuditResult;
import dev.retryaudit.api.AuditSettings;
import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.api.split.AuditPart;
import dev.retryaudit.api.split.SplitAudit;
import dev.retryaudit.input.InputSet;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Check;
import dev.retryaudit.model.CommitState;
import dev.retryaudit.model.FailOn;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Outcome;
import dev.retryaudit.model.Policy;
import dev.retryaudit.model.ReportFormat;
import dev.retryaudit.model.values.Clock;
import dev.retryaudit.model.values.ParentRef;
import dev.retryaudit.report.Report;
import dev.retryaudit.report.ReportWriter;
import dev.retryaudit.rules.Rule;
import dev.retryaudit.rules.RuleFixtures;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Any split of an input into parts, audited apart in any order and merged, gives byte for byte the
 * report of one pass: per-operation findings travel with their part, cross-operation aggregates
 * merge, and "first" is first in location order.
 */
class SplitMergeTest {
    private static final RuleSelection ALL = RuleSelection.of(RuleRegistry.all(), Policy.DEFAULTS,
            RuleRegistry.all().stream().map(r -> r.info().id()).toList(), List.of());

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void anySplitMergesIntoTheFindingsOfOnePass(int k) throws Exception {
        List<Operation> ops = input();
        List<Finding> onePass = audit(List.of(ops));
        Set<String> fired = onePass.stream().map(Finding::rule).collect(Collectors.toCollection(TreeSet::new));
        assertThat(fired)
                .as("every rule fires on the input")
                .containsAll(RuleRegistry.all().stream().map(r -> r.info().id()).toList());
        for (long seed = 0; seed < 5; seed++) {
            Random rnd = new Random(seed * 31 + k);
            List<List<Operation>> parts = new ArrayList<>();
            for (int i = 0; i < k; i++) {
                parts.add(new ArrayList<>());
            }
            List<Operation> shuffled = new ArrayList<>(ops);
            Collections.shuffle(shuffled, rnd);
            for (Operation op : shuffled) {
                parts.get(rnd.nextInt(k)).add(op);
            }
            Collections.shuffle(parts, rnd);
            List<Finding> merged = audit(parts);
            assertThat(json(merged)).as("k=%d seed=%d", k, seed).isEqualTo(json(onePass));
        }
    }

    /**
     * As an engine that merges by key across machines does: parts audited apart, two of them combined
     * into one part first, each part's pieces by group number sent on serialized, and the pieces of each
     * group merged; with the per-operation findings, the findings of one pass. The parts are left as they
     * were: merged again, they give the same.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 3, 8})
    void piecesByGroupMergeIntoTheFindingsOfOnePass(int groups) throws Exception {
        RetryAudit audit = RetryAudit.of(AuditSettings.builder()
                .enable(RuleRegistry.all().stream().map(r -> r.info().id()).toList()).build());
        List<Operation> ops = input();
        AuditResult onePass = audit.audit(AuditInput.operations(ops));
        SplitAudit parted = SplitAudit.of(audit);
        Random rnd = new Random(groups);
        List<List<Operation>> split = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            split.add(new ArrayList<>());
        }
        ops.forEach(op -> split.get(rnd.nextInt(4)).add(op));
        List<AuditPart> parts = split.stream().map(parted::auditPart).toList();
        List<AuditPart> sent = List.of(parted.combine(parts.subList(0, 2)), parts.get(2), parts.get(3));
        List<Finding> findings = new ArrayList<>();
        Map<Integer, List<AuditPart>> byGroup = new TreeMap<>();
        for (AuditPart p : sent) {
            findings.addAll(p.findings());
            for (Map.Entry<Integer, AuditPart> piece : p.pieces(groups).entrySet()) {
                assertThat(piece.getKey()).isBetween(0, groups - 1);
                assertThat(piece.getValue().group()).isEqualTo(Integer.toString(piece.getKey()));
                assertThat(piece.getValue().findings()).isEmpty();
                byGroup.computeIfAbsent(piece.getKey(), g -> new ArrayList<>()).add(shipped(piece.getValue()));
            }
        }
        byGroup.values().forEach(pieces -> findings.addAll(parted.merge(pieces).findings()));
        findings.sort(FindingOrder.ORDER);
        assertThat(json(findings)).isEqualTo(json(onePass.findings()));
        assertThat(parted.merge(parts)).isEqualTo(onePass);
        assertThat(parted.merge(parts)).isEqualTo(onePass);
    }

    private static AuditPart shipped(AuditPart part) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(part);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (AuditPart) in.readObject();
        }
    }

    /**
     * Audits each part with its own engine, then merges them all into the first: half of them
     * directly, the other half as partials that went through Java serialization, as between machines.
     */
    private static List<Finding> audit(List<List<Operation>> parts) throws Exception {
        List<Engine> engines = new ArrayList<>();
        for (List<Operation> part : parts) {
            Engine e = new Engine(Policy.DEFAULTS, ALL);
            part.forEach(e::accept);
            engines.add(e);
        }
        Engine first = engines.get(0);
        for (int i = 1; i < engines.size(); i++) {
            if (i % 2 == 0) {
                first.merge(engines.get(i));
            } else {
                first.merge(serialized(engines.get(i).partial()));
            }
        }
        return first.finish();
    }

    private static Engine.Partial serialized(Engine.Partial partial) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(partial);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (Engine.Partial) in.readObject();
        }
    }

    private static String json(List<Finding> findings) throws Exception {
        Report report = new Report("retry-audit", "test", List.of(new InputSummary("x", "operations", 1, 1)),
                findings, FailOn.ERROR, ALL.configured(), null, 0);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ReportWriter.of(ReportFormat.JSON, false).write(report, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    /**
     * The failing fixtures of every rule, each case as its own sources with its ids prefixed, then
     * random operations whose runs, keys and parent chains cross parts and files.
     */
    private static List<Operation> input() throws Exception {
        List<Operation> ops = new ArrayList<>();
        int sources = 0;
        for (Rule r : RuleRegistry.all()) {
            for (RuleFixtures.Case c : RuleFixtures.cases(r.info().id())) {
                if (!c.name().startsWith("fail-")) {
                    continue;
                }
                List<InputSet.Source> files = c.inputs().stream()
                        .map(p -> new InputSet.Source(c.ruleId() + "/" + c.name() + "/" + p.getFileName(), p)).toList();
                String prefix = sources + ":";
                int offset = sources;
                new InputSet(InputFormat.AUTO, Limits.DEFAULTS).readAll(files, new ByteArrayInputStream(new byte[0]),
                        op -> ops.add(moved(op, prefix, offset)));
                sources += files.size();
            }
        }
        ops.addAll(generated(sources, new Random(7)));
        return ops;
    }

    /** {@code op} with its ids prefixed and its sources counted from {@code offset}, as if read with other sources. */
    private static Operation moved(Operation op, String prefix, int offset) {
        List<Attempt> attempts = op.attempts().stream().map(a -> a.toBuilder().at(moved(a.location(), offset)).build())
                .toList();
        List<Check> checks = op.checks().stream().map(c -> new Check(c.afterAttempt(), c.at(), c.kind(), c.result(),
                c.count(), moved(c.location(), offset))).toList();
        Operation.Builder b = op.toBuilder().id(prefix + op.id()).attempts(attempts).checks(checks)
                .at(moved(op.location(), offset));
        return op.parentOperation() == null ? b.build()
                : b.parent(prefix + op.parentOperation(), op.parentAttempt()).build();
    }

    private static Location moved(Location at, int offset) {
        return at.inSource(at.sourceIndex() + offset);
    }

    private static List<Operation> generated(int firstSource, Random rnd) {
        List<Operation> ops = new ArrayList<>();
        Instant t0 = Instant.parse("2026-03-01T10:00:00Z");
        for (int i = 0; i < 240; i++) {
            int source = firstSource + i % 3;
            int attempts = 1 + rnd.nextInt(3);
            String id = "gen-" + i;
            var b = RetryAudit.operation(id, "tool-" + rnd.nextInt(3))
                    .method(rnd.nextBoolean() ? "POST" : "GET")
                    .runId(rnd.nextInt(4) == 0 ? null : "run-" + rnd.nextInt(4))
                    .idempotencyKey("key-" + rnd.nextInt(25))
                    .at(Location.atRecord("generated-" + (i % 3) + ".jsonl", i / 3).inSource(source));
            if (i > 0 && rnd.nextInt(3) == 0) {
                b.parent("gen-" + rnd.nextInt(240), 1 + rnd.nextInt(2));
            }
            for (int a = 1; a <= attempts; a++) {
                Instant start = t0.plusSeconds(i * 60L + a * 2L);
                boolean last = a == attempts;
                b.attempt(a, at -> at.startedAt(start).endedAt(start.plusMillis(500))
                        .outcome(last ? Outcome.SUCCESS : Outcome.TIMEOUT)
                        .commitState(last ? CommitState.COMMITTED : CommitState.UNKNOWN)
                        .requestHash("h" + rnd.nextInt(2))
                        .retryReason(start.equals(t0) ? null : "timeout"));
            }
            ops.add(b.build());
        }
        return ops;
    }
}
