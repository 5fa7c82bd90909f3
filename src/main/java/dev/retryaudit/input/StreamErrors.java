package dev.retryaudit.input;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.retryaudit.text.Escaping;
import java.io.CharConversionException;
import java.io.IOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Turns what the parser or the byte budget throws while a source is read into the input error a user sees (exit 65). */
final class StreamErrors {
    private static final Pattern FIRST_NUMBER = Pattern.compile("\\((\\d+)\\)");

    private StreamErrors() {
    }

    /**
     * The input error for {@code e}, located at the cursor's position (or the parser's own location
     * of the error), or null when {@code e} is not about the content (a failing disk, say).
     */
    static InputException translate(IOException e, String source, JsonCursor cursor, long byteLimit) {
        if (e instanceof ByteBudget.ExceededException) {
            return at(source, cursor, null, "input exceeds the byte limit: more than " + byteLimit
                    + " bytes read (raise it with --limit-bytes)");
        }
        if (e instanceof StreamConstraintsException x) {
            return at(source, cursor, x.getLocation(), limitMessage(x.getOriginalMessage()));
        }
        if (e instanceof JsonProcessingException x) {
            return at(source, cursor, x.getLocation(), "malformed JSON: " + jacksonMessage(x.getOriginalMessage()));
        }
        if (e instanceof CharConversionException) {
            return at(source, cursor, null, "not valid UTF-8: " + jacksonMessage(e.getMessage()));
        }
        return null;
    }

    private static InputException at(String source, JsonCursor c, JsonLocation where, String detail) {
        long line = 1;
        long column = 1;
        String path = null;
        if (c != null) {
            JsonLocation l = where != null ? where : c.parser().currentLocation();
            line = Math.max(1, l.getLineNr());
            column = Math.max(1, l.getColumnNr());
            path = JsonCursor.path(c.parser().getParsingContext());
        }
        return InputException.rejected(source, line, column, path, detail);
    }

    private static String limitMessage(String jackson) {
        Matcher m = FIRST_NUMBER.matcher(jackson == null ? "" : jackson);
        String reached = m.find() ? m.group(1) : "?";
        if (jackson != null && jackson.contains("nesting depth")) {
            return "input nests deeper than the depth limit (depth " + reached
                    + " reached; raise it with --limit-depth)";
        }
        return "a string of at least " + reached + " characters exceeds the string limit (raise it with --limit-string)";
    }

    private static String jacksonMessage(String m) {
        String first = m == null ? "" : m.lines().findFirst().orElse("");
        return Escaping.shortened(first, 200);
    }
}
