package dev.retryaudit.input;

import dev.retryaudit.model.Operation;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Reads test inputs through the real input set, as the audit does, and collects the operations. */
final class Inputs {
    private Inputs() {
    }

    /** The operations read from {@code text} given on standard input in {@code format}. */
    static List<Operation> read(InputFormat format, String text) throws InputException {
        return read(format, text, Limits.DEFAULTS);
    }

    static List<Operation> read(InputFormat format, String text, Limits limits) throws InputException {
        List<Operation> ops = new ArrayList<>();
        new InputSet(format, limits).readAll(List.of(InputSet.Source.of("-")),
                new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), ops::add);
        return ops;
    }

    /** The error that reading {@code text} in {@code format} must end with. */
    static InputException rejected(InputFormat format, String text) {
        return rejected(format, text, Limits.DEFAULTS);
    }

    static InputException rejected(InputFormat format, String text, Limits limits) {
        try {
            List<Operation> ops = read(format, text, limits);
            throw new AssertionError("expected the input to be rejected, but it was read as " + ops.size() + " operations");
        } catch (InputException e) {
            return e;
        }
    }
}
