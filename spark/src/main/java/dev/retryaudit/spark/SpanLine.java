package dev.retryaudit.spark;

import java.io.Serializable;

/**
 * One line (or Parquet record, as JSON) of one source: the source's position among the inputs, its
 * 1-based line number there (blank lines counted; a record index {@code i} is line {@code i + 1}) and
 * its UTF-8 bytes without the line break.
 */
record SpanLine(int sourceIndex, long line, byte[] bytes) implements Serializable {
}
