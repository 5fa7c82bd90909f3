package dev.retryaudit.json;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.Limit;
import dev.retryaudit.model.Limits;
import dev.retryaudit.text.Escaping;
import java.io.CharConversionException;
import java.io.IOException;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one wording of what a parser itself throws (malformed JSON, invalid UTF-8, a Jackson limit,
 * the byte limit) as input errors at the parser's place and path, for every reader of a file.
 */
public final class ParseFailures {
    private static final Pattern FIRST_NUMBER = Pattern.compile("\\((\\d+)\\)");

    private ParseFailures() {
    }

    /** A read that may fail in the parser. */
    public interface Body<T> {
        T run() throws IOException, InputException;
    }

    /**
     * Runs {@code body}, turning parser failures into input errors of {@code source}. {@code parser}
     * gives the parser that failed (null before one was opened); {@code limits} word the limit messages.
     */
    public static <T> T reading(String source, Supplier<JsonParser> parser, Limits limits, Body<T> body)
            throws IOException, InputException {
        try {
            return body.run();
        } catch (ByteBudget.ExceededException e) {
            throw bytesExceeded(source, e.line(), e.column(), parser.get(), limits.bytes(), e.decompressed());
        } catch (StreamConstraintsException e) {
            Passed passed = passed(e.getOriginalMessage(), limits);
            throw at(source, parser.get(), e.getLocation(), passed.detail()).over(passed.limit());
        } catch (JsonProcessingException e) {
            throw at(source, parser.get(), e.getLocation(), "malformed JSON: " + jacksonMessage(e.getOriginalMessage()));
        } catch (CharConversionException e) {
            throw at(source, parser.get(), null, "not valid UTF-8: " + jacksonMessage(e.getMessage()));
        }
    }

    /** A source that could not be read at all. */
    public static InputException unreadable(String source, IOException e) {
        return InputException.unreadable(source, "cannot be read: " + Escaping.controls(String.valueOf(e.getMessage())));
    }

    /** The byte limit was passed at {@code line}:{@code column} of {@code source}, read by {@code parser} (or none yet). */
    public static InputException bytesExceeded(String source, long line, long column, JsonParser parser, long limit) {
        return bytesExceeded(source, line, column, parser, limit, false);
    }

    /**
     * The byte limit was passed as {@link #bytesExceeded(String, long, long, JsonParser, long)} says, in a
     * source whose bytes count {@code decompressed} (a compressed file counts its decompressed text).
     */
    public static InputException bytesExceeded(String source, long line, long column, JsonParser parser, long limit,
            boolean decompressed) {
        return at(source, parser, line, column, "input exceeds the byte limit: more than " + limit + " bytes read"
                + (decompressed ? " (the decompressed size counts)" : "")).over(Limit.BYTES);
    }

    private static InputException at(String source, JsonParser p, JsonLocation where, String detail) {
        if (p == null) {
            return InputException.rejected(source, 1, 1, null, detail);
        }
        JsonLocation l = where != null ? where : p.currentLocation();
        return at(source, p, l.getLineNr(), l.getColumnNr(), detail);
    }

    private static InputException at(String source, JsonParser p, long line, long column, String detail) {
        return InputException.rejected(source, Math.max(1, line), Math.max(1, column),
                p == null ? null : JsonCursor.path(p.getParsingContext()), detail);
    }

    /** A limit Jackson enforced, as the input layer words it. */
    private record Passed(String detail, Limit limit) {
    }

    private static Passed passed(String jackson, Limits limits) {
        String m = jackson == null ? "" : jackson;
        Matcher number = FIRST_NUMBER.matcher(m);
        String reached = number.find() ? number.group(1) : "?";
        if (m.contains("nesting depth")) {
            return new Passed("input nests deeper than the depth limit of " + limits.depth() + " (depth " + reached
                    + " reached)", Limit.DEPTH);
        }
        if (m.startsWith("Name")) {
            return new Passed("a field name of more than " + limits.nameLength() + " characters exceeds the limit on "
                    + "names (the string limit, at least " + Limits.MIN_NAME_LENGTH + ")", Limit.STRING);
        }
        return new Passed("a string of more than " + limits.stringLength() + " characters exceeds the string limit",
                Limit.STRING);
    }

    private static String jacksonMessage(String m) {
        String first = m == null ? "" : m.lines().findFirst().orElse("");
        first = first.replaceAll("\\s*\\(start marker at \\[Source:[^\\]]*\\]\\)", "");
        return Escaping.shortened(first, 200);
    }
}
