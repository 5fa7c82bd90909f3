package dev.retryaudit.cli;

import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;

/** The process's streams as the commands see them: raw stdin and stdout for data, writers for text. */
record Streams(InputStream stdin, OutputStream stdout, PrintWriter out, PrintWriter err) {
}
