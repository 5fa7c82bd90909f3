package dev.retryaudit.input.json;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.retryaudit.input.InputException;
import dev.retryaudit.input.Limits;
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
            throw at(source, parser.get(), e.line(), e.column(), bytesExceeded(limits.bytes()));
        } catch (StreamConstraintsException e) {
            throw at(source, parser.get(), e.getLocation(), limitMessage(e.getOriginalMessage(), limits));
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

    public static String bytesExceeded(long limit) {
        return "input exceeds the byte limit: more than " + limit + " bytes read (raise it with --limit-bytes)";
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

    private static String limitMessage(String jackson, Limits limits) {
        String m = jackson == null ? "" : jackson;
        Matcher number = FIRST_NUMBER.matcher(m);
        String reached = number.find() ? number.group(1) : "?";
        if (m.contains("nesting depth")) {
            return "input nests deeper than the depth limit of " + limits.depth() + " (depth " + reached
                    + " reached; raise it with --limit-depth, at most " + Limits.MAX_DEPTH + ")";
        }
        if (m.startsWith("Name")) {
            return "a field name of more than " + limits.nameLength() + " characters exceeds the limit on names "
                    + "(the string limit, at least " + Limits.MIN_NAME_LENGTH + "; raise it with --limit-string)";
        }
        return "a string of more than " + limits.stringLength()
                + " characters exceeds the string limit (raise it with --limit-string)";
    }

    private static String jacksonMessage(String m) {
        String first = m == null ? "" : m.lines().findFirst().orElse("");
        first = first.replaceAll("\\s*\\(start marker at \\[Source:[^\\]]*\\]\\)", "");
        return Escaping.shortened(first, 200);
    }
}
