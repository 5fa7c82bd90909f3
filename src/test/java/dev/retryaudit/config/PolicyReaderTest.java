package dev.retryaudit.config;

import dev.retryaudit.model.Effect;
import dev.retryaudit.model.GrpcStatus;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Policy;
import dev.retryaudit.model.Severity;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The policy file reader: every field, null as absent, and each kind of rejection with its location and message. */
class PolicyReaderTest {
    private static final RuleIds RULES = new RuleIds(new LinkedHashSet<>(List.of(
            "budget/max-attempts", "budget/retry-ratio", "trace/clock-order", "trace/overlap")),
            Map.of("other/verdict", "other/verdict is reported by another command: a policy cannot configure it"));

    private static Policy read(String json) throws Exception {
        return PolicyReader.read(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), "policy.json",
                RULES, Limits.DEFAULTS);
    }

    private static String rejection(String json) {
        try {
            read(json);
        } catch (InputException e) {
            assertThat(e.kind()).isEqualTo(InputException.Kind.REJECTED);
            return e.diagnostic();
        } catch (Exception e) {
            throw new AssertionError("expected an input error, got " + e, e);
        }
        throw new AssertionError("expected " + json + " to be rejected");
    }

    @Test
    void theSpecExampleReadsAsItsValues() throws Exception {
        Policy p = read("""
                {
                  "version": 1,
                  "max_attempts": 4,
                  "min_backoff_ms": 75,
                  "retry_budget": {"ratio": 0.5, "min_retries": 2},
                  "retry_after": {"tolerance_ms": 10, "http_date_skew_ms": 2000, "max_seconds": 60},
                  "non_retryable_statuses": [400, 422],
                  "retryable_rejections": [429],
                  "validation_loop": 5,
                  "tools": {
                    "catalog_lookup": {"effect": "read"},
                    "charge_cart": {"max_attempts": 2, "dedupes_by_key": true}
                  },
                  "rules": {
                    "budget/retry-ratio": {"severity": "error"},
                    "trace/clock-order": {"enabled": false}
                  }
                }
                """);
        assertThat(p).isEqualTo(Policy.DEFAULTS.toBuilder().maxAttempts(4).minBackoffMs(75).retryBudget(0.5, 2)
                .retryAfter(10, 2000, 60).nonRetryableStatuses(Set.of(400, 422)).retryableRejections(Set.of(429))
                .validationLoop(5).tool("catalog_lookup", Effect.READ, null, null).tool("charge_cart", null, 2, true)
                .rule("budget/retry-ratio", Severity.ERROR, null).rule("trace/clock-order", null, false).build());
        assertThat(p.maxAttemptsFor("charge_cart")).isEqualTo(2);
        assertThat(p.maxAttemptsFor("catalog_lookup")).isEqualTo(4);
        assertThat(p.dedupesByKey("charge_cart")).isTrue();
    }

    @Test
    void everyFieldIsOptional() throws Exception {
        assertThat(read("{}")).isEqualTo(Policy.DEFAULTS);
        assertThat(read("\uFEFF{\"version\": 1, \"$schema\": \"https://example.test/policy.json\"}")).isEqualTo(Policy.DEFAULTS);
    }

    @Test
    void nullIsTheSameAsAbsent() throws Exception {
        assertThat(read("""
                {"version": null, "max_attempts": null, "min_backoff_ms": null,
                 "retry_budget": {"ratio": null, "min_retries": null},
                 "retry_after": null, "non_retryable_statuses": null, "retryable_rejections": null,
                 "validation_loop": null, "tools": {"x": null}, "rules": {"trace/overlap": null}, "$schema": null}
                """)).isEqualTo(Policy.DEFAULTS);
        Policy p = read("{\"tools\": {\"x\": {\"effect\": null, \"max_attempts\": null, \"dedupes_by_key\": null}}}");
        assertThat(p.tools()).containsExactly("x");
        assertThat(p).isEqualTo(Policy.DEFAULTS.toBuilder().tool("x", null, null, null).build());
    }

    @Test
    void emptyListsAndBoundaryValuesAreAccepted() throws Exception {
        Policy p = read("""
                {"max_attempts": 1, "min_backoff_ms": 0, "retry_budget": {"ratio": 1, "min_retries": 0},
                 "retry_after": {"tolerance_ms": 0, "http_date_skew_ms": 0, "max_seconds": 0},
                 "non_retryable_statuses": [], "retryable_rejections": [100, 599], "validation_loop": 1}
                """);
        assertThat(p.retryBudgetRatio()).isEqualTo(1.0);
        assertThat(p.nonRetryableStatuses()).isEmpty();
        assertThat(p.retryableRejections()).containsExactlyInAnyOrder(100, 599);
        assertThat(read("{\"retry_budget\": {\"ratio\": 0}}").retryBudgetRatio()).isZero();
    }

    @Test
    void anUnknownFieldNamesTheClosestKnownOne() {
        assertThat(rejection("{\n  \"max_attempt\": 3\n}"))
                .isEqualTo("policy.json:2:3: error: $.max_attempt: unknown field (did you mean max_attempts?)");
        assertThat(rejection("{\"retry_budget\": {\"ratoi\": 0.2}}"))
                .isEqualTo("policy.json:1:19: error: $.retry_budget.ratoi: unknown field (did you mean ratio?)");
        assertThat(rejection("{\"retry_after\": {\"tolerance\": 5}}"))
                .endsWith("$.retry_after.tolerance: unknown field (did you mean tolerance_ms?)");
        assertThat(rejection("{\"tools\": {\"charge\": {\"dedupe_by_key\": true}}}"))
                .endsWith("$.tools.charge.dedupe_by_key: unknown field (did you mean dedupes_by_key?)");
        assertThat(rejection("{\"rules\": {\"trace/overlap\": {\"enable\": false}}}"))
                .endsWith("$.rules['trace/overlap'].enable: unknown field (did you mean enabled?)");
        assertThat(rejection("{\"zzzzzz\": 1}")).endsWith("$.zzzzzz: unknown field");
    }

    @Test
    void anUnknownRuleIdNamesTheClosestIds() {
        assertThat(rejection("{\"rules\": {\"budget/retry-ratoi\": {\"severity\": \"error\"}}}"))
                .isEqualTo("policy.json:1:12: error: $.rules['budget/retry-ratoi']: unknown rule id "
                        + "(did you mean budget/retry-ratio?)");
        assertThat(rejection("{\"rules\": {\"budget\": {\"enabled\": false}}}"))
                .endsWith("$.rules.budget: unknown rule id (did you mean budget/retry-ratio, budget/max-attempts?)");
        assertThat(rejection("{\"rules\": {\"zzzz/zzzz\": {}}}")).endsWith("$.rules['zzzz/zzzz']: unknown rule id");
        assertThat(rejection("{\"rules\": {\"other/verdict\": {\"severity\": \"note\"}}}")).isEqualTo("policy.json:1:12: "
                + "error: $.rules['other/verdict']: other/verdict is reported by another command: a policy cannot configure it");
    }

    @Test
    void aDuplicateKeyIsRejected() {
        assertThat(rejection("{\"max_attempts\": 3,\n \"max_attempts\": 4}"))
                .startsWith("policy.json:2:")
                .contains("malformed JSON: Duplicate field 'max_attempts'");
        assertThat(rejection("{\"tools\": {\"a\": {}, \"a\": {}}}")).contains("Duplicate field 'a'");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            {"max_attempts": "3"}                      | $.max_attempts: expected an integer, found a string
            {"max_attempts": 2.5}                      | $.max_attempts: expected an integer, found a fractional number
            {"min_backoff_ms": true}                   | $.min_backoff_ms: expected an integer, found a boolean
            {"retry_budget": [0.2]}                    | $.retry_budget: expected the retry budget (a JSON object), found an array
            {"retry_budget": {"ratio": "20%"}}         | $.retry_budget.ratio: expected a number, found a string
            {"retry_after": 100}                       | $.retry_after: expected the Retry-After settings (a JSON object), found an integer
            {"non_retryable_statuses": 400}            | $.non_retryable_statuses: expected a list of HTTP statuses (a JSON array), found an integer
            {"retryable_rejections": ["429"]}          | $.retryable_rejections[0]: expected an integer, found a string
            {"tools": []}                              | $.tools: expected the per-tool settings (a JSON object), found an array
            {"tools": {"t": "read"}}                   | $.tools.t: expected a tool's settings (a JSON object), found a string
            {"tools": {"t": {"dedupes_by_key": "yes"}}} | $.tools.t.dedupes_by_key: expected true or false, found a string
            {"rules": {"trace/overlap": {"enabled": 0}}} | $.rules['trace/overlap'].enabled: expected true or false, found an integer
            {"rules": {"trace/overlap": "off"}}        | $.rules['trace/overlap']: expected a rule's settings (a JSON object), found a string
            [1]                                        | $: expected a policy (a JSON object), found an array
            """)
    void aWrongTypeIsRejected(String json, String message) {
        assertThat(rejection(json)).endsWith(": error: " + message);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            {"max_attempts": 0}                             | $.max_attempts: number out of range: must be between 1 and 2147483647
            {"max_attempts": 99999999999}                   | $.max_attempts: number out of range: must be between 1 and 2147483647
            {"min_backoff_ms": -1}                          | $.min_backoff_ms: number out of range: must be between 0 and 1000000000000000
            {"retry_budget": {"ratio": 1.5}}                | $.retry_budget.ratio: number out of range: must be between 0 and 1 (retries per operation)
            {"retry_budget": {"ratio": -0.1}}               | $.retry_budget.ratio: number out of range: must be between 0 and 1e15
            {"retry_budget": {"min_retries": -1}}           | $.retry_budget.min_retries: number out of range: must be between 0 and 2147483647
            {"retry_after": {"tolerance_ms": -5}}           | $.retry_after.tolerance_ms: number out of range: must be between 0 and 1000000000000000
            {"retry_after": {"http_date_skew_ms": -1}}      | $.retry_after.http_date_skew_ms: number out of range: must be between 0 and 1000000000000000
            {"retry_after": {"max_seconds": 1e400}}         | $.retry_after.max_seconds: expected an integer, found a fractional number
            {"retry_after": {"max_seconds": 10000000000000000}} | $.retry_after.max_seconds: number out of range: must be between 0 and 1000000000000000
            {"non_retryable_statuses": [99]}                | $.non_retryable_statuses[0]: number out of range: must be between 100 and 599
            {"retryable_rejections": [429, 600]}            | $.retryable_rejections[1]: number out of range: must be between 100 and 599
            {"validation_loop": 0}                          | $.validation_loop: number out of range: must be between 1 and 2147483647
            {"tools": {"t": {"max_attempts": 0}}}           | $.tools.t.max_attempts: number out of range: must be between 1 and 2147483647
            """)
    void anOutOfRangeNumberIsRejected(String json, String message) {
        assertThat(rejection(json)).endsWith(": error: " + message);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            {"tools": {"t": {"effect": "mutate"}}}                  | $.tools.t.effect: expected one of read, write
            {"rules": {"trace/overlap": {"severity": "fatal"}}}     | $.rules['trace/overlap'].severity: expected one of error, warning, note
            {"rules": {"trace/overlap": {"severity": "ERROR"}}}     | $.rules['trace/overlap'].severity: expected one of error, warning, note
            """)
    void aBadEnumValueIsRejected(String json, String message) {
        assertThat(rejection(json)).endsWith(": error: " + message);
    }

    @Test
    void listsHoldEachStatusOnceAndNoNulls() {
        assertThat(rejection("{\"retryable_rejections\": [429, 503, 429]}"))
                .endsWith("$.retryable_rejections[2]: status 429 is listed twice");
        assertThat(rejection("{\"non_retryable_statuses\": [400, null]}"))
                .endsWith("$.non_retryable_statuses[1]: must not be null");
    }

    @Test
    void onlyVersionOneIsRead() {
        assertThat(rejection("{\"version\": 2}")).endsWith("$.version: unsupported version: this reader reads version 1");
        assertThat(rejection("{\"version\": \"1\"}")).endsWith("$.version: expected an integer, found a string");
    }

    @Test
    void trailingContentEmptyInputAndBrokenJsonAreRejected() {
        assertThat(rejection("{}\n{}")).isEqualTo("policy.json:2:1: error: $: trailing content after the JSON document");
        assertThat(rejection("{} x")).contains("malformed JSON");
        assertThat(rejection("")).isEqualTo("policy.json:1:1: error: $: empty input: expected a policy (a JSON object)");
        assertThat(rejection("{\"max_attempts\": 3,}")).contains("malformed JSON");
        assertThat(rejection("{\"max_attempts\": 3 // why\n}")).contains("malformed JSON");
    }

    @Test
    void invalidUtf8IsRejected() {
        byte[] bad = {'{', '"', 't', 'o', 'o', 'l', 's', '"', ':', '{', '"', (byte) 0xC3, '(', '"', ':', '{', '}', '}', '}'};
        assertThatThrownBy(() -> PolicyReader.read(new ByteArrayInputStream(bad), "p.json", RULES, Limits.DEFAULTS))
                .isInstanceOfSatisfying(InputException.class, e -> {
                    assertThat(e.kind()).isEqualTo(InputException.Kind.REJECTED);
                    assertThat(e.diagnostic()).startsWith("p.json:1:").contains("UTF-8");
                });
    }

    @Test
    void inputLimitsApply() {
        Limits tight = new Limits(1L << 30, 10, 10, 8, 3);
        assertThatThrownBy(() -> PolicyReader.read(new ByteArrayInputStream(
                ("{\"tools\": {\"" + "t".repeat(1025) + "\": {}}}").getBytes(StandardCharsets.UTF_8)), "p.json", RULES,
                tight))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("a field name of more than 1024 characters exceeds the limit on names");
        assertThatThrownBy(() -> PolicyReader.read(new ByteArrayInputStream(
                "{\"tools\": {\"a\": {\"effect\": {\"x\": 1}}}}".getBytes(StandardCharsets.UTF_8)), "p.json", RULES, tight))
                .isInstanceOf(InputException.class).hasMessageContaining("depth limit");
        Limits fewBytes = new Limits(16, 10, 10, 100, 10);
        assertThatThrownBy(() -> PolicyReader.read(new ByteArrayInputStream(
                "{\"max_attempts\": 3, \"validation_loop\": 3}".getBytes(StandardCharsets.UTF_8)), "p.json", RULES, fewBytes))
                .isInstanceOf(InputException.class).hasMessageContaining("byte limit");
    }

    @Test
    void aFileIsReadUnderTheNameGiven(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("policy.json");
        Files.writeString(file, "{\"max_attempts\": 5}");
        assertThat(PolicyReader.read(file, RULES, Limits.DEFAULTS).maxAttempts()).isEqualTo(5);
        Files.writeString(file, "{\"max_attempts\": 0}");
        assertThatThrownBy(() -> PolicyReader.read(file, RULES, Limits.DEFAULTS))
                .isInstanceOf(InputException.class).hasMessageStartingWith(file + ":1:18: ");
    }

    @Test
    void aMissingFileOrADirectoryIsUnreadable(@TempDir Path dir) {
        for (Path p : List.of(dir.resolve("absent.json"), dir)) {
            assertThatThrownBy(() -> PolicyReader.read(p, RULES, Limits.DEFAULTS))
                    .isInstanceOfSatisfying(InputException.class, e -> {
                        assertThat(e.kind()).isEqualTo(InputException.Kind.UNREADABLE);
                        assertThat(e.source()).isEqualTo(p.toString());
                    });
        }
    }

    @Test
    void theGrpcSectionNamesReadsWritesAndNonRetryableStatuses() throws Exception {
        Policy p = read("""
                {"grpc": {"reads": ["shop.v1.Catalog/*", "*/Get*"], "writes": ["shop.v1.Catalog/GetOrCreate"],
                  "non_retryable_statuses": ["INVALID_ARGUMENT", 5]}}
                """);
        assertThat(p.grpcReads()).containsExactly("shop.v1.Catalog/*", "*/Get*");
        assertThat(p.grpcWrites()).containsExactly("shop.v1.Catalog/GetOrCreate");
        assertThat(p.grpcNonRetryableStatuses()).containsExactlyInAnyOrder(GrpcStatus.INVALID_ARGUMENT,
                GrpcStatus.NOT_FOUND);
        assertThat(read("{\"grpc\": null}")).isEqualTo(Policy.DEFAULTS);
        assertThat(read("{\"grpc\": {\"reads\": null}}")).isEqualTo(Policy.DEFAULTS);
    }

    @Test
    void aBadGrpcSectionIsRejectedAtItsValue() {
        assertThat(rejection("{\"grpc\": {\"read\": []}}"))
                .isEqualTo("policy.json:1:11: error: $.grpc.read: unknown field (did you mean reads?)");
        assertThat(rejection("{\"grpc\": {\"reads\": [\"shop.v1.Catalog\"]}}"))
                .isEqualTo("policy.json:1:21: error: $.grpc.reads[0]: expected a full gRPC method name, "
                        + "package.Service/Method, or a pattern of one with * (one /, no spaces)");
        assertThat(rejection("{\"grpc\": {\"writes\": [\"a/B\", \"a/B\"]}}"))
                .isEqualTo("policy.json:1:29: error: $.grpc.writes[1]: this method is listed twice");
        assertThat(rejection("{\"grpc\": {\"reads\": [\"a b/C\"]}}"))
                .startsWith("policy.json:1:21: error: $.grpc.reads[0]: expected a full gRPC method name");
        assertThat(rejection("{\"grpc\": {\"non_retryable_statuses\": [\"UNAVAILBLE\"]}}"))
                .isEqualTo("policy.json:1:38: error: $.grpc.non_retryable_statuses[0]: expected a gRPC status code: "
                        + "its name (OK, CANCELLED, ..., UNAUTHENTICATED) or its number 0 to 16 (did you mean UNAVAILABLE?)");
        assertThat(rejection("{\"grpc\": {\"non_retryable_statuses\": [17]}}"))
                .startsWith("policy.json:1:38: error: $.grpc.non_retryable_statuses[0]: number out of range");
        assertThat(rejection("{\"grpc\": {\"non_retryable_statuses\": [3, \"INVALID_ARGUMENT\"]}}"))
                .isEqualTo("policy.json:1:41: error: $.grpc.non_retryable_statuses[1]: status INVALID_ARGUMENT is "
                        + "listed twice");
    }
}
