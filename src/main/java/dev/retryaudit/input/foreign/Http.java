package dev.retryaudit.input.foreign;

import dev.retryaudit.model.Outcome;
import java.util.Locale;

/**
 * HTTP facts that the foreign-format readers share: what a status or an error type says about an
 * attempt, and a URL's host.
 */
public final class Http {
    private Http() {
    }

    /** The outcome a caller saw from a final status: 1xx to 3xx succeeded, 4xx and 5xx failed. */
    public static Outcome outcome(int status) {
        return status < 400 ? Outcome.SUCCESS : Outcome.ERROR;
    }

    /** Whether a status sends the client on to a request of the same attempt (a redirect; 304 is final). */
    static boolean isRedirect(int status) {
        return status >= 300 && status < 400 && status != 304;
    }

    /** Whether a status is an authentication challenge, answered by sending the request again with credentials. */
    static boolean isChallenge(int status) {
        return status == 401 || status == 407;
    }

    /**
     * The outcome named by an error type or exception class ({@code timeout},
     * {@code java.net.SocketTimeoutException}, {@code ConnectionRefusedError}), or null when it names
     * some other failure.
     */
    public static Outcome errorOutcome(String errorType) {
        String e = errorType.toLowerCase(Locale.ROOT);
        if (e.contains("timeout") || e.contains("timedout") || e.contains("timed_out") || e.contains("timed out") || e.contains("deadline")) {
            return Outcome.TIMEOUT;
        }
        if (e.contains("cancel")) {
            return Outcome.CANCELLED;
        }
        if (e.contains("connect") || e.contains("econnre") || e.contains("unknownhost") || e.contains("unreachable")) {
            return Outcome.CONNECTION_ERROR;
        }
        return null;
    }

    /** The host (with its port, if any) of an absolute URL, or null when the URL has none. */
    public static String host(String url) {
        int scheme = url.indexOf("://");
        if (scheme < 0) {
            return null;
        }
        int start = scheme + 3;
        int end = start;
        while (end < url.length() && "/?#".indexOf(url.charAt(end)) < 0) {
            end++;
        }
        int userinfo = url.lastIndexOf('@', end - 1);
        String authority = url.substring(userinfo >= start ? userinfo + 1 : start, end);
        return authority.isEmpty() ? null : authority;
    }

    /**
     * A URL as compared between requests: scheme and host in lower case, the scheme's default port
     * and the fragment dropped; path and query as sent. Null stays null.
     */
    static String normalisedUrl(String url) {
        if (url == null) {
            return null;
        }
        int hash = url.indexOf('#');
        String u = hash < 0 ? url : url.substring(0, hash);
        int scheme = u.indexOf("://");
        if (scheme < 0) {
            return u;
        }
        int start = scheme + 3;
        int end = start;
        while (end < u.length() && "/?".indexOf(u.charAt(end)) < 0) {
            end++;
        }
        if (end < u.length() && plainLowerCase(u, 0, scheme) && plainLowerCase(u, start, end)
                && !(u.startsWith("http:") && end - 3 >= start && u.startsWith(":80", end - 3))
                && !(u.startsWith("https:") && end - 4 >= start && u.startsWith(":443", end - 4))) {
            return u;
        }
        String schemeName = u.substring(0, scheme).toLowerCase(Locale.ROOT);
        String authority = u.substring(start, end).toLowerCase(Locale.ROOT);
        if (schemeName.equals("http") && authority.endsWith(":80")
                || schemeName.equals("https") && authority.endsWith(":443")) {
            authority = authority.substring(0, authority.lastIndexOf(':'));
        }
        String rest = u.substring(end);
        return schemeName + "://" + authority + (rest.isEmpty() ? "/" : rest);
    }

    /** Whether characters {@code from..to} of {@code s} are ASCII with no upper-case letter: lower-casing keeps them. */
    private static boolean plainLowerCase(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char ch = s.charAt(i);
            if (ch >= 0x80 || ch >= 'A' && ch <= 'Z') {
                return false;
            }
        }
        return true;
    }

    /** The tool name of an HTTP operation without one of its own: the method and the host. */
    static String toolName(String method, String host) {
        return host == null ? method : method + " " + host;
    }
}
