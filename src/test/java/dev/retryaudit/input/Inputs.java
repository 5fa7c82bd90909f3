package dev.retryaudit.input;

import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Operation;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Reads test inputs given as text through the real input set, as one named stdin source. */
public final class Inputs {
    private Inputs() {
    }

    public static List<Operation> read(String name, String content) throws InputException {
        return read(name, content, InputFormat.AUTO, Limits.DEFAULTS);
    }

    public static List<Operation> read(String name, String content, InputFormat format, Limits limits) throws InputException {
        return read(name, new ByteArrayInputStream(content.getBytes(StandardCharsets.UTF_8)), format, limits);
    }

    public static List<Operation> read(String name, InputStream in, InputFormat format, Limits limits) throws InputException {
        List<Operation> ops = new ArrayList<>();
        new InputSet(format, limits).readAll(List.of(new InputSet.Source(name, null)), in, ops::add);
        return ops;
    }

    /** The diagnostic line of the rejection that reading {@code content} must raise. */
    public static String rejection(String name, String content) {
        try {
            read(name, content);
        } catch (InputException e) {
            return e.diagnostic();
        }
        throw new AssertionError("input was accepted: " + content);
    }

    /** The operations read from {@code text} given on standard input in {@code format}. */
    public static List<Operation> read(InputFormat format, String text) throws InputException {
        return read(InputSet.STDIN, text, format, Limits.DEFAULTS);
    }

    /** The error that reading {@code text} in {@code format} must end with. */
    public static InputException rejected(InputFormat format, String text) {
        return rejected(format, text, Limits.DEFAULTS);
    }

    public static InputException rejected(InputFormat format, String text, Limits limits) {
        try {
            List<Operation> ops = read(InputSet.STDIN, text, format, limits);
            throw new AssertionError("expected the input to be rejected, but it was read as " + ops.size() + " operations");
        } catch (InputException e) {
            return e;
        }
    }
}
