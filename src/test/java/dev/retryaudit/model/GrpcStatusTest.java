package dev.retryaudit.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The table of gRPC status codes: each code's kind, outcome and error class, and how codes are read from text. */
class GrpcStatusTest {
    @Test
    void everyCodeHasTheDocumentedKindOutcomeAndErrorClass() {
        Map<GrpcStatus, String> table = new EnumMap<>(GrpcStatus.class);
        for (GrpcStatus s : GrpcStatus.values()) {
            table.put(s, s.code() + " " + kind(s) + " " + s.outcome() + " " + s.errorClass());
        }
        assertThat(table.values()).containsExactly(
                "0 SUCCESS SUCCESS null",
                "1 UNKNOWN_OUTCOME CANCELLED null",
                "2 UNKNOWN_OUTCOME ERROR SERVER",
                "3 REJECTED ERROR VALIDATION",
                "4 UNKNOWN_OUTCOME TIMEOUT null",
                "5 REJECTED ERROR NOT_FOUND",
                "6 REJECTED ERROR CONFLICT",
                "7 REJECTED ERROR AUTH",
                "8 TRANSIENT ERROR RATE_LIMITED",
                "9 REJECTED ERROR CONFLICT",
                "10 TRANSIENT ERROR CONFLICT",
                "11 REJECTED ERROR VALIDATION",
                "12 REJECTED ERROR OTHER",
                "13 UNKNOWN_OUTCOME ERROR SERVER",
                "14 TRANSIENT ERROR UNAVAILABLE",
                "15 UNKNOWN_OUTCOME ERROR SERVER",
                "16 REJECTED ERROR AUTH");
    }

    /** The one predicate that holds for {@code s}, or SUCCESS when none does. */
    private static String kind(GrpcStatus s) {
        int held = (s.isTransient() ? 1 : 0) + (s.leavesOutcomeUnknown() ? 1 : 0) + (s.isRejected() ? 1 : 0);
        assertThat(held).as(s + " holds at most one of transient, unknown outcome, rejected").isLessThanOrEqualTo(1);
        return s.isTransient() ? "TRANSIENT" : s.leavesOutcomeUnknown() ? "UNKNOWN_OUTCOME" : s.isRejected() ? "REJECTED" : "SUCCESS";
    }

    @Test
    void codesAreReadByNumberOrNameAndNothingElse() {
        assertThat(GrpcStatus.ofCode(14)).isEqualTo(GrpcStatus.UNAVAILABLE);
        assertThat(GrpcStatus.ofCode(17)).isNull();
        assertThat(GrpcStatus.ofCode(-1)).isNull();
        assertThat(GrpcStatus.parse("4")).isEqualTo(GrpcStatus.DEADLINE_EXCEEDED);
        assertThat(GrpcStatus.parse("unavailable")).isEqualTo(GrpcStatus.UNAVAILABLE);
        assertThat(GrpcStatus.parse(" RESOURCE_EXHAUSTED ")).isEqualTo(GrpcStatus.RESOURCE_EXHAUSTED);
        assertThat(GrpcStatus.parse("99")).isNull();
        assertThat(GrpcStatus.parse("STATUS_CODE_ERROR")).isNull();
        assertThat(GrpcStatus.parse("")).isNull();
    }

    @Test
    void aSpanStatusMessageNamesItsCodeOnlyAtItsStart() {
        assertThat(GrpcStatus.ofMessage("UNAVAILABLE: io exception")).isEqualTo(GrpcStatus.UNAVAILABLE);
        assertThat(GrpcStatus.ofMessage("DEADLINE_EXCEEDED")).isEqualTo(GrpcStatus.DEADLINE_EXCEEDED);
        assertThat(GrpcStatus.ofMessage("INTERNAL Panic")).isEqualTo(GrpcStatus.INTERNAL);
        assertThat(GrpcStatus.ofMessage("connection UNAVAILABLE")).isNull();
        assertThat(GrpcStatus.ofMessage("UNAVAILABLEX: no")).isNull();
        assertThat(GrpcStatus.ofMessage("HTTP 503")).isNull();
        assertThat(GrpcStatus.ofMessage(null)).isNull();
    }

    @Test
    void methodPatternsMatchWholeNamesWithStarsForAnyRun() {
        assertThat(Policy.matches("shop.v1.Cart/AddItem", "shop.v1.Cart/AddItem")).isTrue();
        assertThat(Policy.matches("shop.v1.Cart/Add", "shop.v1.Cart/AddItem")).isFalse();
        assertThat(Policy.matches("*/Get*", "shop.v1.Cart/GetCart")).isTrue();
        assertThat(Policy.matches("*/Get*", "shop.v1.Cart/ForgetCart")).isFalse();
        assertThat(Policy.matches("shop.*/*", "shop.v1.Cart/GetCart")).isTrue();
        assertThat(Policy.matches("*Cart/*Item", "shop.v1.Cart/AddItem")).isTrue();
        assertThat(Policy.matches("*Cart/*Item", "shop.v1.Cart/AddItems")).isFalse();
        assertThat(Policy.matches("**/**", "a/b")).isTrue();
    }

    @Test
    void writesWinOverReadsAndAnUnnamedMethodIsLeftToTheDefault() {
        Policy p = Policy.DEFAULTS.toBuilder().grpc(java.util.List.of("*/Get*"), java.util.List.of("*/GetOrCreate*"),
                Policy.DEFAULTS.grpcNonRetryableStatuses()).build();
        assertThat(p.grpcEffectOf("shop.v1.Cart/GetCart")).isEqualTo(Effect.READ);
        assertThat(p.grpcEffectOf("shop.v1.Cart/GetOrCreateCart")).isEqualTo(Effect.WRITE);
        assertThat(p.grpcEffectOf("shop.v1.Cart/AddItem")).isNull();
        assertThat(Policy.DEFAULTS.grpcNonRetryableStatuses()).containsExactlyInAnyOrder(GrpcStatus.INVALID_ARGUMENT,
                GrpcStatus.NOT_FOUND, GrpcStatus.ALREADY_EXISTS, GrpcStatus.PERMISSION_DENIED,
                GrpcStatus.FAILED_PRECONDITION, GrpcStatus.OUT_OF_RANGE, GrpcStatus.UNIMPLEMENTED);
    }
}
