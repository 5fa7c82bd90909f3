package dev.retryaudit.api;

import dev.retryaudit.input.operations.SpanLines;

/**
 * One line of a source, for an engine that reads a source in parts on several machines (a Spark job)
 * and hands the library one line at a time: the source's name and position among the inputs, the
 * line's 1-based number among all lines of the source (blank ones included) and its UTF-8 bytes
 * without the line break.
 */
public record SourceLine(String source, int sourceIndex, long line, byte[] bytes) {
    SpanLines.Text text() {
        return new SpanLines.Text(source, sourceIndex, line, bytes);
    }
}
