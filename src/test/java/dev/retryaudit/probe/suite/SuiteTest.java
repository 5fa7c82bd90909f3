package dev.retryaudit.probe.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.retryaudit.probe.HeaderFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The built-in suites load, each scenario can be served, and a suite document with a mistake is refused. */
class SuiteTest {
    @ParameterizedTest
    @ValueSource(strings = {"http", "writes", "otlp"})
    void everyBuiltInSuiteLoadsWithDistinctIds(String name) {
        Suite s = Suite.builtIn(name);

        assertThat(s.name()).isEqualTo(name);
        assertThat(s.scenarios()).isNotEmpty();
        assertThat(s.scenarios().stream().map(SuiteScenario::id).distinct().count()).isEqualTo(s.scenarios().size());
        s.scenarios().forEach(c -> assertThat(c.scenario(s.method(), "Idempotency-Key").method()).isEqualTo(s.method()));
    }

    @Test
    void theHttpSuiteCoversTheFormsAndStatusesItPromises() {
        Suite http = Suite.builtIn("http");

        assertThat(http.method()).isEqualTo("GET");
        assertThat(http.scenarios().stream().map(c -> c.served().headerFormat()).distinct())
                .containsExactlyInAnyOrder(HeaderFormat.values());
        assertThat(http.scenarios().stream().map(c -> c.served().status()).distinct())
                .containsExactlyInAnyOrder(429, 503, 529, 500);
        assertThat(http.scenarios().get(0).served().delays()).containsExactly(3L, 1L, 4L);
        assertThat(http.scenarios().stream().filter(SuiteScenario::mayGiveUp).map(c -> c.served().delays().get(0)))
                .containsExactly(61L, 121L);
        assertThat(http.scenarios().get(0).describe()).isEqualTo("3x 429 Retry-After: 3, 1, 4 s, then 200");
    }

    @Test
    void anUnknownSuiteIsNone() {
        assertThat(Suite.builtIn("grpc")).isNull();
        assertThat(Suite.NAMES).containsExactly("http", "writes", "otlp");
    }

    @Test
    void aSuiteDocumentWithAnUnknownFieldOrABadStatusIsRefused() throws Exception {
        ObjectMapper json = new ObjectMapper();
        String scenario = "{\"id\": \"a\", \"title\": \"t\", \"why\": \"w\", \"bug\": \"b\", \"status\": %d, \"delays\": [1]%s}";
        String doc = "{\"suite\": \"s\", \"description\": \"d\", \"method\": \"GET\", \"scenarios\": [%s]}";

        assertThat(Suite.read(json.readTree(doc.formatted(scenario.formatted(429, ""))), "s.json").scenarios())
                .hasSize(1);
        assertThatThrownBy(() -> Suite.read(json.readTree(doc.formatted(scenario.formatted(429, ", \"stall\": 1"))),
                "s.json")).hasMessage("s.json: a: unknown field stall");
        assertThatThrownBy(() -> Suite.read(json.readTree(doc.formatted(scenario.formatted(418, ""))), "s.json"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Suite.read(json.readTree(doc.formatted("")), "s.json"))
                .hasMessage("s.json: a suite without scenarios");
    }
}
