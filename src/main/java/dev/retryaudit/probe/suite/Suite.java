package dev.retryaudit.probe.suite;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.retryaudit.probe.HeaderFormat;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A named list of probe scenarios, shipped as data ({@code /dev/retryaudit/probe/suites/NAME.json} in the jar):
 * the method its scenarios answer by default, a description, and the scenarios in the order they run.
 */
public record Suite(String name, String description, String method, List<SuiteScenario> scenarios) {
    /** The built-in suites, in the order they are listed. */
    public static final List<String> NAMES = List.of("http", "writes", "otlp");

    private static final Set<String> SUITE_FIELDS = Set.of("suite", "description", "method", "scenarios");
    private static final Set<String> SCENARIO_FIELDS = Set.of("id", "title", "why", "bug", "status", "failures",
            "delays", "header_format", "stall_seconds", "dedupe", "timeout_seconds", "may_give_up");

    public Suite {
        Objects.requireNonNull(name, "name");
        scenarios = List.copyOf(scenarios);
    }

    /** The built-in suite {@code name}, or null when there is none of that name. */
    public static Suite builtIn(String name) {
        if (!NAMES.contains(name)) {
            return null;
        }
        String resource = "/dev/retryaudit/probe/suites/" + name + ".json";
        try (InputStream in = Suite.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the jar lacks " + resource);
            }
            return read(new ObjectMapper().readTree(in), resource);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The suite a document describes; {@code where} names it in the error of a document that is not one. */
    static Suite read(JsonNode doc, String where) {
        known(doc, SUITE_FIELDS, where);
        List<SuiteScenario> list = new ArrayList<>();
        for (JsonNode s : doc.path("scenarios")) {
            String at = where + ": " + s.path("id").asText("?");
            known(s, SCENARIO_FIELDS, at);
            List<Long> delays = new ArrayList<>();
            s.path("delays").forEach(d -> delays.add(d.asLong()));
            SuiteScenario.Served served = new SuiteScenario.Served(s.path("status").asInt(), s.path("failures").asInt(1),
                    delays.isEmpty() ? List.of(0L) : delays, HeaderFormat.parse(s.path("header_format").asText("seconds")),
                    s.path("stall_seconds").asLong(0), s.path("dedupe").asBoolean(true));
            SuiteScenario scenario = new SuiteScenario(text(s, "id", at), text(s, "title", at), text(s, "why", at),
                    text(s, "bug", at), served, s.path("timeout_seconds").asLong(30), s.path("may_give_up").asBoolean(false));
            scenario.scenario("GET", "Idempotency-Key"); // refuses a scenario the probe cannot serve
            list.add(scenario);
        }
        if (list.isEmpty()) {
            throw new IllegalStateException(where + ": a suite without scenarios");
        }
        return new Suite(text(doc, "suite", where), text(doc, "description", where), text(doc, "method", where), list);
    }

    private static void known(JsonNode node, Set<String> fields, String where) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext();) {
            String f = it.next();
            if (!fields.contains(f)) {
                throw new IllegalStateException(where + ": unknown field " + f);
            }
        }
    }

    private static String text(JsonNode node, String field, String where) {
        JsonNode v = node.get(field);
        if (v == null || !v.isTextual() || v.asText().isBlank()) {
            throw new IllegalStateException(where + ": " + field + " must be a non-empty string");
        }
        return v.asText();
    }
}
