package dev.retryaudit.input.reader;

import dev.retryaudit.json.JsonCursor;
import dev.retryaudit.model.internal.InputException;

/**
 * The one line discipline of the formats that come as one JSON document or as JSON Lines: a value
 * that spans several lines is the whole document, and nothing may follow it; otherwise every value
 * fits on its own line, with no second value on a line. A reader calls {@link #start} at each
 * top-level value and {@link #end} after it; the messages name what the format holds.
 */
public final class LineDiscipline {
    private final String source;
    private final String document;
    private final String lines;
    private final String spansSeveral;
    private final boolean linesOnly;
    private long records;
    private boolean multiline;
    private long previousEnd;
    private long startLine;
    private long startColumn;

    /**
     * @param document what a file of one document holds, after "trailing content after the JSON document: "
     * @param lines what JSON Lines hold, after "a second JSON value on one line: "
     * @param spansSeveral the error of a value that spans several lines where it must fit on one
     * @param linesOnly whether the input is JSON Lines only, never one document over several lines
     */
    public LineDiscipline(String source, String document, String lines, String spansSeveral, boolean linesOnly) {
        this.source = source;
        this.document = document;
        this.lines = lines;
        this.spansSeveral = spansSeveral;
        this.linesOnly = linesOnly;
    }

    /** A top-level value starts at the cursor: rejected after a document, or on the line of the one before. */
    public void start(JsonCursor c) throws InputException {
        startLine = c.line();
        startColumn = c.column();
        if (records > 0 && multiline) {
            throw c.error("$", "trailing content after the JSON document: " + document);
        }
        if (records > 0 && startLine <= previousEnd) {
            throw c.error("$", "a second JSON value on one line: " + lines);
        }
    }

    /** The line of the value {@link #start} saw last. */
    public long startLine() {
        return startLine;
    }

    /** The column of the value {@link #start} saw last. */
    public long startColumn() {
        return startColumn;
    }

    /** The value that {@link #start} saw ends at the cursor: over several lines, it must be the only one. */
    public void end(JsonCursor c) throws InputException {
        previousEnd = c.line();
        if (previousEnd != startLine) {
            if (records > 0 || linesOnly) {
                throw InputException.rejected(source, startLine, startColumn, "$", spansSeveral);
            }
            multiline = true;
        }
        records++;
    }

    /** A value on line {@code line} alone, read by another discipline (of one chunk of the lines): counts as read here. */
    public void counted(long line) {
        previousEnd = line;
        records++;
    }

    /** How many top-level values were read. */
    public long records() {
        return records;
    }
}
