package dev.retryaudit.input.foreign;

import dev.retryaudit.model.Outcome;
import java.util.Locale;

/**
 * What an HTTP send that got no response status and ended in an error says of its write: nobody knows
 * whether it landed. A client that aborted its own request (an SDK's timer, {@code AbortError},
 * DOMException 20 {@code ABORT_ERR} or 23 {@code TIMEOUT_ERR}, a cancellation) stopped waiting, as after
 * a timeout; any other error with no response (a reset, "Socket closed", a stream ended early) may
 * come after the request was written, and reads as a connection error. Both leave the outcome
 * unknown to the rules. An error that names a refused connection or a failed name lookup keeps the
 * reading it has. A tool call its caller aborted is read the same way.
 */
final class Unanswered {
    private Unanswered() {
    }

    /** The outcome of a send with no status that was read as {@code outcome} from {@code errorType} and the status message. */
    static Outcome outcome(Outcome outcome, String errorType, String statusMessage) {
        if (outcome == null || outcome == Outcome.SUCCESS || outcome == Outcome.TIMEOUT
                || outcome == Outcome.CONNECTION_ERROR) {
            return outcome;
        }
        if (outcome == Outcome.CANCELLED || aborted(errorType) || aborted(statusMessage)) {
            return Outcome.TIMEOUT;
        }
        return Outcome.CONNECTION_ERROR;
    }

    /**
     * The outcome of a tool span read as {@code outcome}: a tool call that failed because its caller
     * aborted it ({@code MCPClientError: Request was aborted}, an {@code AbortError}) stopped waiting, as
     * after a timeout, so whether the tool ran is unknown; any other outcome stays.
     */
    static Outcome aborted(Outcome outcome, String errorType, String statusMessage) {
        return outcome == Outcome.ERROR && (aborted(errorType) || aborted(statusMessage)) ? Outcome.TIMEOUT : outcome;
    }

    /** Whether an error type or message names a client's abort of its own request. */
    private static boolean aborted(String text) {
        if (text == null) {
            return false;
        }
        String t = text.strip().toLowerCase(Locale.ROOT);
        return t.equals("20") || t.equals("23") || t.contains("abort");
    }
}
