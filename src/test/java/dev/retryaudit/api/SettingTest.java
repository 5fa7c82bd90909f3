package dev.retryaudit.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.retryaudit.model.FailOn;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.Limit;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.ReportFormat;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The settings table: each row takes a command line's text and a tool call's JSON value, checks it, and sets the builder. */
class SettingTest {
    @Test
    void textValuesSetTheBuilder() {
        AuditSettings.Builder b = AuditSettings.builder();
        Setting.INPUT_FORMAT.apply(b, "spans");
        Setting.FORMAT.apply(b, "sarif");
        Setting.FAIL_ON.apply(b, "never");
        Setting.LIMIT_DEPTH.apply(b, "7");
        Setting.LIMIT_BYTES.apply(b, "+100");
        Setting.ENABLE.apply(b, "trace");
        Setting.DISABLE.apply(b, "budget");
        Setting.POLICY.apply(b, "policy.json");
        Setting.TOOLS.apply(b, "tools.json");
        AuditSettings s = b.build();
        assertThat(s.inputFormat()).isEqualTo(InputFormat.SPANS);
        assertThat(s.reportFormat()).isEqualTo(ReportFormat.SARIF);
        assertThat(s.failOn()).isEqualTo(FailOn.NEVER);
        assertThat(s.limits()).isEqualTo(new Limits(100, Limits.DEFAULTS.operations(),
                Limits.DEFAULTS.attemptsPerOperation(), Limits.DEFAULTS.stringLength(), 7));
        assertThat(s.enable()).containsExactly("trace");
        assertThat(s.disable()).containsExactly("budget");
        assertThat(s.policyFile()).contains(Path.of("policy.json"));
        assertThat(s.toolsFile()).contains(Path.of("tools.json"));
    }

    @Test
    void aBadTextValueNamesTheOptionAndWhatItExpects() {
        assertThatThrownBy(() -> Setting.FAIL_ON.apply(AuditSettings.builder(), "fatal"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invalid value for option '--fail-on': expected one of error, warning, note, never");
        assertThatThrownBy(() -> Setting.LIMIT_DEPTH.apply(AuditSettings.builder(), "1001"))
                .hasMessage("invalid value for option '--limit-depth': must be at most 1000, the deepest nesting this "
                        + "build can read");
        assertThatThrownBy(() -> Setting.LIMIT_STRING.apply(AuditSettings.builder(), "0"))
                .hasMessage("invalid value for option '--limit-string': must be at least 1");
        assertThatThrownBy(() -> Setting.LIMIT_ATTEMPTS.apply(AuditSettings.builder(), "3000000000"))
                .hasMessage("invalid value for option '--limit-attempts': must be at most 2147483647");
        for (String notWhole : new String[] {"deep", "1.5", "1e3", "", " 5", "-"}) {
            assertThatThrownBy(() -> Setting.LIMIT_BYTES.apply(AuditSettings.builder(), notWhole))
                    .hasMessage("invalid value for option '--limit-bytes': expected a whole number, found " + notWhole);
        }
    }

    @Test
    void jsonValuesSetTheBuilderAndABadOneNamesTheArgument() {
        AuditSettings.Builder b = AuditSettings.builder();
        Setting.LIMIT_OPERATIONS.applyJson(b, 1e3);
        Setting.LIMIT_STRING.applyJson(b, new BigDecimal("2E+3"));
        Setting.ENABLE.applyJson(b, List.of("trace", "budget"));
        Setting.FAIL_ON.applyJson(b, "warning");
        Setting.INPUT_FORMAT.applyJson(b, null);
        AuditSettings s = b.build();
        assertThat(s.limits().operations()).isEqualTo(1000);
        assertThat(s.limits().stringLength()).isEqualTo(2000);
        assertThat(s.enable()).containsExactly("trace", "budget");
        assertThat(s.failOn()).isEqualTo(FailOn.WARNING);
        assertThat(s.inputFormat()).isEqualTo(InputFormat.AUTO);

        assertThatThrownBy(() -> Setting.LIMIT_BYTES.applyJson(AuditSettings.builder(), 1.5))
                .hasMessage("invalid value for 'limits.bytes': expected a whole number");
        assertThatThrownBy(() -> Setting.LIMIT_BYTES.applyJson(AuditSettings.builder(), new BigInteger("18446744073709551616")))
                .hasMessage("invalid value for 'limits.bytes': must be at most 9223372036854775807");
        assertThatThrownBy(() -> Setting.FAIL_ON.applyJson(AuditSettings.builder(), 3))
                .hasMessage("invalid value for 'fail_on': expected a string");
        assertThatThrownBy(() -> Setting.INPUT_FORMAT.applyJson(AuditSettings.builder(), "csv"))
                .hasMessageStartingWith("invalid value for 'input_format': expected one of auto, ");
        assertThatThrownBy(() -> Setting.DISABLE.applyJson(AuditSettings.builder(), List.of(1)))
                .hasMessage("invalid value for 'disable': expected an array of strings");
        assertThatThrownBy(() -> Setting.POLICY.applyJson(AuditSettings.builder(), "{}"))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aDocumentRowReadsItsDocumentInline() throws Exception {
        AuditSettings.Builder b = AuditSettings.builder();
        Setting.POLICY.read(b, new ByteArrayInputStream("{\"max_attempts\": 2}".getBytes(StandardCharsets.UTF_8)),
                "<policy>");
        assertThat(b.build().policy().maxAttempts()).isEqualTo(2);
        assertThatThrownBy(() -> Setting.POLICY.read(AuditSettings.builder(),
                new ByteArrayInputStream("{\"max_attempts\": \"x\"}".getBytes(StandardCharsets.UTF_8)), "<policy>"))
                .isInstanceOf(RetryAuditException.class).hasMessageContaining("<policy>");
        assertThatThrownBy(() -> Setting.FAIL_ON.read(AuditSettings.builder(), InputStream.nullInputStream(), "x"))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void theDefaultsAreTheAuditsAndTheDescriptionsSayThem() {
        AuditSettings d = AuditSettings.defaults();
        assertThat(Setting.FAIL_ON.defaultValue()).contains(d.failOn().id());
        assertThat(Setting.FORMAT.defaultValue()).contains(d.reportFormat().id());
        assertThat(Setting.INPUT_FORMAT.defaultValue()).contains(d.inputFormat().id());
        assertThat(Setting.LIMIT_OPERATIONS.defaultValue()).contains(Long.toString(d.limits().operations()));
        assertThat(Setting.POLICY.defaultValue()).isEmpty();
        assertThat(Setting.LIMIT_BYTES.description()).endsWith("(default: 1 GiB).");
        assertThat(Setting.LIMIT_OPERATIONS.description()).endsWith("(default: 5,000,000).");
        assertThat(Setting.FAIL_ON.description()).endsWith(": error, warning, note, never (default: error).");
        for (Limit limit : Limit.values()) {
            if (limit != Limit.MEMORY) {
                assertThat(Setting.of(limit).limit()).contains(limit);
                assertThat(Setting.of(limit).max()).isEqualTo(Limits.max(limit));
            }
        }
        assertThatThrownBy(() -> Setting.of(Limit.MEMORY)).isInstanceOf(IllegalArgumentException.class);
    }
}
