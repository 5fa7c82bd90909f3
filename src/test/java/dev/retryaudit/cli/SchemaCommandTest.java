package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** {@code retry-audit schema}: prints each shipped schema, lists them, refuses unknown names. */
class SchemaCommandTest {
    @Test
    void printsEachSchemaAsShipped() throws IOException {
        for (String name : SchemaCommand.NAMES) {
            CliRunner.Result r = CliRunner.run("schema", name);
            assertThat(r.exit()).isZero();
            assertThat(r.err()).isEmpty();
            assertThat(r.out()).isEqualTo(SchemaCommand.text(name));
            JsonNode schema = new ObjectMapper().readTree(r.out());
            assertThat(schema.get("$schema").asText()).isEqualTo("https://json-schema.org/draft/2020-12/schema");
            assertThat(schema.get("$id").asText()).endsWith("/" + name + ".schema.json");
            assertThat(schema.get("title").asText()).isNotBlank();
        }
    }

    @Test
    void withoutANameListsTheSchemas() {
        CliRunner.Result r = CliRunner.run("schema");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).isEqualTo("operations\nspans\npolicy\nreport\nscorecard\n");
    }

    @Test
    void anUnknownNameIsAUsageErrorWithAHint() {
        CliRunner.Result r = CliRunner.run("schema", "span");
        assertThat(r.exit()).isEqualTo(64);
        assertThat(r.err()).contains("unknown schema (did you mean spans?): expected one of operations, spans, policy, report")
                .contains("Try 'retry-audit schema --help'");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void helpNamesTheSchemasAndTheTopLevelHelpTheCommand() {
        assertThat(CliRunner.run("schema", "--help").out()).contains("operations, spans, policy, report");
        assertThat(CliRunner.run("--help").out()).contains("schema");
    }
}
