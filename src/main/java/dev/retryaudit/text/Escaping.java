package dev.retryaudit.text;

/** Makes strings that came from the input safe to print on a terminal or in a one-line message. */
public final class Escaping {
    private Escaping() {
    }

    /** Escapes C0 and C1 control characters, DEL and lone surrogates as {@code \\uXXXX} (and \n, \r, \t, \e). */
    public static String controls(String s) {
        if (s == null) {
            return null;
        }
        int i = 0;
        while (i < s.length() && !needsEscape(s, i)) {
            i++;
        }
        if (i == s.length()) {
            return s;
        }
        StringBuilder b = new StringBuilder(s.length() + 16).append(s, 0, i);
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!needsEscape(s, i)) {
                b.append(c);
                if (Character.isHighSurrogate(c)) {
                    b.append(s.charAt(++i));
                }
                continue;
            }
            switch (c) {
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case 0x1b -> b.append("\\e");
                default -> b.append(String.format("\\u%04x", (int) c));
            }
        }
        return b.toString();
    }

    /** Escapes control characters and cuts the result to at most {@code max} characters, marking the cut. */
    public static String shortened(String s, int max) {
        String e = controls(s);
        if (e == null || e.length() <= max) {
            return e;
        }
        int end = max;
        if (Character.isHighSurrogate(e.charAt(end - 1))) {
            end--;
        }
        return e.substring(0, end) + "…";
    }

    private static boolean needsEscape(String s, int i) {
        char c = s.charAt(i);
        if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
            return true;
        }
        if (Character.isHighSurrogate(c)) {
            return i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1));
        }
        return Character.isLowSurrogate(c);
    }
}
