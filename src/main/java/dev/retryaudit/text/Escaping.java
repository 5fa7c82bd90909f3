package dev.retryaudit.text;

/** Makes strings that came from the input safe to print on a terminal or in a one-line message. */
public final class Escaping {
    private Escaping() {
    }

    /**
     * Escapes what a terminal or a web page would act on instead of showing: C0 and C1 control
     * characters, DEL, lone surrogates, and the format and separator characters (Unicode categories Cf,
     * Zl, Zp: U+200B, U+202E right-to-left override, U+2028, U+2029, ...) as {@code \\uXXXX} (a
     * supplementary character as its two UTF-16 units), and \n, \r, \t, \e.
     */
    public static String controls(String s) {
        if (s == null) {
            return null;
        }
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c >= 0x20 && c < 0x7f) {
                i++;
            } else if (!needsEscape(s, i)) {
                i += Character.charCount(s.codePointAt(i));
            } else {
                break;
            }
        }
        if (i >= s.length()) {
            return s;
        }
        StringBuilder b = new StringBuilder(s.length() + 16).append(s, 0, i);
        while (i < s.length()) {
            int width = Character.isHighSurrogate(s.charAt(i)) && i + 1 < s.length()
                    && Character.isLowSurrogate(s.charAt(i + 1)) ? 2 : 1;
            if (!needsEscape(s, i)) {
                b.append(s, i, i + width);
            } else {
                for (int k = i; k < i + width; k++) {
                    escape(b, s.charAt(k));
                }
            }
            i += width;
        }
        return b.toString();
    }

    private static void escape(StringBuilder b, char c) {
        switch (c) {
            case '\n' -> b.append("\\n");
            case '\r' -> b.append("\\r");
            case '\t' -> b.append("\\t");
            case 0x1b -> b.append("\\e");
            default -> b.append(String.format("\\u%04x", (int) c));
        }
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
        if (c < 0xa0) {
            return false;
        }
        if (Character.isHighSurrogate(c)) {
            if (i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
                return true;
            }
            return hidden(s.codePointAt(i));
        }
        return Character.isLowSurrogate(c) || hidden(c);
    }

    /** Format and separator characters: invisible, or they move or break the text around them. */
    private static boolean hidden(int codePoint) {
        int type = Character.getType(codePoint);
        return type == Character.FORMAT || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR;
    }
}
