package dev.retryaudit.input.foreign;

import dev.retryaudit.model.Outcome;

/**
 * What an exception's stack trace ({@code exception.stacktrace}) says about how a request failed,
 * where the exception's type and message do not: a client that wraps the failure
 * (Reactor Netty's {@code WebClientRequestException}) names the timeout or connection failure only in
 * a cause. Only the lines that name an exception are read, never the frames (a frame such as
 * {@code ConnectInterceptor.intercept} names no failure): the first line (Java, JavaScript), the
 * {@code Caused by:} lines (Java), the {@code [cause]:} lines (Node's inspection of an error), and the
 * unindented lines of a Python traceback.
 */
public final class ExceptionCauses {
    /** A stack trace longer than this is read only this far: the exceptions that matter come first. */
    private static final int MAX_CHARS = 1 << 16;

    private ExceptionCauses() {
    }

    /** The outcome that the first exception line naming one names ({@link Http#errorOutcome}), or null. */
    public static Outcome outcome(String stacktrace) {
        if (stacktrace == null) {
            return null;
        }
        int end = Math.min(stacktrace.length(), MAX_CHARS);
        boolean python = stacktrace.startsWith("Traceback ");
        boolean first = true;
        for (int from = 0; from < end; ) {
            int nl = stacktrace.indexOf('\n', from);
            int to = nl < 0 || nl > end ? end : nl;
            String line = exceptionLine(stacktrace, from, to, first, python);
            first = first && stacktrace.substring(from, to).isBlank();
            if (line != null) {
                Outcome o = Http.errorOutcome(line);
                if (o != null) {
                    return o;
                }
            }
            from = to + 1;
        }
        return null;
    }

    /** The exception that line {@code from..to} names (its type and message), or null when it names none. */
    private static String exceptionLine(String s, int from, int to, boolean first, boolean python) {
        String line = s.substring(from, to).strip();
        if (line.isEmpty()) {
            return null;
        }
        if (line.startsWith("Caused by: ")) {
            return line.substring("Caused by: ".length());
        }
        if (line.startsWith("[cause]: ")) {
            return line.substring("[cause]: ".length());
        }
        boolean indented = Character.isWhitespace(s.charAt(from));
        if (python) {
            return indented || line.startsWith("Traceback ") || line.startsWith("During handling of the above")
                    || line.startsWith("The above exception was") ? null : line;
        }
        return first ? line : null;
    }
}
