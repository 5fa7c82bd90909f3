package dev.retryaudit.report.html;

import dev.retryaudit.text.Escaping;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Locale;

/**
 * What makes the HTML report safe to open: escaping for every string from the input, the one style sheet,
 * and the Content-Security-Policy that allows that style sheet and nothing else (no script, no network).
 */
public final class Html {
    /** The report's style sheet, inlined in the page. */
    public static final String STYLE = load("report.css");

    /** The page's policy: only the inline style sheet, by its hash; no script, image, font, frame or form target. */
    public static final String POLICY = "default-src 'none'; style-src '" + sha256(STYLE) + "'; base-uri 'none'; "
            + "form-action 'none'";

    private Html() {
    }

    /**
     * {@code s} for HTML text, a double-quoted attribute value or SVG text: control characters and lone
     * surrogates as {@code \\uXXXX} (as every format prints them), then {@code & < > " '} as references.
     */
    public static String escape(String s) {
        if (s == null) {
            return "";
        }
        if (plain(s)) {
            return s;
        }
        String c = Escaping.controls(s);
        StringBuilder b = null;
        for (int i = 0; i < c.length(); i++) {
            String ref = switch (c.charAt(i)) {
                case '&' -> "&amp;";
                case '<' -> "&lt;";
                case '>' -> "&gt;";
                case '"' -> "&quot;";
                case '\'' -> "&#39;";
                default -> null;
            };
            if (ref != null && b == null) {
                b = new StringBuilder(c.length() + 16).append(c, 0, i);
            }
            if (b != null) {
                if (ref != null) {
                    b.append(ref);
                } else {
                    b.append(c.charAt(i));
                }
            }
        }
        return b == null ? c : b.toString();
    }

    /** Whether {@code s} is printable ASCII without a character HTML escapes: most strings, kept as they are in one pass. */
    private static boolean plain(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c >= 0x7f || c == '&' || c == '<' || c == '>' || c == '"' || c == '\'') {
                return false;
            }
        }
        return true;
    }

    /** A number with one decimal, the same on every machine (SVG coordinates). */
    static String num(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    private static String load(String name) {
        try (InputStream in = Html.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("the jar lacks " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String sha256(String s) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return "sha256-" + Base64.getEncoder().encodeToString(d);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
