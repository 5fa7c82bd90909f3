package dev.retryaudit.input;

import dev.retryaudit.model.Operation;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Reads test inputs given as text through the real input set, as one named stdin source. */
final class Inputs {
    private Inputs() {
    }

    static List<Operation> read(String name, String content) throws InputException {
        return read(name, content, InputFormat.AUTO, Limits.DEFAULTS);
    }

    static List<Operation> read(String name, String content, InputFormat format, Limits limits) throws InputException {
        return read(name, new ByteArrayInputStream(content.getBytes(StandardCharsets.UTF_8)), format, limits);
    }

    static List<Operation> read(String name, InputStream in, InputFormat format, Limits limits) throws InputException {
        List<Operation> ops = new ArrayList<>();
        new InputSet(format, limits).readAll(List.of(new InputSet.Source(name, null)), in, ops::add);
        return ops;
    }

    /** The diagnostic line of the rejection that reading {@code content} must raise. */
    static String rejection(String name, String content) {
        try {
            read(name, content);
        } catch (InputException e) {
            return e.diagnostic();
        }
        throw new AssertionError("input was accepted: " + content);
    }
}
