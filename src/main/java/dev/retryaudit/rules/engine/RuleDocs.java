package dev.retryaudit.rules.engine;

import dev.retryaudit.rules.RuleInfo;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Each rule's long documentation: one markdown resource per rule, {@code rules/<family>/<name>.md} in the jar. */
public final class RuleDocs {
    private RuleDocs() {
    }

    /** The resource path of a rule's documentation. */
    public static String resource(RuleInfo info) {
        return "/rules/" + info.family() + "/" + info.name() + ".md";
    }

    /** The markdown text, or null when the jar has none for this rule. */
    public static String markdown(RuleInfo info) {
        try (InputStream in = RuleDocs.class.getResourceAsStream(resource(info))) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
