package dev.retryaudit.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The policy as a value: made only through the internal builder, equal by every part, serializable, and read per tool. */
class PolicyTest {
    private static final Policy TUNED = Policy.DEFAULTS.toBuilder().maxAttempts(5)
            .tool("charge", Effect.WRITE, 2, true).tool("lookup", null, null, null)
            .rule("budget/retry-ratio", Severity.ERROR, null).grpc(List.of("*/Get*"), List.of(), Set.of()).build();

    @Test
    void aPolicyRebuiltFromItsPartsIsEqualAndHashesAlike() {
        Policy again = TUNED.toBuilder().build();
        assertThat(again).isEqualTo(TUNED).hasSameHashCodeAs(TUNED);
        assertThat(Policy.DEFAULTS.toBuilder().build()).isEqualTo(Policy.DEFAULTS);
        assertThat(TUNED).isNotEqualTo(Policy.DEFAULTS);
        assertThat(TUNED.toString()).startsWith("Policy[maxAttempts=5, minBackoffMs=50, ");
    }

    @Test
    void theDifferencesNameThePartsInTheirOrder() {
        assertThat(Policy.DEFAULTS.differences(TUNED)).containsExactly("maxAttempts", "tools",
                "toolEffects", "toolMaxAttempts", "toolsDedupingByKey", "ruleSeverities", "grpcReads",
                "grpcNonRetryableStatuses");
        assertThat(TUNED.differences(TUNED.toBuilder().build())).isEmpty();
    }

    @Test
    void toolSettingsFallBackToThePolicyWideValues() {
        assertThat(TUNED.maxAttemptsFor("charge")).isEqualTo(2);
        assertThat(TUNED.maxAttemptsFor("lookup")).isEqualTo(5);
        assertThat(TUNED.maxAttemptsFor(null)).isEqualTo(5);
        assertThat(TUNED.dedupesByKey("charge")).isTrue();
        assertThat(TUNED.dedupesByKey("lookup")).isFalse();
        assertThat(TUNED.tools()).containsExactlyInAnyOrder("charge", "lookup");
        assertThat(TUNED.ruleSeverity("budget/retry-ratio")).isEqualTo(Severity.ERROR);
        assertThat(TUNED.ruleEnabled("budget/retry-ratio")).isNull();
        assertThat(TUNED.grpcEffectOf("shop.v1.Cart/GetCart")).isEqualTo(Effect.READ);
        assertThat(TUNED.grpcNonRetryableStatuses()).isEmpty();
    }

    @Test
    void aToolSetAgainReplacesItsSettings() {
        Policy p = TUNED.toBuilder().tool("charge", null, null, false).build();
        assertThat(p.maxAttemptsFor("charge")).isEqualTo(5);
        assertThat(p.dedupesByKey("charge")).isFalse();
        assertThat(p.tools()).contains("charge");
    }

    @Test
    void valuesOutOfRangeAreRefused() {
        assertThatThrownBy(() -> Policy.DEFAULTS.toBuilder().maxAttempts(0).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("policy values out of range");
        assertThatThrownBy(() -> Policy.DEFAULTS.toBuilder().retryBudget(-0.1, 10).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Policy.DEFAULTS.toBuilder().validationLoop(0).build())
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aPolicySurvivesSerialization() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(TUNED);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            Policy back = (Policy) in.readObject();
            assertThat(back).isEqualTo(TUNED);
            assertThat(back.maxAttemptsFor("charge")).isEqualTo(2);
        }
    }
}
